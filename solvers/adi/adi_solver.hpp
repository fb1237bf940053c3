#pragma once
// The CPU ADI solver, callable on an already built problem (tests and deliberately broken
// variants alter the problem before solving).
#include "products/product.hpp"
#include "solvers/contract/price_result.hpp"
#include "solvers/problem/problem.hpp"
#include "solvers/contract/options.hpp"

namespace elsbench {

// Default time steps when --nt is auto: proportional to the grid, enough for 2nd order to show.
int adi_default_steps(const Product& product, int n);
// Puts the time grid on `pb` (from options) and marches it with the ADI scheme named in options.
PriceResult solve_adi(Problem& pb, const SolverOptions& options);

}  // namespace elsbench
