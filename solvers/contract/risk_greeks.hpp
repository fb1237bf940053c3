#pragma once
// The Greeks a risk team reads, beyond the grid's delta and gamma: vega per asset and rho by
// bump-and-reprice with central differences, theta from one time step (the product aged by the
// grid's step, repriced with one step fewer). Every repricing uses the base pricing's mesh and
// step size: the mesh depends on spots, references and strikes only, which no bump moves, and
// the step count is pinned to the base's, so grid noise cancels in the differences.
#include "products/product.hpp"
#include "solvers/contract/price_result.hpp"
#include "solvers/contract/solver_info.hpp"

namespace elsbench {

struct GreekBumps {
  double vol = 0.01;    // absolute: one volatility point
  double rate = 1e-4;   // absolute: one basis point
};

// `base` is price_with(solver, product, options)'s result; its `greeks` are filled, in `units`.
void add_risk_greeks(const SolverInfo& solver, const Product& product, SolverOptions options, PriceResult& base,
                     const GreekBumps& bumps = {}, GreekUnits units = GreekUnits::Model);

// "model" or "desk"; throws std::invalid_argument naming the words it takes.
GreekUnits parse_greek_units(const std::string& word);
const char* to_string(GreekUnits u);
// What each Greek is per, in these units: "vega per vol point, rho per basis point, theta per day".
const char* units_text(GreekUnits u);

}  // namespace elsbench
