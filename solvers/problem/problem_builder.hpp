#pragma once
// The one host-side builder of the PDE problem shared by all variants (QuantLib's FdmSolverDesc):
// mesh, operators, payoff, events, time grid and damping, built once and handed to a variant
// const. A variant decides only how the steps are executed.
#include <cstddef>
#include <functional>
#include <vector>

#include "solvers/problem/grid_options.hpp"
#include "solvers/problem/problem.hpp"

namespace elsbench {

// Throws SolverError(Unstable) when `stepping` is ExplicitStable and grid.nt asks for a step
// beyond the stability bound: checked on the 1-D operators, before any full-grid array exists.
// before_arrays(points, steps), when given, runs once the mesh and the time grid are known and
// before any full-grid array is allocated: the pre-flight check of what the pricing will need.
// Its steps are the march's (TimeGrid::march_steps: a damped step counts half).
using BeforeArrays = std::function<void(std::size_t points, double steps)>;
// More time steps than any case of the sweeps takes (daily dates over 30 years are 11,000): the
// time grid itself would take gigabytes. The bound of every way to ask for steps (--nt, a sweep's
// rule, a validation preset), checked again before the grid is allocated.
inline constexpr double kMaxTimeSteps = 1e7;

// The problem's mesh (axes, mixed terms) and time grid alone, as build_problem makes them, with
// no full-grid array, payoff or event: what a pricing will march, known before it marches.
Problem plan_problem(const Product& product, const GridOptions& grid, const TimeStepping& stepping = {});
Problem build_problem(const Product& product, const GridOptions& grid, const TimeStepping& stepping = {},
                      const BeforeArrays& before_arrays = {});

// The problems of many notes (a GPU book's host set-up), built side by side on the OpenMP threads,
// a note to a thread (each build's own node loops then run on its thread alone); the first
// failure in note order is rethrown once every note has been tried. before_arrays(note, points,
// steps), when given, is each note's pre-flight. Their event sides are per-axis fractions only
// (`event_weights` empty): the on-chip march forms phi from them, the batched march's image
// forms its per-node weights with node_weights.
using BeforeNoteArrays = std::function<void(std::size_t note, std::size_t points, double steps)>;
std::vector<Problem> build_problems(const std::vector<const Product*>& products, const GridOptions& grid,
                                    const TimeStepping& stepping = {}, const BeforeNoteArrays& before_arrays = {});
// The batch a book's march takes: a pointer to each problem, in order.
std::vector<const Problem*> pointers_to(const std::vector<Problem>& problems);

// phi per node of one event side (`Problem::event_weights`), from its per-axis fractions.
std::vector<double> node_weights(const Problem& pb, const CellFractions& side);
// phi per node of every event side: the problem's own arrays, or, where it was built without them
// (build_problems), formed from its fractions into `formed`, which must outlive the result.
const std::vector<std::vector<double>>& node_weights(const Problem& pb, std::vector<std::vector<double>>& formed);

// TimeStepping::PerYear: n / 2 steps per year of maturity, at least 50.
int steps_per_year_rule(const Product& product, int n);

// Whether the far boundary leaves the note's price nothing to truncate that an error bar need
// price: an ELS whose S_max lies kBoundedSpread sd of log S or more above its highest barrier
// on every axis (the mesh `grid` makes; docs/accuracy.md, "The domain level").
bool truncation_negligible(const Product& product, const GridOptions& grid);

}  // namespace elsbench
