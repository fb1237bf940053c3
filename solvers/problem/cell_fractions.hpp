#pragma once
// The fraction phi of a node's cell on an event's side of its barrier is separable: for worst-of
// the side at or above the barrier is a product of half-lines S_d >= barrier * reference_d, for
// best-of the complement of a product, so phi is a product of per-axis fractions (n values an
// axis, not a value a node). The CPU builds its per-node weights and the GPU's on-chip book march
// its phi from the per-axis fractions with this one function, so both get the same bits.
#include <vector>

#include "platform/hd.hpp"

namespace elsbench {

// One event side of one barrier: per axis, the fraction of each node's cell (midpoint to
// midpoint) at or above the barrier level, n_0 values then n_1, ...
struct CellFractions {
  std::vector<double> per_axis;
  int worst_of = 1;  // worst-of: phi = prod f_d; best-of: 1 - prod (1 - f_d)
  int below = 0;     // the side below the barrier (a knock-in): 1 - phi
};

// phi at a node from its per-axis fractions at[0..dim).
ELSBENCH_HD double cell_fraction(const double* at, int dim, int worst_of, int below) {
  double all = 1.0, none = 1.0;
  for (int d = 0; d < dim; ++d) {
    all *= at[d];
    none *= 1.0 - at[d];
  }
  const double above = worst_of ? all : 1.0 - none;
  return below ? 1.0 - above : above;
}

}  // namespace elsbench
