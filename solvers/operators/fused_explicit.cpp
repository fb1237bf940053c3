#include "solvers/operators/fused_explicit.hpp"

#include <omp.h>

#include <algorithm>
#include <cstdint>

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

// S0 d/dS0 of recently seen rows (three assets, where a row's mixed terms pair it with two axes):
// a row is a neighbour of the rows around it, and each thread walks its rows in order, so each
// derivative row is computed once instead of three times.
template <class T>
class DerivativeRows {
 public:
  explicit DerivativeRows(std::size_t n) : n_(n) {
    for (auto& b : rows_) b.assign(n, T(0));
  }
  const T* get(const Stencil<T>& d1, const T* row);
  // A new pass: rows at the same addresses now hold other values.
  void forget() {
    for (auto& k : key_) k = nullptr;
    for (auto& u : used_) u = 0;
  }

 private:
  // Rows one node needs: 3 for (0,1), 2 more for (0,2); one more so that the 3 of (0,1) stay
  // while (0,2)'s are computed.
  static constexpr int kSlots = 6;
  std::size_t n_;
  const T* key_[kSlots] = {};
  std::uint64_t used_[kSlots] = {};
  std::uint64_t clock_ = 0;
  std::vector<T> rows_[kSlots];
};

// Row buffers of one thread: each term is computed by its own simple (vectorisable) loop.
template <class T>
struct RowTerms {
  std::vector<T> axis[3], mixed, combined, across;
  explicit RowTerms(std::size_t n) : mixed(n, T(0)), combined(n, T(0)), across(n, T(0)) {
    for (auto& a : axis) a.assign(n, T(0));
  }
};

// t[i] = l[i] v[i-1] + c[i] v[i] + u[i] v[i+1] along the row (the 1-D stencil of axis 0).
template <class T>
void row_stencil(const Stencil<T>& w, const T* __restrict v, T* __restrict t, std::size_t n) {
  const T* __restrict l = w.lower;
  const T* __restrict c = w.diag;
  const T* __restrict u = w.upper;
  t[0] = c[0] * v[0] + u[0] * v[1];
  for (std::size_t i = 1; i + 1 < n; ++i) t[i] = l[i] * v[i - 1] + c[i] * v[i] + u[i] * v[i + 1];
  t[n - 1] = l[n - 1] * v[n - 2] + c[n - 1] * v[n - 1];
}

// t[i] (+)= a x[i] + b y[i] + c z[i]: a stencil across rows, with constant weights along the row.
template <class T>
void row_combine(T a, const T* __restrict x, T b, const T* __restrict y, T c, const T* __restrict z,
                 T* __restrict t, std::size_t n, bool accumulate) {
  if (accumulate) {
    for (std::size_t i = 0; i < n; ++i) t[i] += a * x[i] + b * y[i] + c * z[i];
  } else {
    for (std::size_t i = 0; i < n; ++i) t[i] = a * x[i] + b * y[i] + c * z[i];
  }
}

template <class T>
const T* DerivativeRows<T>::get(const Stencil<T>& d1, const T* row) {
  ++clock_;
  for (int k = 0; k < kSlots; ++k)
    if (key_[k] == row) {
      used_[k] = clock_;
      return rows_[k].data();
    }
  // The least recently used slot: a row handed out for the node being computed is never it.
  const int slot = static_cast<int>(std::min_element(used_, used_ + kSlots) - used_);
  key_[slot] = row;
  used_[slot] = clock_;
  row_stencil(d1, row, rows_[slot].data(), n_);
  return rows_[slot].data();
}

// One row of a 2-D pass: A_0 v along the row, A_1 v and the mixed term across rows, and
// out = cm M v + ca (A_0 v + A_1 v) + sum_k bc_k b_k. The mixed term is S1 d/dS1 across rows of
// S0 d/dS0 along them, and S0 d/dS0 is one stencil for every row, so M v is that stencil applied
// once to the rows' weighted sum w, formed in the same loop as A_1 v from the same three values.
template <class T>
struct FusedRow2d {
  T w1[3] = {}, mix[3] = {};
  const T *vb = nullptr, *v = nullptr, *va = nullptr;  // the rows i1 - 1, i1, i1 + 1
  const T *l = nullptr, *c = nullptr, *u = nullptr;    // axis-0 operator
  Stencil<T> d0;                                       // S0 d/dS0
  T *a0 = nullptr, *a1 = nullptr, *m = nullptr, *w = nullptr, *out = nullptr;
  const T* b[3] = {};
  T bc[3] = {}, cm = 0, ca = 0;

  // Terms: A_1 v and M v are wanted apart (CS and MCS); else only A_0 v and the sum are stored.
  template <int NB, bool Terms>
  void node(std::size_t i, T axis0) const {
    const T axis1 = w1[0] * vb[i] + w1[1] * v[i] + w1[2] * va[i];
    w[i] = mix[0] * vb[i] + mix[1] * v[i] + mix[2] * va[i];
    T o = ca * (axis0 + axis1);
    for (int k = 0; k < NB; ++k) o += bc[k] * b[k][i];
    a0[i] = axis0;
    if constexpr (Terms) a1[i] = axis1;
    out[i] = o;
  }

  template <bool Terms>
  void add_mixed(std::size_t i, T mixed) const {
    if constexpr (Terms) m[i] = mixed;
    out[i] += cm * mixed;
  }

  template <int NB, bool Terms>
  void run(std::size_t n) const {
    node<NB, Terms>(0, c[0] * v[0] + u[0] * v[1]);
#pragma omp simd
    for (std::size_t i = 1; i < n - 1; ++i) node<NB, Terms>(i, l[i] * v[i - 1] + c[i] * v[i] + u[i] * v[i + 1]);
    node<NB, Terms>(n - 1, l[n - 1] * v[n - 2] + c[n - 1] * v[n - 1]);
    const T* __restrict dl = d0.lower;
    const T* __restrict dc = d0.diag;
    const T* __restrict du = d0.upper;
    add_mixed<Terms>(0, dc[0] * w[0] + du[0] * w[1]);
#pragma omp simd
    for (std::size_t i = 1; i < n - 1; ++i) add_mixed<Terms>(i, dl[i] * w[i - 1] + dc[i] * w[i] + du[i] * w[i + 1]);
    add_mixed<Terms>(n - 1, dl[n - 1] * w[n - 2] + dc[n - 1] * w[n - 1]);
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

template <int Dim, class T>
class RowKernel {
 public:
  RowKernel(const Problem& p, const GridStencils<T>& st, const ExplicitPassT<T>& x) : pb_(p), st_(st), pass_(x) {
    for (const MixedTerm& m : pb_.mixed)
      coeff_[m.a + m.b - 1] = static_cast<T>(m.coeff);  // (0,1)->0 (0,2)->1 (1,2)->2
  }

  void row(const Row<T>& r, RowTerms<T>& t, DerivativeRows<T>& dx0) const {
    const std::size_t n = pb_.axes[0].size();
    if constexpr (Dim == 2) {
      fused_row(r, t, n);
      return;
    }
    row_stencil(st_.op(0), r.v[1][1], axis_row(r, t, 0), n);
    if constexpr (Dim >= 2) cross_terms(r, t, dx0, n);
    write(r, t, n);
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

  void cross_terms(const Row<T>& r, RowTerms<T>& t, DerivativeRows<T>& dx0, std::size_t n) const {
    T w1[3], s1[3];
    weights(st_.op(1), r.i1, w1);
    weights(st_.d1(1), r.i1, s1);
    row_combine(w1[0], r.v[0][1], w1[1], r.v[1][1], w1[2], r.v[2][1], axis_row(r, t, 1), n, false);
    // Mixed (0,1): S0 d/dS0 of each neighbouring row, weighted by S1 d/dS1 across rows.
    const T* below = dx0.get(st_.d1(0), r.v[0][1]);
    const T* here = dx0.get(st_.d1(0), r.v[1][1]);
    const T* above = dx0.get(st_.d1(0), r.v[2][1]);
    row_combine(coeff_[0] * s1[0], below, coeff_[0] * s1[1], here, coeff_[0] * s1[2], above,
                t.mixed.data(), n, false);
    if constexpr (Dim == 3) {
      T w2[3], s2[3];
      weights(st_.op(2), r.i2, w2);
      weights(st_.d1(2), r.i2, s2);
      row_combine(w2[0], r.v[1][0], w2[1], r.v[1][1], w2[2], r.v[1][2], axis_row(r, t, 2), n, false);
      const T* back = dx0.get(st_.d1(0), r.v[1][0]);
      const T* centre = dx0.get(st_.d1(0), r.v[1][1]);
      const T* front = dx0.get(st_.d1(0), r.v[1][2]);
      row_combine(coeff_[1] * s2[0], back, coeff_[1] * s2[1], centre, coeff_[1] * s2[2], front,
                  t.mixed.data(), n, true);
      for (int p = 0; p < 3; ++p)
        row_combine(coeff_[2] * s1[p] * s2[0], r.v[p][0], coeff_[2] * s1[p] * s2[1], r.v[p][1],
                    coeff_[2] * s1[p] * s2[2], r.v[p][2], t.mixed.data(), n, true);
    }
  }

  // Two dimensions (every two-asset product): all terms of a node in one loop over the row, so each
  // input is read once, then the mixed term from the weighted row. The output may be one of the
  // bases (an in-place update): each element reads its base before writing it, so no __restrict.
  void fused_row(const Row<T>& r, RowTerms<T>& t, std::size_t n) const {
    const std::size_t f = r.offset;
    FusedRow2d<T> k;
    weights(st_.op(1), r.i1, k.w1);
    T s1[3];
    weights(st_.d1(1), r.i1, s1);
    for (int p = 0; p < 3; ++p) k.mix[p] = coeff_[0] * s1[p];
    k.vb = r.v[0][1];
    k.v = r.v[1][1];
    k.va = r.v[2][1];
    k.l = st_.op(0).lower;
    k.c = st_.op(0).diag;
    k.u = st_.op(0).upper;
    k.d0 = st_.d1(0);
    k.a0 = axis_row(r, t, 0);
    k.a1 = axis_row(r, t, 1);
    k.m = pass_.mixed_out ? pass_.mixed_out + f : t.mixed.data();
    k.w = t.across.data();
    k.out = pass_.out ? pass_.out + f : t.combined.data();
    k.cm = static_cast<T>(pass_.mixed_coeff);
    k.ca = static_cast<T>(pass_.axes_coeff);
    int bases = 0;
    for (int j = 0; j < 3; ++j)
      if (pass_.base[j]) {
        k.b[bases] = pass_.base[j] + f;
        k.bc[bases++] = static_cast<T>(pass_.base_coeff[j]);
      }
    if (pass_.axis_out[1] || pass_.mixed_out) {
      k.template run_bases<true>(bases, n);
    } else {
      k.template run_bases<false>(bases, n);
    }
  }

  // The output may be one of the bases (an in-place update), so it is combined in a row buffer.
  void write(const Row<T>& r, RowTerms<T>& t, std::size_t n) const {
    const std::size_t f = r.offset;
    if (Dim >= 2 && pass_.mixed_out) std::copy_n(t.mixed.data(), n, pass_.mixed_out + f);
    if (!pass_.out) return;
    T* __restrict out = t.combined.data();
    const T* __restrict a0 = axis_row(r, t, 0);
    const T* __restrict a1 = Dim >= 2 ? axis_row(r, t, 1) : t.axis[1].data();
    const T* __restrict a2 = Dim == 3 ? axis_row(r, t, 2) : t.axis[2].data();
    const T* __restrict m = t.mixed.data();
    const T cm = static_cast<T>(pass_.mixed_coeff), ca = static_cast<T>(pass_.axes_coeff);
    for (std::size_t i = 0; i < n; ++i) out[i] = cm * m[i] + ca * (a0[i] + a1[i] + a2[i]);
    for (int k = 0; k < 3; ++k) {
      if (!pass_.base[k]) continue;
      const T* __restrict b = pass_.base[k] + f;
      const T c = static_cast<T>(pass_.base_coeff[k]);
      for (std::size_t i = 0; i < n; ++i) out[i] += c * b[i];
    }
    std::copy_n(out, n, pass_.out + f);
  }

  const Problem& pb_;
  const GridStencils<T>& st_;
  const ExplicitPassT<T>& pass_;
  T coeff_[3] = {0, 0, 0};
};

std::size_t dim_size(const Problem& pb, int d) { return d < pb.dim ? pb.axes[static_cast<std::size_t>(d)].size() : 1; }

template <int Dim, class T>
void run_rows(const Problem& pb, const GridStencils<T>& st, const ExplicitPassT<T>& pass, std::size_t first,
              std::size_t last, RowTerms<T>& terms, DerivativeRows<T>& dx0, T* axis0_rows) {
  const RowKernel<Dim, T> kernel(pb, st, pass);
  const std::size_t n0 = dim_size(pb, 0), n1 = dim_size(pb, 1), n2 = dim_size(pb, 2);
  dx0.forget();
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
    kernel.row(r, terms, dx0);
  }
}

}  // namespace

template <class T>
struct PassScratch<T>::Parts {
  explicit Parts(std::size_t n0) : terms(n0), dx0(n0) {}
  RowTerms<T> terms;
  DerivativeRows<T> dx0;
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

template <class T>
void run_explicit_rows(const Problem& pb, const GridStencils<T>& stencils, const ExplicitPassT<T>& pass,
                       std::size_t first, std::size_t last, PassScratch<T>& scratch, T* axis0_rows) {
  typename PassScratch<T>::Parts& s = scratch.parts();
  switch (pb.dim) {
    case 1: run_rows<1>(pb, stencils, pass, first, last, s.terms, s.dx0, axis0_rows); break;
    case 2: run_rows<2>(pb, stencils, pass, first, last, s.terms, s.dx0, axis0_rows); break;
    default: run_rows<3>(pb, stencils, pass, first, last, s.terms, s.dx0, axis0_rows); break;
  }
}

template class PassScratch<double>;
template class PassScratch<float>;
template void run_explicit_rows(const Problem&, const GridStencils<double>&, const ExplicitPassT<double>&, std::size_t,
                                std::size_t, PassScratch<double>&, double*);
template void run_explicit_rows(const Problem&, const GridStencils<float>&, const ExplicitPassT<float>&, std::size_t,
                                std::size_t, PassScratch<float>&, float*);

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
