#pragma once
// The two loops of the Thomas algorithm with shared LU factors, over `count` lines that are
// neighbours in memory (node i of line l at out[i * s + l]): the inner loops run over the lines,
// contiguous and independent. The block solve and the split solve's upper part both run them.
// Each node's coefficients go into locals first: out may alias the values read, never the
// coefficients, which the compiler, unable to tell, would load again for every vector of lines.
// out may also be z (an in-place stage): an element is read before it is written and the other row
// read is not written, so lines stay independent; simd says so, or the compiler would go scalar.
#include <cstddef>

namespace elsbench {

// Forward elimination over nodes [first, last), which follow the nodes already eliminated (none
// before node 0): x_i = (rhs_i - a_i x_{i-1}) p_i, with node_rhs(i) the function of line l that
// forms node i's right-hand side.
template <class T, class NodeRhs>
void eliminate_forward(const T* a, const T* p, const NodeRhs& node_rhs, std::size_t first, std::size_t last,
                       std::size_t s, std::size_t count, T* out) {
  for (std::size_t i = first; i < last; ++i) {
    const auto rhs = node_rhs(i);
    const T ai = a[i], pi = p[i];
    T* row = out + i * s;
    if (i == 0) {
#pragma omp simd
      for (std::size_t l = 0; l < count; ++l) row[l] = rhs(l) * pi;
    } else {
#pragma omp simd
      for (std::size_t l = 0; l < count; ++l) row[l] = (rhs(l) - ai * row[l - s]) * pi;
    }
  }
}

// Back substitution from node last - 1 down to first, node `last` being final: x_i -= r_i x_{i+1}.
template <class T>
void substitute_backward(const T* r, std::size_t first, std::size_t last, std::size_t s, std::size_t count, T* out) {
  for (std::size_t i = last; i-- > first;) {
    const T ri = r[i];
    T* row = out + i * s;
#pragma omp simd
    for (std::size_t l = 0; l < count; ++l) row[l] -= ri * row[l + s];
  }
}

}  // namespace elsbench
