#pragma once
// An estimate of a price's discretisation error from the price itself and coarser (or finer)
// grids, by Richardson's argument: with P(m) = P* + C m^-p along one axis of refinement (m the
// nodes per axis, or the time steps), two prices give the error of either, and three give the
// order p they actually converge at. Space and time are estimated separately, each with the other
// held fixed, and their errors added.
//
//   space: n, n/2, n/4 nodes per axis, the base's time steps fixed;
//   time:  nt, nt/2, nt/4 steps at the base's n; where the grid cannot coarsen (one step per daily
//          monitoring date is the least the event dates allow; explicit Euler's stability bound),
//          nt and 2 nt with the scheme's nominal order.
// The observed order is used where it is plausible (0.5 to 4), else the nominal one (2 in space;
// in time 2, or 1 for explicit Euler and Douglas).
#include <optional>
#include <vector>

#include "products/product.hpp"
#include "solvers/contract/price_result.hpp"
#include "solvers/contract/solver_info.hpp"

namespace elsbench {

// `base` is price_with(solver, product, options)'s result; its `error_estimate` is filled.
void add_error_estimate(const SolverInfo& solver, const Product& product, SolverOptions options, PriceResult& base);

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
