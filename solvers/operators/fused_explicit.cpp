#include "solvers/operators/fused_explicit.hpp"

#include <omp.h>

#include <algorithm>
#include <type_traits>

#include "platform/thread_share.hpp"

namespace elsbench {
namespace {

// The row (i1, i2) of one layer and its neighbours: v[p+1][q+1] is the row at (i1 + p, i2 + q),
// clamped at the mesh edge (where the weights of off-mesh neighbours are zero).
template <class T>
struct Row {
  const T* v[3][3];
  std::size_t i1 = 0, i2 = 0, offset = 0;
  T* axis0 = nullptr;  // where A_0 v goes instead of the pass's axis_out[0], when set
};

// Row buffers of one thread, for the terms a pass computes but does not keep.
template <class T>
struct RowTerms {
  std::vector<T> axis[3], mixed, combined, across;
  explicit RowTerms(std::size_t n) : mixed(n, T(0)), combined(n, T(0)), across(n, T(0)) {
    for (auto& a : axis) a.assign(n, T(0));
  }
};

// f(i, l[i] v[i-1] + c[i] v[i] + u[i] v[i+1]) for each node i of a row, the neighbours beyond its
// ends left out (their weights are zero): the one 3-point stencil loop of the pass. `FromLine`:
// the interior runs in two loops, the second from node 8 (of doubles): rows and arrays start on a
// cache line, so its 64-byte accesses of node i do too; one loop from node 1 straddles two lines
// with every one.
template <bool FromLine, class T, class F>
void along_row(const Stencil<T>& w, const T* v, std::size_t n, const F& f) {
  const T* __restrict l = w.lower;
  const T* __restrict c = w.diag;
  const T* __restrict u = w.upper;
  const auto interior = [&](std::size_t from, std::size_t to) {
#pragma omp simd
    for (std::size_t i = from; i < to; ++i) f(i, l[i] * v[i - 1] + c[i] * v[i] + u[i] * v[i + 1]);
  };
  f(0, c[0] * v[0] + u[0] * v[1]);
  if constexpr (FromLine) {
    interior(1, 64 / sizeof(T));
    interior(64 / sizeof(T), n - 1);
  } else {
    interior(1, n - 1);
  }
  f(n - 1, l[n - 1] * v[n - 2] + c[n - 1] * v[n - 1]);
}

// Rows from which a 2-D fp64 pass runs its loops from a cache line (measured faster from 72 nodes
// on). fp32 rows (16 to a register) and 3-D passes (rows of 48 measured) lost more to the second
// loop's set-up and scalar tail than they gained (docs/performance.md).
constexpr std::size_t kFromLineRows = 64;

// One row of a 2-D or 3-D pass: A_0 v along the row, the other axes' terms and the mixed terms
// across rows, and out = cm M v + ca sum_d A_d v + sum_k bc_k b_k. A mixed term (0,d) is S_d d/dS_d
// across rows of S0 d/dS0 along them, and S0 d/dS0 is one stencil for every row, so the (0,d)
// terms are that stencil applied once to the rows' weighted sum w, formed in the same loop as A_d v
// from the same values; the (1,2) term takes no stencil along the row.
template <int Dim, class T, class O = T>
struct FusedRow {
  const T* v[3][3] = {};  // the rows (i1 + p - 1, i2 + q - 1); two assets use q = 1 only
  T w1[3] = {}, w2[3] = {};  // A_1 across i1, A_2 across i2
  T m1[3] = {}, m2[3] = {};  // rows summed into w: coefficient (0,d) times S_d d/dS_d
  T k12[3][3] = {};          // coefficient (1,2) times S1 d/dS1 times S2 d/dS2
  Stencil<T> a0s, d0;  // the axis-0 operator, S0 d/dS0
  T *a0 = nullptr, *a1 = nullptr, *a2 = nullptr, *m = nullptr, *w = nullptr, *out = nullptr;
  O* narrow = nullptr;  // O narrower than T: where the sum goes, rounded once, out being a row buffer
  const T* b[3] = {};
  T bc[3] = {}, cm = 0, ca = 0;

  // Terms: A_d v and M v are wanted apart (CS and MCS); else only A_0 v and the sum are stored.
  template <int NB, bool Terms>
  void node(std::size_t i, T axis0) const {
    const T axis1 = w1[0] * v[0][1][i] + w1[1] * v[1][1][i] + w1[2] * v[2][1][i];
    T across = m1[0] * v[0][1][i] + m1[1] * v[1][1][i] + m1[2] * v[2][1][i];
    T o;
    if constexpr (Dim == 3) {
      const T axis2 = w2[0] * v[1][0][i] + w2[1] * v[1][1][i] + w2[2] * v[1][2][i];
      across += m2[0] * v[1][0][i] + m2[1] * v[1][1][i] + m2[2] * v[1][2][i];
      T cross = 0;
      for (int p = 0; p < 3; ++p) cross += k12[p][0] * v[p][0][i] + k12[p][1] * v[p][1][i] + k12[p][2] * v[p][2][i];
      o = cm * cross + ca * (axis0 + axis1 + axis2);
      if constexpr (Terms) {
        a2[i] = axis2;
        m[i] = cross;
      }
    } else {
      o = ca * (axis0 + axis1);
    }
    for (int k = 0; k < NB; ++k) o += bc[k] * b[k][i];
    w[i] = across;
    a0[i] = axis0;
    if constexpr (Terms) a1[i] = axis1;
    out[i] = o;
  }

  template <bool Terms>
  void add_mixed(std::size_t i, T mixed) const {
    if constexpr (Terms) m[i] = Dim == 3 ? m[i] + mixed : mixed;
    if constexpr (std::is_same_v<T, O>) {
      out[i] += cm * mixed;
    } else {
      narrow[i] = static_cast<O>(out[i] + cm * mixed);
    }
  }

  template <int NB, bool Terms>
  void run(std::size_t n) const {
    if constexpr (Dim == 2 && std::is_same_v<T, double>) {
      if (n >= kFromLineRows) return run_along<NB, Terms, true>(n);
    }
    run_along<NB, Terms, false>(n);
  }

  // Flattened: a call per node would leave the loops scalar, and with both loop forms in a pass
  // GCC stops inlining the node bodies on its own.
  template <int NB, bool Terms, bool FromLine>
  [[gnu::flatten]] void run_along(std::size_t n) const {
    along_row<FromLine>(a0s, v[1][1], n, [this](std::size_t i, T axis0) { node<NB, Terms>(i, axis0); });
    along_row<FromLine>(d0, static_cast<const T*>(w), n,
                        [this](std::size_t i, T mixed) { add_mixed<Terms>(i, mixed); });
  }

  template <bool Terms>
  void run_bases(int bases, std::size_t n) const {
    switch (bases) {
      case 0: run<0, Terms>(n); break;
      case 1: run<1, Terms>(n); break;
      case 2: run<2, Terms>(n); break;
      default: run<3, Terms>(n); break;
    }
  }
};

template <int Dim, class T, class O>
class RowKernel {
 public:
  RowKernel(const Problem& p, const GridStencils<T>& st, const ExplicitPassT<T, O>& x, RowTerms<T>& t)
      : pb_(p), st_(st), pass_(x) {
    for (const MixedTerm& m : pb_.mixed)
      coeff_[m.a + m.b - 1] = static_cast<T>(m.coeff);  // (0,1)->0 (0,2)->1 (1,2)->2
    if constexpr (Dim >= 2) set_up_rows(t);
  }

  void row(const Row<T>& r, RowTerms<T>& t) {
    const std::size_t n = pb_.axes[0].size();
    if constexpr (Dim >= 2) {
      fused_row(r, t, n);
    } else {
      T* a0 = axis_row(r, t, 0);
      along_row<false>(st_.op(0), r.v[1][1], n, [a0](std::size_t i, T axis0) { a0[i] = axis0; });
      write(r, t, n);
    }
  }

 private:
  static const T* weights(const Stencil<T>& w, std::size_t i, T (&out)[3]) {
    out[0] = w.lower[i];
    out[1] = w.diag[i];
    out[2] = w.upper[i];
    return out;
  }

  // Axis terms go straight to the caller's array when it wants them, else to a row buffer.
  T* axis_row(const Row<T>& r, RowTerms<T>& t, int d) const {
    if (d == 0 && r.axis0) return r.axis0;
    return pass_.axis_out[d] ? pass_.axis_out[d] + r.offset : t.axis[d].data();
  }

  // What every row of the pass shares, set once (a row's own fields are set by fused_row).
  void set_up_rows(RowTerms<T>& t) {
    k_.a0s = st_.op(0);
    k_.d0 = st_.d1(0);
    k_.w = t.across.data();
    k_.cm = static_cast<T>(pass_.mixed_coeff);
    k_.ca = static_cast<T>(pass_.axes_coeff);
    for (int j = 0; j < 3; ++j)
      if (pass_.base[j]) k_.bc[bases_++] = static_cast<T>(pass_.base_coeff[j]);
    terms_ = pass_.axis_out[1] || pass_.axis_out[2] || pass_.mixed_out;
  }

  // Two and three assets: all terms of a node in one loop over the row, so each input is read once,
  // then the mixed terms from the weighted row. The output may be one of the bases (an in-place
  // update): each element reads its base before writing it, so no __restrict.
  void fused_row(const Row<T>& r, RowTerms<T>& t, std::size_t n) {
    const std::size_t f = r.offset;
    FusedRow<Dim, T, O>& k = k_;
    for (int p = 0; p < 3; ++p)
      for (int q = 0; q < 3; ++q) k.v[p][q] = r.v[p][q];
    T s1[3];
    weights(st_.op(1), r.i1, k.w1);
    weights(st_.d1(1), r.i1, s1);
    for (int p = 0; p < 3; ++p) k.m1[p] = coeff_[0] * s1[p];
    if constexpr (Dim == 3) {
      T s2[3];
      weights(st_.op(2), r.i2, k.w2);
      weights(st_.d1(2), r.i2, s2);
      for (int q = 0; q < 3; ++q) k.m2[q] = coeff_[1] * s2[q];
      for (int p = 0; p < 3; ++p)
        for (int q = 0; q < 3; ++q) k.k12[p][q] = coeff_[2] * s1[p] * s2[q];
      k.a2 = axis_row(r, t, 2);
    }
    k.a0 = axis_row(r, t, 0);
    k.a1 = axis_row(r, t, 1);
    k.m = pass_.mixed_out ? pass_.mixed_out + f : t.mixed.data();
    if constexpr (std::is_same_v<T, O>) {
      k.out = pass_.out ? pass_.out + f : t.combined.data();
    } else {
      k.out = t.combined.data();
      k.narrow = pass_.out + f;
    }
    for (int j = 0, b = 0; j < 3; ++j)
      if (pass_.base[j]) k.b[b++] = pass_.base[j] + f;
    if (terms_) {
      k.template run_bases<true>(bases_, n);
    } else {
      k.template run_bases<false>(bases_, n);
    }
  }

  // One asset: A_0 v and the bases. The output may be one of the bases (an in-place update), so it
  // is combined in a row buffer.
  void write(const Row<T>& r, RowTerms<T>& t, std::size_t n) const {
    if (!pass_.out) return;
    T* __restrict out = t.combined.data();
    const T* __restrict a0 = axis_row(r, t, 0);
    const T ca = static_cast<T>(pass_.axes_coeff);
    for (std::size_t i = 0; i < n; ++i) out[i] = ca * a0[i];
    for (int k = 0; k < 3; ++k) {
      if (!pass_.base[k]) continue;
      const T* __restrict b = pass_.base[k] + r.offset;
      const T c = static_cast<T>(pass_.base_coeff[k]);
      for (std::size_t i = 0; i < n; ++i) out[i] += c * b[i];
    }
    std::copy_n(out, n, pass_.out + r.offset);
  }

  const Problem& pb_;
  const GridStencils<T>& st_;
  const ExplicitPassT<T, O>& pass_;
  T coeff_[3] = {0, 0, 0};
  FusedRow<Dim, T, O> k_;  // the row being computed; built once per call, so rows do not clear it
  int bases_ = 0;
  bool terms_ = false;
};

std::size_t dim_size(const Problem& pb, int d) { return d < pb.dim ? pb.axes[static_cast<std::size_t>(d)].size() : 1; }

template <int Dim, class T, class O>
void run_rows(const Problem& pb, const GridStencils<T>& st, const ExplicitPassT<T, O>& pass, std::size_t first,
              std::size_t last, RowTerms<T>& terms, T* axis0_rows) {
  RowKernel<Dim, T, O> kernel(pb, st, pass, terms);
  const std::size_t n0 = dim_size(pb, 0), n1 = dim_size(pb, 1), n2 = dim_size(pb, 2);
  for (std::size_t row_index = first; row_index < last; ++row_index) {
    Row<T> r;
    r.i1 = row_index % n1;
    r.i2 = (row_index / n1) % n2;
    r.offset = row_index * n0;
    if (axis0_rows) r.axis0 = axis0_rows + (row_index - first) * n0;
    const std::size_t layer_base = (row_index / (n1 * n2)) * pb.points;
    for (int p = -1; p <= 1; ++p)
      for (int q = -1; q <= 1; ++q) {
        const auto j1 = static_cast<std::size_t>(std::clamp<std::ptrdiff_t>(static_cast<std::ptrdiff_t>(r.i1) + p, 0, static_cast<std::ptrdiff_t>(n1) - 1));
        const auto j2 = static_cast<std::size_t>(std::clamp<std::ptrdiff_t>(static_cast<std::ptrdiff_t>(r.i2) + q, 0, static_cast<std::ptrdiff_t>(n2) - 1));
        r.v[p + 1][q + 1] = pass.v + layer_base + (j2 * n1 + j1) * n0;
      }
    kernel.row(r, terms);
  }
}

}  // namespace

template <class T>
struct PassScratch<T>::Parts {
  explicit Parts(std::size_t n0) : terms(n0) {}
  RowTerms<T> terms;
};

template <class T>
PassScratch<T>::PassScratch(std::size_t n0) : parts_(new Parts(n0)) {}
template <class T>
PassScratch<T>::~PassScratch() {
  delete parts_;
}
template <class T>
PassScratch<T>::PassScratch(PassScratch&& o) noexcept : parts_(o.parts_) {
  o.parts_ = nullptr;
}
template <class T>
PassScratch<T>& PassScratch<T>::operator=(PassScratch&& o) noexcept {
  std::swap(parts_, o.parts_);
  return *this;
}

std::size_t explicit_rows(const Problem& pb) { return pb.values() / dim_size(pb, 0); }

template <class T, class O>
void run_explicit_rows(const Problem& pb, const GridStencils<T>& stencils, const ExplicitPassT<T, O>& pass,
                       std::size_t first, std::size_t last, PassScratch<T>& scratch, T* axis0_rows) {
  typename PassScratch<T>::Parts& s = scratch.parts();
  switch (pb.dim) {
    case 1: run_rows<1>(pb, stencils, pass, first, last, s.terms, axis0_rows); break;
    case 2: run_rows<2>(pb, stencils, pass, first, last, s.terms, axis0_rows); break;
    default: run_rows<3>(pb, stencils, pass, first, last, s.terms, axis0_rows); break;
  }
}

template class PassScratch<double>;
template class PassScratch<float>;
template void run_explicit_rows(const Problem&, const GridStencils<double>&, const ExplicitPassT<double>&, std::size_t,
                                std::size_t, PassScratch<double>&, double*);
template void run_explicit_rows(const Problem&, const GridStencils<float>&, const ExplicitPassT<float>&, std::size_t,
                                std::size_t, PassScratch<float>&, float*);
template void run_explicit_rows(const Problem&, const GridStencils<double>&, const ExplicitPassT<double, float>&,
                                std::size_t, std::size_t, PassScratch<double>&, double*);

void run_explicit_pass(const Problem& pb, const ExplicitPass& pass) {
  const std::size_t rows = explicit_rows(pb);
  const GridStencils<double> stencils(pb);
#pragma omp parallel if (pb.values() >= 4096 && omp_get_max_threads() > 1)
  {
    PassScratch<double> scratch(dim_size(pb, 0));
    const auto [first, last] = thread_share(rows);
    run_explicit_rows(pb, stencils, pass, first, last, scratch);
  }
}

}  // namespace elsbench
