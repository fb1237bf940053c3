#pragma once
// The last axis's stage (axis dim - 1: across rows in 2-D, planes in 3-D) with each layer's lines
// split at node m (about n / 2) into two parts that different threads solve at once: the upper part
// eliminates forward from node 0 to m - 1, the lower backward from n - 1 to m, the 2x2 system of
// nodes m - 1 and m joins them, and each substitutes outward. A part's elimination runs in the pass
// that writes its rows (or planes), so only the substitution streams it again. Its thread owns those
// in every stage, reading what its own core wrote (split by lines, half came from the other core).
// The split is fixed by the grid, not by the thread count, so prices do not depend on the latter.
#include <cstddef>
#include <utility>
#include <vector>

#include "solvers/problem/problem.hpp"
#include "solvers/tridiagonal/line_solve.hpp"

namespace elsbench {

// A problem's layers and their parts along the last axis.
struct LayerParts {
  std::size_t layers = 1;
  std::size_t n = 0;       // nodes of the last axis
  std::size_t split = 0;   // m: the lower part's first node (0: the layer is one part)
  std::size_t stride = 1;  // elements between nodes of a line (= lines per layer)
  std::size_t points = 0;  // elements per layer

  std::size_t parts() const { return split ? 2 : 1; }
  std::size_t items() const { return layers * parts(); }  // item = layer * parts() + part
  // Nodes [first, last) of the last axis in part `part`.
  std::pair<std::size_t, std::size_t> nodes(std::size_t part) const {
    return split ? (part == 0 ? std::pair{std::size_t{0}, split} : std::pair{split, n}) : std::pair{std::size_t{0}, n};
  }
};
LayerParts layer_parts(const Problem& pb);

// Backward elimination factors of the lower part (nodes [m, n), fp64 from the axis's operator),
// and the join of the 2x2 system at the split.
template <class T>
struct SplitFactorsT {
  std::vector<T> upper, lower_ratio, inv_pivot;  // per node: c_i, a_i / pivot_i, 1 / pivot_i
  T join = 0;                                    // 1 / (1 - u_{m-1} l_m)
};
using SplitFactors = SplitFactorsT<double>;
// `top`: factor_axis's factors of the same theta dt (its upper ratio at m - 1 enters the join).
SplitFactors factor_split(const Tridiagonal& op, double theta_dt, const LineFactors& top, std::size_t split);
SplitFactorsT<float> to_fp32(const SplitFactors& f);

// The part's elimination over its nodes [first, last) for every line of the layer, into y (which
// may be rhs.z): the upper part's nodes in ascending order, the lower part's in descending order,
// each range next to the one before it, so that a caller can eliminate the nodes of rows it has
// just written while they are in its cache. The part's last eliminated node (m - 1 or m) goes to
// `edge` (one value per line of the layer).
template <class T>
void eliminate_nodes(const LayerParts& lp, const LineFactorsT<T>& top, const SplitFactorsT<T>& low,
                     const StageRhs<T>& rhs, T* y, std::size_t layer, std::size_t part, std::size_t first,
                     std::size_t last, T* edge);
// The join, once both parts' edges are written: the part's node next to the split (m - 1 or m)
// from the 2x2 system of the two edges. Nothing for a layer that is one part.
template <class T>
void join_part(const LayerParts& lp, const LineFactorsT<T>& top, const SplitFactorsT<T>& low, T* y,
               std::size_t layer, std::size_t part, const T* upper_edge, const T* lower_edge);
// The substitution away from the split (a layer that is one part: from its last node), after
// join_part.
template <class T>
void substitute_part(const LayerParts& lp, const LineFactorsT<T>& top, const SplitFactorsT<T>& low, T* y,
                     std::size_t layer, std::size_t part);

}  // namespace elsbench
