#pragma once
// The batched tridiagonal solve of the GPU variants: every line of an axis solves
// (I - theta dt A_d) x = r with the same LU factors (line_solve.hpp's factor_axis), so everything
// that depends on the matrix only is computed once on the host per theta dt (chunk_tables.hpp).
// One thread per line would leave a 2000x2000 grid with 4000 threads, far too few to keep a GPU's
// memory busy, so each line is cut into chunks of kChunk nodes, a thread each (steps 1-3 below).
// Within a chunk the arithmetic is exactly the CPU's; only the carries come from sums (rounding at
// 1e-16), well conditioned as I - theta dt A is diagonally dominant: G, H and the weights decay.
#include "platform/hd.hpp"

namespace elsbench::gpu {

constexpr int kChunk = 16;   // nodes per chunk: the forward values of a chunk stay in registers
constexpr int kWarp = 32;

// Per-node arrays a (lower), p (1 / pivot), u (upper / pivot) of the LU factors, the chunk-sum
// weights alpha, beta, and per chunk the carry coefficients G, Q, H; laid out in this order in one
// block of table_elements(n) values (chunk_tables.hpp builds it).
ELSBENCH_HD int chunks_of(int n) { return ceil_div(n, kChunk); }
ELSBENCH_HD long long table_elements(int n) { return 5LL * n + 3LL * chunks_of(n); }

template <class T>
struct ChunkTable {
  const T *a, *p, *u, *alpha, *beta, *G, *Q, *H;
  int n, chunks;
};

template <class T>
ELSBENCH_HD ChunkTable<T> chunk_table(const T* base, int n) {
  const int K = chunks_of(n);
  ChunkTable<T> t;
  t.a = base;
  t.p = base + n;
  t.u = base + 2LL * n;
  t.alpha = base + 3LL * n;
  t.beta = base + 4LL * n;
  t.G = base + 5LL * n;
  t.Q = t.G + K;
  t.H = t.Q + K;
  t.n = n;
  t.chunks = K;
  return t;
}

ELSBENCH_HD int chunk_begin(int k) { return k * kChunk; }
ELSBENCH_HD int chunk_length(int k, int n) { return min_int(kChunk, n - k * kChunk); }

// Step 1, chunk sums: Z_k = sum alpha_j r_j and V_k = sum beta_j r_j over chunk k, two dot products
// with precomputed weights and no recurrence. r(j) gives the right-hand side at node j of the line,
// for j = s, s+1, ... in order.
template <class T, class Rhs>
ELSBENCH_HD void chunk_sums(const ChunkTable<T>& t, int k, Rhs r, T& z, T& v) {
  const int s = chunk_begin(k), e = s + chunk_length(k, t.n);
  T zs = 0, vs = 0;
  for (int j = s; j < e; ++j) {
    const T rj = r(j);
    zs += t.alpha[j] * rj;
    vs += t.beta[j] * rj;
  }
  z = zs;
  v = vs;
}

// Step 3, chunk solve: the CPU's Thomas recurrences inside the chunk, its forward values kept in
// registers, from y_before = Yc_{k-1} (0 for the first chunk) and x_after = Xs_{k+1} (0 for the
// last); out(j, x_j) receives the solution, from the end of the chunk back to its start.
template <class T, class Rhs, class Out>
ELSBENCH_HD void chunk_solve(const ChunkTable<T>& t, int k, T y_before, T x_after, Rhs r, Out out) {
  const int s = chunk_begin(k), len = chunk_length(k, t.n);
  T y[kChunk];
  T prev = y_before;
  ELSBENCH_UNROLL
  for (int j = 0; j < kChunk; ++j) {
    if (j < len) {
      const int i = s + j;
      const T rj = r(i);
      prev = i == 0 ? rj * t.p[0] : (rj - t.a[i] * prev) * t.p[i];
      y[j] = prev;
    }
  }
  T next = x_after;
  ELSBENCH_UNROLL
  for (int j = kChunk - 1; j >= 0; --j) {
    if (j < len) {
      const int i = s + j;
      next = i == t.n - 1 ? y[j] : y[j] - t.u[i] * next;
      out(i, next);
    }
  }
}

// Step 2, carries (one warp per line): the last forward value of each chunk, Yc_k = Z_k + G_k Yc_{k-1},
// and its first solution value, Xs_k = V_k + Q_k Yc_{k-1} + H_k Xs_{k+1}: two affine recurrences
// over chunks, scanned in parallel across the 32 lanes of a warp. Its pieces: an affine map
// y -> b + a y; composing the maps of consecutive chunks is associative, which is what lets 32
// lanes scan a line's chunks in log2(32) steps.
template <class T>
struct Affine {
  T a, b;
};

// later(earlier(y)).
template <class T>
ELSBENCH_HD Affine<T> compose(const Affine<T>& later, const Affine<T>& earlier) {
  return {later.a * earlier.a, later.b + later.a * earlier.b};
}

// The chunks [lo, hi) that lane `lane` of the warp takes: contiguous runs.
ELSBENCH_HD void lane_run(int lane, int chunks, int& lo, int& hi) {
  const int per = ceil_div(chunks, kWarp);
  lo = min_int(lane * per, chunks);
  hi = min_int(lo + per, chunks);
}

// Forward carries: the map Yc_{lo-1} -> Yc_{hi-1} of one lane's run.
template <class T>
ELSBENCH_HD Affine<T> forward_run(const T* z, const T* G, int lo, int hi) {
  Affine<T> f{T(1), T(0)};
  for (int k = lo; k < hi; ++k) f = {G[k] * f.a, z[k] + G[k] * f.b};
  return f;
}

// Given Yc_{lo-1}: z[k] <- Yc_k, and v[k] <- V_k + Q_k Yc_{k-1} for the backward pass.
template <class T>
ELSBENCH_HD void forward_apply(T* z, T* v, const T* G, const T* Q, int lo, int hi, T carry) {
  for (int k = lo; k < hi; ++k) {
    v[k] += Q[k] * carry;
    carry = z[k] + G[k] * carry;
    z[k] = carry;
  }
}

// Backward carries: the map Xs_hi -> Xs_lo of one lane's run.
template <class T>
ELSBENCH_HD Affine<T> backward_run(const T* v, const T* H, int lo, int hi) {
  Affine<T> f{T(1), T(0)};
  for (int k = hi - 1; k >= lo; --k) f = {H[k] * f.a, v[k] + H[k] * f.b};
  return f;
}

// Given Xs_hi: v[k] <- Xs_k.
template <class T>
ELSBENCH_HD void backward_apply(T* v, const T* H, int lo, int hi, T carry) {
  for (int k = hi - 1; k >= lo; --k) {
    carry = v[k] + H[k] * carry;
    v[k] = carry;
  }
}

// The carries into chunk k once step 2 has run: Yc_{k-1} and Xs_{k+1}.
template <class T>
ELSBENCH_HD T carry_before(const T* z, int k) {
  return k > 0 ? z[k - 1] : T(0);
}
template <class T>
ELSBENCH_HD T carry_after(const T* v, int k, int chunks) {
  return k + 1 < chunks ? v[k + 1] : T(0);
}

// A warp as the carry scan sees it. On the GPU (ShuffleWarp) a Reg<X> is one lane's register,
// each(f) runs f for the calling lane, and shfl_up / shfl_down are CUDA's __shfl_up_sync /
// __shfl_down_sync over the full warp (a lane whose source lane is outside the warp keeps its own
// value). The CPU emulation (gpu_emulator.cpp) implements the same interface with a Reg<X> per
// lane, so that it runs the code below, not a copy of it.
struct ShuffleWarp {
  int lane;
  template <class X>
  using Reg = X;
  template <class F>
  ELSBENCH_HD void each(F f) const {
    f(lane);
  }
  template <class X>
  ELSBENCH_HD X& at(X& x, int) const {
    return x;
  }
  template <class X>
  ELSBENCH_HD X shfl_up(X x, int off) const {
#ifdef __CUDA_ARCH__
    return __shfl_up_sync(0xffffffffu, x, off);
#else
    (void)off;
    return x;  // host code never runs a ShuffleWarp; the emulator has its own warp
#endif
  }
  template <class X>
  ELSBENCH_HD X shfl_down(X x, int off) const {
#ifdef __CUDA_ARCH__
    return __shfl_down_sync(0xffffffffu, x, off);
#else
    (void)off;
    return x;
#endif
  }
};

// Step 2 for one line, by one warp: each lane composes the affine maps of its run of chunks, a
// Hillis-Steele scan over the lanes combines them with shuffles (5 steps for 32 lanes), then each
// lane applies its run from the carry it receives; forward carries first, then backward.
template <class T, class Warp>
ELSBENCH_HD void warp_carries(T* z, T* v, const ChunkTable<T>& t, const Warp& w) {
  typename Warp::template Reg<int> lo{}, hi{};
  typename Warp::template Reg<T> fa{}, fb{};  // the lane's map y -> fb + fa y
  const auto set = [&](int lane, const Affine<T>& f) {
    w.at(fa, lane) = f.a;
    w.at(fb, lane) = f.b;
  };
  w.each([&](int lane) {
    lane_run(lane, t.chunks, w.at(lo, lane), w.at(hi, lane));
    set(lane, forward_run(z, t.G, w.at(lo, lane), w.at(hi, lane)));
  });
  for (int off = 1; off < kWarp; off *= 2) {
    auto pa = w.shfl_up(fa, off);
    auto pb = w.shfl_up(fb, off);
    w.each([&](int lane) {
      if (lane >= off)
        set(lane, compose(Affine<T>{w.at(fa, lane), w.at(fb, lane)}, Affine<T>{w.at(pa, lane), w.at(pb, lane)}));
    });
  }
  auto carry = w.shfl_up(fb, 1);
  w.each([&](int lane) {
    forward_apply(z, v, t.G, t.Q, w.at(lo, lane), w.at(hi, lane), lane > 0 ? w.at(carry, lane) : T(0));
    set(lane, backward_run(v, t.H, w.at(lo, lane), w.at(hi, lane)));
  });
  for (int off = 1; off < kWarp; off *= 2) {
    auto qa = w.shfl_down(fa, off);
    auto qb = w.shfl_down(fb, off);
    w.each([&](int lane) {
      if (lane + off < kWarp)
        set(lane, compose(Affine<T>{w.at(fa, lane), w.at(fb, lane)}, Affine<T>{w.at(qa, lane), w.at(qb, lane)}));
    });
  }
  carry = w.shfl_down(fb, 1);
  w.each([&](int lane) {
    backward_apply(v, t.H, w.at(lo, lane), w.at(hi, lane), lane + 1 < kWarp ? w.at(carry, lane) : T(0));
  });
}

}  // namespace elsbench::gpu
