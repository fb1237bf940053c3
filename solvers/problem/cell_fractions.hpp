#pragma once
// The fraction phi of a node's cell on an event's side of its barrier is separable: for worst-of
// the side at or above the barrier is a product of half-lines S_d >= barrier * reference_d, for
// best-of the complement of a product, so phi is a product of per-axis fractions (n values an
// axis, not a value a node). The CPU builds its per-node weights and the GPU's on-chip book march
// its phi from the per-axis fractions with this one function, so both get the same bits.
#include <vector>

#include "platform/hd.hpp"

namespace elsbench {

// One event side of one barrier: per axis, the fraction of each node's weight (its cell, midpoint
// to midpoint, or its hat: problem_builder.cpp, SideWeight) at or above the barrier level, n_0
// values then n_1, ...
struct CellFractions {
  std::vector<double> per_axis;
  // Per axis, the same layout: the offset of the centroid of the weight's part at or above the
  // barrier from the weight's own, over the span of the node's central difference (0 where the
  // axis does not cut the weight). centroid_lift() turns it into V's rise from the node to there.
  std::vector<double> lift;
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

// An autocall on a cell its barrier cuts redeems the cell's part on its side, whose continuation
// value is V at that part's centroid, not at the node: at the node, events converge at first
// order in the barrier's place in its cell; at the centroid, at second. That value less the
// node's, for worst-of (the part is a box: its centroid moves per axis): the central slopes times
// the offsets. lift_at[d] is the node's lift on axis d, neighbour(d, s) V at its neighbour s = +-1.
template <class Neighbour>
ELSBENCH_HD double centroid_lift(const double* lift_at, int dim, Neighbour neighbour) {
  double sum = 0.0;
  for (int d = 0; d < dim; ++d) {
    if (lift_at[d] == 0.0) continue;
    sum += lift_at[d] * (static_cast<double>(neighbour(d, 1)) - static_cast<double>(neighbour(d, -1)));
  }
  return sum;
}

}  // namespace elsbench
