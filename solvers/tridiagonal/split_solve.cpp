#include "solvers/tridiagonal/split_solve.hpp"

#include <algorithm>

#include "solvers/tridiagonal/line_sweeps.hpp"

namespace elsbench {
namespace {

// Parts shorter than this are not made: a line of fewer than twice as many nodes is one part.
constexpr std::size_t kMinPartNodes = 8;

}  // namespace

LayerParts layer_parts(const Problem& pb) {
  const Axis& last = pb.axes[static_cast<std::size_t>(pb.dim - 1)];
  LayerParts lp;
  lp.layers = static_cast<std::size_t>(pb.layers);
  lp.n = last.size();
  lp.stride = last.stride;
  lp.points = pb.points;
  // In 2-D a node is a row, and the ADI runs a part's rows in blocks of kRowsPerBlock from its
  // first: a split on a block boundary leaves the upper part whole blocks (the rows after a
  // block's last whole tile take a slower path).
  const std::size_t align = pb.dim == 2 ? kRowsPerBlock : 1;
  const std::size_t split = lp.n / 2 / align * align;
  lp.split = pb.dim > 1 && split >= kMinPartNodes ? split : 0;
  return lp;
}

SplitFactors factor_split(const Tridiagonal& op, double theta_dt, const LineFactors& top, std::size_t split) {
  SplitFactors f;
  if (split == 0) return f;
  const std::size_t n = op.size(), k = n - split;
  f.upper.resize(k);
  f.lower_ratio.resize(k);
  f.inv_pivot.resize(k);
  double next_ratio = 0.0;
  for (std::size_t i = n; i-- > split;) {
    const auto [a, b, c] = system_row(op, theta_dt, i);
    const double pivot = b - (i + 1 < n ? c * next_ratio : 0.0);
    f.upper[i - split] = c;
    f.inv_pivot[i - split] = 1.0 / pivot;
    f.lower_ratio[i - split] = a / pivot;
    next_ratio = f.lower_ratio[i - split];
  }
  f.join = 1.0 / (1.0 - top.upper_ratio[split - 1] * f.lower_ratio[0]);
  return f;
}

SplitFactorsT<float> to_fp32(const SplitFactors& f) {
  SplitFactorsT<float> out;
  out.upper.assign(f.upper.begin(), f.upper.end());
  out.lower_ratio.assign(f.lower_ratio.begin(), f.lower_ratio.end());
  out.inv_pivot.assign(f.inv_pivot.begin(), f.inv_pivot.end());
  out.join = static_cast<float>(f.join);
  return out;
}

template <class T>
void eliminate_nodes(const LayerParts& lp, const LineFactorsT<T>& top, const SplitFactorsT<T>& low,
                     const StageRhs<T>& rhs, T* y, std::size_t layer, std::size_t part, std::size_t first,
                     std::size_t last, T* edge) {
  const std::size_t s = lp.stride, base = layer * lp.points;
  const auto [lo, hi] = lp.nodes(part);
  T* out = y + base;
  with_node_rhs(rhs, lp.n, s, base, [&](const auto& node_rhs) {
    if (part == 0) {
      eliminate_forward(top.lower.data(), top.inv_pivot.data(), node_rhs, first, last, s, s, out);
    } else {
      // Backward from node n - 1, x_n = 0: eliminate_forward's mirror (line_sweeps.hpp says why
      // the locals and the simd).
      for (std::size_t i = last; i-- > first;) {
        const auto r = node_rhs(i);
        const T ci = low.upper[i - lo], qi = low.inv_pivot[i - lo];
        T* row = out + i * s;
        if (i + 1 == hi) {
#pragma omp simd
          for (std::size_t l = 0; l < s; ++l) row[l] = r(l) * qi;
        } else {
#pragma omp simd
          for (std::size_t l = 0; l < s; ++l) row[l] = (r(l) - ci * row[l + s]) * qi;
        }
      }
    }
  });
  if (!lp.split) return;
  if (part == 0 && last == hi) std::copy_n(out + (hi - 1) * s, s, edge);
  if (part == 1 && first == lo) std::copy_n(out + lo * s, s, edge);
}

template <class T>
void join_part(const LayerParts& lp, const LineFactorsT<T>& top, const SplitFactorsT<T>& low, T* y,
               std::size_t layer, std::size_t part, const T* ue, const T* le) {
  // x_{m-1} + u x_m = e_upper and x_m + l x_{m-1} = e_lower.
  const std::size_t s = lp.stride, m = lp.split;
  if (!m) return;
  const T join = low.join;
  if (part == 0) {
    const T u = top.upper_ratio[m - 1];
    T* row = y + layer * lp.points + (m - 1) * s;
#pragma omp simd
    for (std::size_t l = 0; l < s; ++l) row[l] = (ue[l] - u * le[l]) * join;
  } else {
    const T lm = low.lower_ratio[0];
    T* row = y + layer * lp.points + m * s;
#pragma omp simd
    for (std::size_t l = 0; l < s; ++l) row[l] = (le[l] - lm * ue[l]) * join;
  }
}

template <class T>
void substitute_part(const LayerParts& lp, const LineFactorsT<T>& top, const SplitFactorsT<T>& low, T* y,
                     std::size_t layer, std::size_t part) {
  const std::size_t s = lp.stride, m = lp.split;
  T* out = y + layer * lp.points;
  if (part == 0) {
    substitute_backward(top.upper_ratio.data(), 0, (m ? m : lp.n) - 1, s, s, out);
  } else {
    for (std::size_t i = m + 1; i < lp.n; ++i) {
      const T li = low.lower_ratio[i - m];
      T* row = out + i * s;
#pragma omp simd
      for (std::size_t l = 0; l < s; ++l) row[l] -= li * row[l - s];
    }
  }
}

#define ELSBENCH_SPLIT_SOLVE(T)                                                                                      \
  template void eliminate_nodes(const LayerParts&, const LineFactorsT<T>&, const SplitFactorsT<T>&, const StageRhs<T>&, \
                                T*, std::size_t, std::size_t, std::size_t, std::size_t, T*);                         \
  template void join_part(const LayerParts&, const LineFactorsT<T>&, const SplitFactorsT<T>&, T*, std::size_t,          \
                          std::size_t, const T*, const T*);                                                          \
  template void substitute_part(const LayerParts&, const LineFactorsT<T>&, const SplitFactorsT<T>&, T*, std::size_t,    \
                                std::size_t);
ELSBENCH_SPLIT_SOLVE(double)
ELSBENCH_SPLIT_SOLVE(float)
#undef ELSBENCH_SPLIT_SOLVE

}  // namespace elsbench
