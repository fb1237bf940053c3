#pragma once
// Price and Greeks at the spot from the final grid values, the same way for every variant.
#include <vector>

#include "solvers/problem/problem.hpp"

namespace elsbench {

struct SpotValues {
  double price = 0;
  std::vector<double> delta, gamma;
};
// From layer 0 of `values`, by the cubic Lagrange stencils of each axis (spot_stencil.hpp).
SpotValues spot_values(const Problem& pb, const std::vector<double>& values);

}  // namespace elsbench
