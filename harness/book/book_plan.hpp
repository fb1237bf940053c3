#pragma once
// What `book price --dry-run` prints before any work: the book's notes by underlyings, the work of
// its marches (grid points x layers x march steps, the placement's estimate) and the time that work
// takes at the rates the project measured for the variant (solvers/contract/cost_model.hpp), over
// the threads or devices the book would run on. An estimate, not a promise: the rates are those
// of the calibration machines, and a GPU's are its single-note march's.
#include <optional>
#include <string>

#include "harness/book/book_run.hpp"
#include "products/book_file.hpp"

namespace elsbench {

struct BookPlan {
  std::size_t notes = 0, bad_lines = 0;
  std::size_t by_assets[4] = {0, 0, 0, 0};  // notes of 1, 2, 3 underlyings at [1..3]
  std::size_t refused = 0;                  // notes of more underlyings than the solver takes
  double work = 0;                          // point-layer-steps of the notes it takes
  int parallel = 1;                         // CPU threads, or devices
  // Seconds at the fastest and the slowest measured rate, and at each grid's own (rate_at: the
  // rate measured at its size); empty where no rate was measured. With a target, low_seconds
  // alone: a lower bound, the grids the pilots choose being unknown.
  std::optional<double> low_seconds, high_seconds, expected_seconds;
};

BookPlan plan_book(const Book& book, const BookRunSpec& spec);
// The plan in a few lines, the last two "expected_seconds: E" and "estimate_seconds: LOW HIGH" (with
// a target the last "estimate_seconds: LOW", a lower bound; or "estimate_seconds: unmeasured") for
// scripts (ci/cloud-sweep.sh --dry-run).
std::string describe(const BookPlan& plan, const BookRunSpec& spec);

}  // namespace elsbench
