#pragma once
// Price, delta and gamma at the spot from grid values: cubic Lagrange interpolation on the four
// nodes around the spot on each axis (tensor product across axes).
#include <array>
#include <cstddef>
#include <vector>

namespace elsbench {

struct SpotStencil {
  std::size_t first = 0;             // index of the first of four nodes
  std::array<double, 4> value{};     // weights giving V(spot)
  std::array<double, 4> slope{};     // weights giving dV/dS(spot)
  std::array<double, 4> curvature{}; // weights giving d2V/dS2(spot)
};

SpotStencil spot_stencil(const std::vector<double>& s, double spot);

}  // namespace elsbench
