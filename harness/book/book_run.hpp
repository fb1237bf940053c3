#pragma once
// A book run as `elsbench book price` does it: the notes priced where the placement puts them
// (harness/placement/), a progress line, and a results file of the one schema
// (harness/results/RESULTS_SCHEMA.md: a case per note, context.elsbench.book for the book)
// written by the one writer (harness/runner/run_file.hpp) as notes finish, so that a killed run
// leaves a whole file that --resume completes, and that `compare` and `report` read like a sweep's.
#include <cstddef>
#include <functional>
#include <optional>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "harness/book/book_references.hpp"
#include "harness/book/book_scenarios.hpp"
#include "harness/placement/book_price.hpp"
#include "harness/placement/ranks.hpp"
#include "harness/results/reporter.hpp"
#include "harness/run/price_run.hpp"
#include "harness/runner/run_attempts.hpp"
#include "products/book_file.hpp"
#include "solvers/contract/accuracy.hpp"
#include "solvers/contract/solver_info.hpp"

namespace elsbench {

struct BookRunSpec {
  std::string solver;
  SolverOptions options;        // device cpu or cuda:N; threads in `threads`
  std::optional<ErrorTarget> target;  // --target-error: each note on the grid that meets it
  // Neither a grid (--n, --nt) nor a target: each note on the accuracy contract's default grid,
  // Richardson's value with its error bar (price --error-estimate's); false: options.grid for all.
  bool default_grid = false;
  bool greeks = false;          // --greeks: vega, rho and theta per note besides delta and gamma
  GreekUnits greek_units = GreekUnits::Model;
  int threads = 0;              // CPU threads, 0: every core
  bool all_gpus = false;        // --device cuda:all
  std::string out;              // results file (JSON; the other formats' files beside it); empty: none
  std::vector<std::string> formats = default_out_formats();  // reporter.hpp
  bool resume = false;          // keep the notes already priced in `out`
  std::string command;          // recorded verbatim
  std::string instance;         // --instance (aws:p5.48xlarge...), recorded in the machine descriptor
  std::ostream* progress = nullptr;
  bool handle_signals = false;
  double write_interval_s = 0.5;  // least time between rewrites of the file while notes finish
  std::function<void(std::size_t notes_done)> after_note;  // called after each note is recorded
  std::function<void(const std::string& id)> note_started;  // called as each note's pricing starts
  // --reference stored|auto: each priced note judged against its reference after the book is priced
  // (outside the timed pricing; on rank 0 under mpirun); empty: prices only.
  std::optional<BookReferences> references;
  ScenarioLadder ladder;  // --spot-shifts / --vol-shifts: the book's value at each rung (book_scenarios.hpp)
  // A note that was being priced when the process died this many times (an abort, the
  // out-of-memory killer) is recorded as failed on --resume instead of being priced again; notes in
  // flight at one death are priced first, one at a time, so that a crash names its note.
  // Not counted under mpirun.
  int note_deaths = kDeathsToFail;
  const Ranks* ranks = nullptr;   // an mpirun run: each rank prices its cost-balanced share, rank 0
                                  // writes the file (once, at the end); nullptr: one process
};

struct BookRunSummary {
  std::size_t notes = 0, priced = 0, failed = 0, bad_lines = 0, resumed = 0;
  std::size_t validation_failed = 0;  // notes whose price is outside the allowance of their reference
  double seconds = 0, notes_per_second = 0;  // this call: notes priced / wall time
  nlohmann::json file;                        // the results as written ({context, benchmarks})
};

// The device of a book run, as `book price --device` names it: cpu, cuda:N, cuda:all (every GPU)
// or auto (the CPU: a book's placement names its devices). Keeps the CPU threads set; throws
// std::invalid_argument for another text.
void set_book_device(BookRunSpec& spec, const std::string& device);

// How each note is priced: the spec's target, Greeks and grid rule.
NotePricing note_pricing(const BookRunSpec& spec);

// The book's grid from what was asked (`book price`'s flags, book.price's keywords): a target
// (read_target's checks, `names` its field), a given grid, or else the default grid.
void choose_book_grid(BookRunSpec& spec, bool grid_given, const std::string& target_error, const std::string& source,
                      const AccuracyFields& names);

// On an mpirun run, every rank calls it; the summary (and file) are whole on rank 0 only.
BookRunSummary run_book(const Book& book, const BookRunSpec& spec);

// Throws InputError naming the file (and field) when it is not a book's results file.
nlohmann::json read_book_results(const std::string& path);
// A book's results, one aggregate entry per note in book order (the note's fields: price, delta,
// status, line...).
std::vector<nlohmann::json> book_notes(const nlohmann::json& results);

}  // namespace elsbench
