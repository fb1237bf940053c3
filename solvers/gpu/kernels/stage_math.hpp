#pragma once
// Pointwise arithmetic of one ADI stage, shared by the CUDA kernels and their emulation, with the
// formulas of the CPU `adi` (adi_solver.cpp): Y0 = X + dt F X; round 1 solves
// (I - theta dt A_d) Y_d = Y_{d-1} - theta dt F_d X axis by axis (F_0 the mixed term, F_1 and F_2
// the axes; the last Y_d is Yk); round 2 (CS, MCS, HV) starts from Y0 plus sigma dt (F_0 Yk - F_0 X)
// (CS), theta dt (F_0 Yk - F_0 X) + (1/2 - theta) dt (F Yk - F X) (MCS) or dt/2 (F Yk - F X) (HV,
// whose stages subtract F_d Yk). A stage's right-hand side is recomputed from X (and Yk), never
// stored: reading X once costs less memory traffic than writing and reading Y0.
#include "platform/hd.hpp"
#include "solvers/gpu/plan/gpu_step.hpp"
#include "solvers/problem/cell_fractions.hpp"

namespace elsbench::gpu {

// One tridiagonal operator of an axis, in the precision of the march.
template <class T>
struct AxisCoefs {
  const T* lo = nullptr;
  const T* di = nullptr;
  const T* up = nullptr;
};

// The mesh as the kernels see it: values flattened with axis 0 contiguous, layer-major. In 3-D a
// node's row r = i1 + n1 i2 stands where 2-D code has i1 (index, the loaders), so that the 2-D
// arithmetic reads rows of either.
template <class T>
struct GridView {
  int dim = 2, layers = 1;
  int n0 = 0, n1 = 1, n2 = 1;  // n1 = 1 in 1-D, n2 = 1 below 3-D
  long long points = 0;    // n0 * n1 * n2, nodes per layer
  long long layer_stride = 0;  // values between layers' first nodes (GpuPlan::layer_stride)
  AxisCoefs<T> op[3];      // A_d (discounting share included)
  AxisCoefs<T> d1[3];      // S d/dS weights, for the mixed terms
  T mixed[3] = {0, 0, 0};  // rho_ab sigma_a sigma_b of the pairs (0, 1), (0, 2), (1, 2); when has_mixed
  int has_mixed = 0;

  ELSBENCH_HD long long index(int i0, int i1, int layer) const {
    return i0 + static_cast<long long>(n0) * i1 + layer_stride * layer;
  }
};

// c.lo[i] f(-1) + c.di[i] f(0) + c.up[i] f(1): a three-point stencil at coordinate i of an axis
// of n nodes, f(k) the value k nodes along; neighbours off the mesh are left out, as the CPU
// operators do (lower[0] = upper[n-1] = 0 there).
template <class T, class At>
ELSBENCH_HD T three_point(const AxisCoefs<T>& c, int i, int n, At f) {
  T s = i > 0 ? c.lo[i] * f(-1) : T(0);
  s += c.di[i] * f(0);
  if (i + 1 < n) s += c.up[i] * f(1);
  return s;
}

// Along axis 0 at (i0, i1).
template <class T, class Load>
ELSBENCH_HD T along0(const AxisCoefs<T>& c, Load v, int i0, int i1, int n0) {
  return three_point(c, i0, n0, [&](int k) { return v(i0 + k, i1); });
}

// Along an axis whose neighbours are `stride` rows away (axis 1: 1, axis 2: n1), at row r whose
// coordinate on the axis is i.
template <class T, class Load>
ELSBENCH_HD T along_rows(const AxisCoefs<T>& c, Load v, int i0, int r, int i, int n, int stride) {
  return three_point(c, i, n, [&](int k) { return v(i0, r + k * stride); });
}

template <class T, class Load>
ELSBENCH_HD T along1(const AxisCoefs<T>& c, Load v, int i0, int i1, int n1) {
  return along_rows(c, v, i0, i1, i1, n1, 1);
}

// A_axis v at (i0, row r) of a 2-D or 3-D grid, axis 1 or 2.
template <class T, class Load>
ELSBENCH_HD T along_axis(const GridView<T>& g, int axis, Load v, int i0, int r) {
  if (axis == 1) return along_rows(g.op[1], v, i0, r, r % g.n1, g.n1, 1);
  return along_rows(g.op[2], v, i0, r, r / g.n1, g.n2, g.n1);
}

// F_0 v (mixed), F_1 v, F_2 v and F_3 v (axes 0, 1 and 2) at one node.
template <class T>
struct NodeTerms {
  T mixed = 0, a0 = 0, a1 = 0, a2 = 0;
  ELSBENCH_HD T axes(int dim) const { return dim == 3 ? (a0 + a1) + a2 : dim == 2 ? a0 + a1 : a0; }
  ELSBENCH_HD T full(int dim) const { return mixed + axes(dim); }
};

// The mixed stencil is separable: c (S_0 d/dS_0)(S_1 d/dS_1) v, as the CPU passes compute it
// (solvers/operators/fused_explicit.cpp).
template <class T, class Load>
ELSBENCH_HD T mixed_at(const GridView<T>& g, Load v, int i0, int i1) {
  return g.mixed[0] * three_point(g.d1[0], i0, g.n0, [&](int k) { return along1(g.d1[1], v, i0 + k, i1, g.n1); });
}

// The three pairs' mixed terms at (i0, row r) of a 3-D grid, each separable as in 2-D.
template <class T, class Load>
ELSBENCH_HD T mixed_3d(const GridView<T>& g, Load v, int i0, int r) {
  const int i1 = r % g.n1, i2 = r / g.n1;
  const T m01 = three_point(g.d1[0], i0, g.n0, [&](int k) { return along_rows(g.d1[1], v, i0 + k, r, i1, g.n1, 1); });
  const T m02 = three_point(g.d1[0], i0, g.n0, [&](int k) { return along_rows(g.d1[2], v, i0 + k, r, i2, g.n2, g.n1); });
  const T m12 = three_point(g.d1[1], i1, g.n1, [&](int k) { return along_rows(g.d1[2], v, i0, r + k, i2, g.n2, g.n1); });
  return (g.mixed[0] * m01 + g.mixed[1] * m02) + g.mixed[2] * m12;
}

template <class T, class Load>
ELSBENCH_HD NodeTerms<T> node_terms(const GridView<T>& g, Load v, int i0, int i1) {
  NodeTerms<T> t;
  if (g.dim == 3) {  // i1 is the row
    t.a0 = along0(g.op[0], v, i0, i1, g.n0);
    t.a1 = along_axis(g, 1, v, i0, i1);
    t.a2 = along_axis(g, 2, v, i0, i1);
    if (g.has_mixed) t.mixed = mixed_3d(g, v, i0, i1);
    return t;
  }
  t.a0 = along0(g.op[0], v, i0, i1, g.n0);
  if (g.dim == 2) {
    t.a1 = along1(g.op[1], v, i0, i1, g.n1);
    if (g.has_mixed) t.mixed = mixed_at(g, v, i0, i1);
  }
  return t;
}

// The step's coefficients in the precision of the march.
template <class T>
struct StageCoefs {
  T dt, theta_dt, corr_mixed, corr_full;
  SchemeKind scheme;
  ELSBENCH_HD explicit StageCoefs(const GpuStep& s)
      : dt(static_cast<T>(s.w.dt)), theta_dt(static_cast<T>(s.w.theta_dt)),
        corr_mixed(static_cast<T>(s.w.corr_mixed)), corr_full(static_cast<T>(s.w.corr_full)),
        scheme(s.w.kind) {}
};

// Right-hand side of the axis-0 stage of round 1 or 2 at node (i0, i1) of one layer; `x` and `yk`
// load values of that layer (yk is read in round 2 only).
template <class T, class LoadX, class LoadY>
ELSBENCH_HD T first_axis_rhs(const GridView<T>& g, const StageCoefs<T>& c, int round, LoadX x,
                             LoadY yk, int i0, int i1) {
  const NodeTerms<T> fx = node_terms(g, x, i0, i1);
  const T y0 = x(i0, i1) + c.dt * fx.full(g.dim);
  if (round == 1) return y0 - c.theta_dt * fx.a0;
  const NodeTerms<T> fy = node_terms(g, yk, i0, i1);
  const T dm = fy.mixed - fx.mixed;
  switch (c.scheme) {
    case SchemeKind::CraigSneyd:
      return (y0 + c.corr_mixed * dm) - c.theta_dt * fx.a0;
    case SchemeKind::ModifiedCraigSneyd: {
      const T dfull = (dm + fy.axes(g.dim)) - fx.axes(g.dim);
      return ((y0 + c.corr_mixed * dm) + c.corr_full * dfull) - c.theta_dt * fx.a0;
    }
    default: {  // Hundsdorfer-Verwer
      const T dfull = (dm + fy.axes(g.dim)) - fx.axes(g.dim);
      return (y0 + c.corr_full * dfull) - c.theta_dt * fy.a0;
    }
  }
}

// Which values the axis-1 stage differentiates: X, except in HV's second round (Yk).
ELSBENCH_HD bool second_axis_uses_yk(SchemeKind scheme, int round) {
  return round == 2 && scheme == SchemeKind::HundsdorferVerwer;
}

// Right-hand side of the axis-1 stage at (i0, i1): Y1 - theta dt F_2 v.
template <class T, class LoadV>
ELSBENCH_HD T second_axis_rhs(const GridView<T>& g, const StageCoefs<T>& c, T y1, LoadV v, int i0,
                              int i1) {
  return y1 - c.theta_dt * along1(g.op[1], v, i0, i1, g.n1);
}

// Right-hand side of a later axis's stage at (i0, row r) of a 2-D or 3-D grid: Y - theta dt F_axis v
// (in 2-D, axis 1, second_axis_rhs's arithmetic).
template <class T, class LoadV>
ELSBENCH_HD T later_axis_rhs(const GridView<T>& g, const StageCoefs<T>& c, int axis, T y, LoadV v, int i0, int r) {
  return y - c.theta_dt * along_axis(g, axis, v, i0, r);
}

// Where a stage writes: Y1 before the last axis, Yk at the end of a first round, else `out`.
ELSBENCH_HD int stage_target(const GpuStep& s, int axis, int dim, int round) {
  if (axis + 1 < dim) return s.y1;
  return round == 1 && s.two_rounds() ? s.yk : s.out;
}

// A side's per-axis arrays in MarchImage::fractions, n0, then n1, then n2 values: side_axes(g)
// fractions, then as many lifts.
template <class T>
ELSBENCH_HD int side_axes(const GridView<T>& g) {
  return g.n0 + (g.dim >= 2 ? g.n1 : 0) + (g.dim == 3 ? g.n2 : 0);
}

template <class T>
ELSBENCH_HD const double* side_fractions(const GridView<T>& g, const double* fractions, int side) {
  return fractions + 2LL * side * side_axes(g);
}

// Node (i0, row r)'s values of a per-axis array f.
template <class T>
ELSBENCH_HD void node_axes(const GridView<T>& g, const double* f, int i0, int r, double (&at)[3]) {
  at[0] = f[i0];
  at[1] = g.dim >= 2 ? f[g.n0 + r % g.n1] : 0.0;
  at[2] = g.dim == 3 ? f[g.n0 + g.n1 + r / g.n1] : 0.0;
}

// A centroid autocall's lift (cell_fractions.hpp's centroid_lift) at node (i0, row r) of side
// `side`; v(k) the value k nodes away in its layer, whose rows are `row` apart.
template <class T, class Load>
ELSBENCH_HD double lift_at(const GridView<T>& g, const double* fractions, int side, int i0, int r, long long row,
                           Load v) {
  double at[3];
  node_axes(g, side_fractions(g, fractions, side) + side_axes(g), i0, r, at);
  const long long stride[3] = {1, row, row * g.n1};
  return centroid_lift(at, g.dim, [&](int d, int s) { return v(s * stride[d]); });
}

// Before the actions of a step whose first, e, is at_centroid: node i's lift on each layer of
// `values` into `lifts` (laid out alike), where e's phi is neither 0 nor 1 (a cut cell).
template <class T>
ELSBENCH_HD void lifts_at(const GridView<T>& g, const GpuEvent& e, const T* weights, const double* fractions,
                          const T* values, T* lifts, long long i) {
  const T phi = weights[e.weights * g.points + i];
  if (phi == T(0) || phi == T(1)) return;
  const int i0 = static_cast<int>(i % g.n0), r = static_cast<int>(i / g.n0);
  for (int l = 0; l < g.layers; ++l) {
    const T* v = values + i + g.layer_stride * l;
    lifts[i + g.layer_stride * l] = static_cast<T>(lift_at(g, fractions, e.weights, i0, r, g.n0,
                                                           [&](long long k) { return v[k]; }));
  }
}

// The target of action `e` at a node where its weight is phi and its target `target`: less the
// node's lift (lifts_at; lift() reads it) on a centroid autocall's cut cell.
template <class V, class Lift>
ELSBENCH_HD V lifted_target(const GpuEvent& e, V phi, V target, Lift lift) {
  if (!e.at_centroid || phi == V(1)) return target;
  return static_cast<V>(static_cast<double>(target) - static_cast<double>(lift()));
}

// The step's actions at node i (march.hpp: in the order of the event list). `weights` holds the
// per-node weight arrays one after another, `points` apart; the layers of `values` (and of
// `lifts`, lifts_at's) start `layer_stride` apart. Where phi = 0 (most nodes) an action
// leaves the values exactly as they are, so it is skipped without reading or writing them.
template <class T>
ELSBENCH_HD void apply_events_at(const GpuEvent* ev, int count, const T* weights, T* values, const T* lifts,
                                 long long points, long long layer_stride, int layers, long long i) {
  for (int e = 0; e < count; ++e) {
    const T phi = weights[ev[e].weights * points + i];
    if (phi == T(0)) continue;
    for (int l = 0; l < layers; ++l) {
      if (!moves_layer(ev[e].kind, l, layers)) continue;
      T& v = values[i + layer_stride * l];
      const int from = target_layer(ev[e].kind, layers);
      const T target = from >= 0 ? values[i + layer_stride * from] : static_cast<T>(ev[e].value);
      const T lifted = lifted_target(ev[e], phi, target, [&] { return lifts[i + layer_stride * l]; });
      v = moved_value(ev[e].kind, v, phi, lifted);
    }
  }
}

}  // namespace elsbench::gpu
