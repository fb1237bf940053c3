#pragma once
// A problem's 1-D operators and S d/dS stencils in the precision a march runs in: views of the
// problem's own fp64 arrays, or fp32 copies of them made once per march (the fp32 kernels then read
// half the bytes and fill twice the vector lanes).
#include <vector>

#include "solvers/problem/problem.hpp"

namespace elsbench {

template <class T>
struct Stencil {
  const T* lower = nullptr;  // row i couples i-1, i, i+1 (lower[0] = upper[n-1] = 0)
  const T* diag = nullptr;
  const T* upper = nullptr;
};

template <class T>
class GridStencils {
 public:
  explicit GridStencils(const Problem& pb) {
    copies_.reserve(6 * static_cast<std::size_t>(pb.dim));
    for (int d = 0; d < pb.dim; ++d) {
      const Axis& ax = pb.axes[static_cast<std::size_t>(d)];
      op_[d] = view(ax.op);
      d1_[d] = view(ax.d1);
    }
  }
  GridStencils(const GridStencils&) = delete;
  GridStencils& operator=(const GridStencils&) = delete;
  const Stencil<T>& op(int d) const { return op_[d]; }
  const Stencil<T>& d1(int d) const { return d1_[d]; }

 private:
  const T* array(const std::vector<double>& a) {
    if constexpr (std::is_same_v<T, double>) {
      return a.data();
    } else {
      copies_.emplace_back(a.begin(), a.end());
      return copies_.back().data();
    }
  }
  Stencil<T> view(const Tridiagonal& t) { return {array(t.lower), array(t.diag), array(t.upper)}; }

  std::vector<std::vector<T>> copies_;  // reserved up front: views into it stay valid
  Stencil<T> op_[3], d1_[3];
};

}  // namespace elsbench
