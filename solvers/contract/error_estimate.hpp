#pragma once
// An estimate of a price's discretisation error from the price itself and coarser (or finer)
// grids, by Richardson's argument: with P(m) = P* + C m^-p along one axis of refinement (m the
// nodes per axis, or the time steps), two prices give the error of either, and three give the
// order p they actually converge at. Space (n, n/2, n/4 nodes, the steps fixed) and time (nt, nt/2,
// nt/4 steps at n; nt and 2 nt where daily dates or explicit Euler's bound forbid fewer) are
// estimated separately and their errors added, at the observed order where plausible (0.5 to 4),
// else the nominal one (docs/accuracy.md, "Error estimate (plain grids)").
#include <optional>
#include <vector>

#include "products/product.hpp"
#include "solvers/contract/price_result.hpp"
#include "solvers/contract/solver_info.hpp"
#include "solvers/problem/grid_options.hpp"

namespace elsbench {

// `base` is price_with(solver, product, options)'s result; its `error_estimate` is filled. Its
// bound is 1.5x the space and time errors' sum (a quarter of what cancels added) and the truncation (the price again
// with the mesh carried on to twice its S_max, on n/2 nodes), the space part widened to the whole
// change from n/2 to n where the levels are erratic (erratic_order).
void add_error_estimate(const SolverInfo& solver, const Product& product, SolverOptions options, PriceResult& base);

// The parts, for a caller with its own levels (accuracy.hpp); `base` priced at `options`.
AxisErrorEstimate time_estimate(const SolverInfo& solver, const Product& product, SolverOptions options,
                                const PriceResult& base);
// Whether options.grid.nt cannot make a coarser time level below `steps`: it gives more than 3/4
// of them (before the knock-in's sub-steps: the dates pin them, one a monitoring day), or explicit
// Euler's stability bound refuses it. Planned from the time grid alone (plan_problem), before
// anything is priced.
bool steps_pinned(const SolverInfo& solver, const Product& product, const SolverOptions& options, int steps);
// The same for a solver's `stepping` (TimeStepping's default, the solvers' own: no stability bound).
bool steps_pinned(const Product& product, const GridOptions& grid, int steps, const TimeStepping& stepping = {});
// Three levels of a second-order grid that show no order in [1.5, 3] are not in its asymptotic
// range, or a discontinuity moves against the nodes: Richardson's error would be a guess (a
// knocked-in generated note showed 0.8 and 1.6 from n = 72 to 576, and its bar from them missed).
bool erratic_order(const std::optional<double>& order);
// The space part of a bar from erratic levels at n, n/2, n/4: the whole change from n/2 to n, or a
// quarter of the change before it where that is more. Levels that cross the answer can change
// little from n/2 to n by chance (a knocked-in note moved 0.0037 from 100 to 200 nodes and was
// 0.012 off at 200, after 0.07 from 50 to 100); second order takes the earlier change down by 4.
double erratic_space(double fine, double coarse, double coarser);
// What the time levels claim: |error|; where they show no order (not moving one way) the whole
// change from nt/2 to nt; where the grid could only be refined (two levels: dates pin the steps)
// 4x the change from nt to 2 nt.
double time_bound(const AxisErrorEstimate& time);
// The price on the domain carried on to kDomainExtension x S_max, less base.price.
double truncation_estimate(const SolverInfo& solver, const Product& product, SolverOptions options,
                           const PriceResult& base);
inline constexpr double kDomainExtension = 2.0;

// The pure arithmetic, for tests: levels are (m, price) pairs, the base first.
struct RefinementLevel {
  double m = 0;
  double price = 0;
};
// The order that three levels with a constant ratio show, or none (differences of mixed sign or zero).
std::optional<double> observed_order(const RefinementLevel& a, const RefinementLevel& b, const RefinementLevel& c);
// The error of a.price given a second level and the order p: a.price - P*.
double richardson_error(const RefinementLevel& a, const RefinementLevel& b, double p);

}  // namespace elsbench
