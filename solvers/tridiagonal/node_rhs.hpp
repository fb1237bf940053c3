#pragma once
// The right-hand side of an axis stage at one node of a block of lines that are neighbours in
// memory, as the solves form it during their elimination: z + g f with f stored, z + g A v with
// A v formed from v's neighbours along the line as the explicit pass forms it (neighbours clamped
// at the ends, where their weights are zero: the same value as a stored A v, to the bit), or z.
#include <cstddef>

#include "solvers/operators/stencils.hpp"

namespace elsbench {

template <class T>
struct StageRhs {
  const T* z = nullptr;
  const T* f = nullptr;  // z + g f
  const T* v = nullptr;  // else z + g A v (v is not the output)
  Stencil<T> op;
  T g = 0;
};

// use(node_rhs) with node_rhs(i) the function of line l that gives node i's right-hand side, for
// lines of n nodes, s elements apart along a line, from element `base`.
template <class T, class Use>
void with_node_rhs(const StageRhs<T>& rhs, std::size_t n, std::size_t s, std::size_t base, const Use& use) {
  const T g = rhs.g;
  if (rhs.f) {
    use([&, g](std::size_t i) {
      const T* zi = rhs.z + base + i * s;
      const T* fi = rhs.f + base + i * s;
      return [=](std::size_t l) { return zi[l] + g * fi[l]; };
    });
  } else if (rhs.v) {
    use([&, g](std::size_t i) {
      const T* vi = rhs.v + base + i * s;
      const T* vb = i == 0 ? vi : vi - s;
      const T* va = i + 1 == n ? vi : vi + s;
      const T* zi = rhs.z + base + i * s;
      const T lo = rhs.op.lower[i], di = rhs.op.diag[i], up = rhs.op.upper[i];
      return [=](std::size_t l) { return zi[l] + g * (lo * vb[l] + di * vi[l] + up * va[l]); };
    });
  } else {
    use([&](std::size_t i) {
      const T* zi = rhs.z + base + i * s;
      return [=](std::size_t l) { return zi[l]; };
    });
  }
}

}  // namespace elsbench
