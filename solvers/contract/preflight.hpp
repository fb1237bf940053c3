#pragma once
// The pre-flight check of a pricing, run once the mesh and the time grid are known and before any
// full-grid array exists: what this machine cannot hold, or what cannot finish within the
// caller's time limit, is refused with both figures instead of running out of memory or for hours.
#include <cstddef>

#include "products/product.hpp"
#include "solvers/contract/options.hpp"
#include "solvers/contract/solver_info.hpp"

namespace elsbench {

struct PreflightEstimate {
  double bytes = 0;        // the variant's memory model at this grid (0: no model)
  double available = 0;    // the memory that limits it (host: MemAvailable; 0: not known)
  double work = 0;         // grid points x value layers x march steps (a damped step counts half)
  double min_seconds = 0;  // a lower bound of the time: lower_bound_seconds (cost_model.hpp)
};

PreflightEstimate estimate_pricing(const SolverInfo& solver, const Product& product, const SolverOptions& options,
                                   std::size_t points, double steps);

// Throws SolverError(OutOfMemory) when the model exceeds the available memory, SolverError(TooMuchWork)
// when the lower bound of the time exceeds options.max_seconds (when > 0); both name the figures.
void preflight(const SolverInfo& solver, const Product& product, const SolverOptions& options,
               std::size_t points, double steps);

}  // namespace elsbench
