#include "solvers/problem/spot_stencil.hpp"

#include <algorithm>
#include <stdexcept>

namespace elsbench {

SpotStencil spot_stencil(const std::vector<double>& s, double spot) {
  if (s.size() < 4) throw std::invalid_argument("spot stencil needs 4 nodes");
  if (spot < s.front() || spot > s.back()) throw std::invalid_argument("spot lies outside the mesh");
  const auto upper = std::upper_bound(s.begin(), s.end(), spot) - s.begin();
  // Two nodes on each side of the spot where possible.
  const auto first = std::clamp<std::ptrdiff_t>(upper - 2, 0, static_cast<std::ptrdiff_t>(s.size()) - 4);
  SpotStencil st;
  st.first = static_cast<std::size_t>(first);
  const double* x = s.data() + first;
  for (int j = 0; j < 4; ++j) {
    // L_j(x) = prod_{m != j} (x - x_m) / (x_j - x_m); its derivatives follow from the product rule.
    double denom = 1.0;
    std::array<double, 3> r{};  // roots x_m, m != j
    int k = 0;
    for (int m = 0; m < 4; ++m) {
      if (m == j) continue;
      denom *= x[j] - x[m];
      r[static_cast<std::size_t>(k++)] = x[m];
    }
    const double a = spot - r[0], b = spot - r[1], c = spot - r[2];
    st.value[static_cast<std::size_t>(j)] = a * b * c / denom;
    st.slope[static_cast<std::size_t>(j)] = (a * b + a * c + b * c) / denom;
    st.curvature[static_cast<std::size_t>(j)] = 2.0 * (a + b + c) / denom;
  }
  return st;
}

}  // namespace elsbench
