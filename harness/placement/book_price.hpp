#pragma once
// Pricing a book: every note priced by one variant on one grid, price, Greeks and status per
// note; a note that fails is recorded as failed and the book goes on. Each note's result equals its
// single-note price_with (same solver and options): notes are priced by price_with, or by
// price_book_with where the variant marches a batch (march_book) on a GPU.
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "harness/placement/case_outcome.hpp"
#include "products/product.hpp"
#include "solvers/contract/accuracy.hpp"
#include "solvers/contract/price_result.hpp"
#include "solvers/contract/risk_greeks.hpp"
#include "solvers/contract/solver_info.hpp"

namespace elsbench {

// A note's outcome as its pricing left it (unjudged, or failed with its status and reason), with
// its index in the list handed to price_book.
using NoteDone = std::function<void(std::size_t index, CaseOutcome outcome)>;

// Where the notes run: CPU threads (a note per thread when there are more notes than threads,
// else the threads over each note's lines), or GPUs (one host thread per device).
struct BookPlacement {
  std::vector<Device> workers;  // one per concurrent note; a CPU worker's threads are its own
  bool batched = false;         // each worker marches its share in one march_book call
};

// `threads` CPU threads (0: every core); `device` cpu or cuda:N; `gpus` the devices of cuda:all.
BookPlacement place_book(const SolverInfo& solver, std::size_t notes, const Device& device, int threads,
                         const std::vector<int>& gpus = {});

// The grid a note is priced on: the options' own (a fixed grid, for benchmarks), or the accuracy
// contract's default, Richardson's value from default_nodes(its assets) and half as many, with
// its error bar (price --error-estimate's) or without it (a scenario rung: the base price has one).
enum class NoteGrid { Given, DefaultWithBar, DefaultValue };

// What each note's pricing adds to its price: with a `target`, the note is priced to it
// (price_to_target: its own grid); with `greeks`, vega, rho and theta (add_risk_greeks) on the
// grid its price came from. Any of them prices the notes one by one (no GPU batch).
struct NotePricing {
  const ErrorTarget* target = nullptr;
  bool greeks = false;
  GreekUnits greek_units = GreekUnits::Model;
  NoteGrid grid = NoteGrid::Given;
  bool one_by_one() const { return target != nullptr || greeks || grid != NoteGrid::Given; }
};

// A note's work under `pricing` (points x steps: note_cost.hpp) for the queue's order and the
// progress; a target's grid is known after its pilot only: the least its search prices stands
// for it (target_levels_at_least).
double pricing_cost(const Product& note, const GridOptions& grid, const NotePricing& pricing);
// The same work by the grids it prices (extrapolated_levels) under the solver's `stepping`, for the
// rates of their sizes; where the builder refuses the fine grid, one level of its nodes.
std::vector<PlannedLevel> pricing_levels(const Product& note, const GridOptions& grid, const NotePricing& pricing,
                                         const TimeStepping& stepping);

// One note as `pricing` asks (target, grid; not the Greeks): the one rule of book notes and rungs.
PriceResult price_note(const SolverInfo& solver, const Product& note, const SolverOptions& options,
                       const NotePricing& pricing);

// Calls `done` once per note, from one thread at a time, in no particular order, and `started`
// (when given; from any worker thread) with a note's index before its pricing begins.
void price_book(const SolverInfo& solver, const std::vector<const Product*>& notes, const SolverOptions& options,
                const BookPlacement& placement, const NoteDone& done,
                const std::function<void(std::size_t)>& started = {}, const NotePricing& pricing = {});

}  // namespace elsbench
