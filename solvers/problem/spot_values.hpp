#pragma once
// Price and Greeks at the spot from the final grid values, the same way for every variant.
#include <vector>

#include "solvers/problem/problem.hpp"

namespace elsbench {

struct SpotValues {
  double price = 0;
  std::vector<double> delta, gamma;
  std::vector<double> cross_gamma;  // d2V / dS_i dS_j for the pairs (1,2), (1,3), (2,3) the note has
};
// From layer 0 of `values`, by the cubic Lagrange stencils of each axis (spot_stencil.hpp).
SpotValues spot_values(const Problem& pb, const std::vector<double>& values);

}  // namespace elsbench
