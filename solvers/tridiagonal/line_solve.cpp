#include "solvers/tridiagonal/line_solve.hpp"

#include <omp.h>

#if defined(__AVX__)
#include <immintrin.h>
#endif

#include <algorithm>
#include <cmath>

#include "platform/stealing_shares.hpp"
#include "solvers/tridiagonal/line_sweeps.hpp"

namespace elsbench {
namespace {

// Lines of one axis, in groups (a layer, or a plane in 3-D) of lines at a fixed distance, solved in
// blocks of neighbouring lines.
struct LineBlocks {
  std::size_t n = 0;            // nodes per line
  std::size_t step = 1;         // element stride along a line
  std::size_t line_stride = 1;  // distance between neighbouring lines of a group
  std::size_t per_block = 1;    // lines solved together
  std::size_t groups = 1, lines_per_group = 1, group_stride = 0;
};

LineBlocks line_blocks(const Problem& pb, int d) {
  const Axis& ax = pb.axes[static_cast<std::size_t>(d)];
  const std::size_t total = pb.values();
  LineBlocks lb;
  lb.n = ax.size();
  lb.step = ax.stride;
  if (ax.stride == 1) {
    // Lines are rows: a block of rows gives independent recurrences to interleave.
    lb.line_stride = lb.n;
    lb.lines_per_group = total / lb.n;
    lb.group_stride = 0;
    lb.per_block = kRowsPerBlock;
  } else {
    // Lines are neighbours in memory: inner loops over lines are contiguous (vectorised).
    lb.line_stride = 1;
    lb.lines_per_group = ax.stride;
    lb.group_stride = ax.stride * lb.n;
    lb.groups = total / lb.group_stride;
    lb.per_block = kLinesPerBlock;
  }
  return lb;
}

bool threaded(std::size_t work) { return work >= 4096 && omp_get_max_threads() > 1; }

}  // namespace

LineFactors factor_axis(const Tridiagonal& op, double theta_dt) {
  const std::size_t n = op.size();
  LineFactors f;
  f.lower.resize(n);
  f.upper_ratio.resize(n);
  f.inv_pivot.resize(n);
  double previous_ratio = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const auto [a, b, c] = system_row(op, theta_dt, i);
    const double pivot = b - (i > 0 ? a * previous_ratio : 0.0);
    f.lower[i] = a;
    f.inv_pivot[i] = 1.0 / pivot;
    f.upper_ratio[i] = c / pivot;
    previous_ratio = f.upper_ratio[i];
  }
  return f;
}

namespace {

// Forward elimination then back substitution over a block of lines that are neighbours in memory
// (an axis's own lines when its stride is not 1, or rows transposed into a buffer). The right-hand
// side of node i is formed during the forward sweep: node_rhs(i) gives the function of line l that
// forms it.
template <class T, class NodeRhs>
void sweep_block(const LineBlocks& lb, const LineFactorsT<T>& fac, std::size_t count, const NodeRhs& node_rhs,
                 T* out) {
  eliminate_forward(fac.lower.data(), fac.inv_pivot.data(), node_rhs, 0, lb.n, lb.step, count, out);
  substitute_backward(fac.upper_ratio.data(), 0, lb.n - 1, lb.step, count, out);
}

// The stage's right-hand side for the block of `count` lines from element `base`.
template <class T>
void solve_block(const LineBlocks& lb, const LineFactorsT<T>& fac, const StageRhs<T>& rhs, std::size_t base,
                 std::size_t count, T* y) {
  with_node_rhs(rhs, lb.n, lb.step, base,
                [&](const auto& node_rhs) { sweep_block(lb, fac, count, node_rhs, y + base); });
}

#if defined(__AVX__)
// A row's values in one AVX register, four doubles or eight floats: the tiled solve's unit.
struct Tile4d {
  using Reg = __m256d;
  static constexpr std::size_t kWidth = 4;
  static Reg load(const double* p) { return _mm256_loadu_pd(p); }
  static void store(double* p, Reg r) { _mm256_storeu_pd(p, r); }
  static Reg broadcast(double g) { return _mm256_set1_pd(g); }
#if defined(__FMA__)
  static Reg mul_add(Reg g, Reg f, Reg z) { return _mm256_fmadd_pd(g, f, z); }  // as the scalar tail contracts it
  static Reg sub_mul(Reg z, Reg a, Reg x) { return _mm256_fnmadd_pd(a, x, z); }  // z - a x, as sweep_block's
#else
  static Reg mul_add(Reg g, Reg f, Reg z) { return _mm256_add_pd(z, _mm256_mul_pd(g, f)); }
  static Reg sub_mul(Reg z, Reg a, Reg x) { return _mm256_sub_pd(z, _mm256_mul_pd(a, x)); }
#endif
  static Reg mul(Reg a, Reg b) { return _mm256_mul_pd(a, b); }
  static Reg zero() { return _mm256_setzero_pd(); }
  // r[0..3] hold four rows of a 4x4 tile; on return they hold its four columns.
  static void transpose(Reg (&r)[4]) {
    const Reg t0 = _mm256_unpacklo_pd(r[0], r[1]), t1 = _mm256_unpackhi_pd(r[0], r[1]);
    const Reg t2 = _mm256_unpacklo_pd(r[2], r[3]), t3 = _mm256_unpackhi_pd(r[2], r[3]);
    r[0] = _mm256_permute2f128_pd(t0, t2, 0x20);
    r[1] = _mm256_permute2f128_pd(t1, t3, 0x20);
    r[2] = _mm256_permute2f128_pd(t0, t2, 0x31);
    r[3] = _mm256_permute2f128_pd(t1, t3, 0x31);
  }
};

struct Tile8f {
  using Reg = __m256;
  static constexpr std::size_t kWidth = 8;
  static Reg load(const float* p) { return _mm256_loadu_ps(p); }
  static void store(float* p, Reg r) { _mm256_storeu_ps(p, r); }
  static Reg broadcast(float g) { return _mm256_set1_ps(g); }
#if defined(__FMA__)
  static Reg mul_add(Reg g, Reg f, Reg z) { return _mm256_fmadd_ps(g, f, z); }
  static Reg sub_mul(Reg z, Reg a, Reg x) { return _mm256_fnmadd_ps(a, x, z); }
#else
  static Reg mul_add(Reg g, Reg f, Reg z) { return _mm256_add_ps(z, _mm256_mul_ps(g, f)); }
  static Reg sub_mul(Reg z, Reg a, Reg x) { return _mm256_sub_ps(z, _mm256_mul_ps(a, x)); }
#endif
  static Reg mul(Reg a, Reg b) { return _mm256_mul_ps(a, b); }
  static Reg zero() { return _mm256_setzero_ps(); }
  // r[0..7] hold eight rows of an 8x8 tile; on return they hold its eight columns.
  static void transpose(Reg (&r)[8]) {
    Reg t[8], u[8];
    for (int k = 0; k < 4; ++k) {
      t[2 * k] = _mm256_unpacklo_ps(r[2 * k], r[2 * k + 1]);
      t[2 * k + 1] = _mm256_unpackhi_ps(r[2 * k], r[2 * k + 1]);
    }
    for (int h = 0; h < 2; ++h)
      for (int k = 0; k < 2; ++k) {
        u[4 * h + 2 * k] = _mm256_shuffle_ps(t[4 * h + k], t[4 * h + k + 2], 0x44);
        u[4 * h + 2 * k + 1] = _mm256_shuffle_ps(t[4 * h + k], t[4 * h + k + 2], 0xEE);
      }
    for (int k = 0; k < 4; ++k) {
      r[k] = _mm256_permute2f128_ps(u[k], u[k + 4], 0x20);
      r[k + 4] = _mm256_permute2f128_ps(u[k], u[k + 4], 0x31);
    }
  }
};

#if defined(__AVX512F__)
// With AVX-512 a double tile is a 512-bit register, eight rows (a float tile stays eight rows of
// an AVX register: sixteen 512-bit rows were 12 % slower, measured). The shuffles are the
// full-mask forms, the same instructions: GCC 12's unmasked forms pass an undefined register that
// its -Wmaybe-uninitialized reports (GCC bug 105593).
constexpr __mmask8 kAll8 = 0xFF;
// 128-bit lanes: Imm 0x88 gives a's lanes 0, 2 then b's lanes 0, 2; 0xDD lanes 1, 3.
template <int Imm>
__m512d lanes_of(__m512d a, __m512d b) { return _mm512_mask_shuffle_f64x2(a, kAll8, a, b, Imm); }
// o[j] = lane j of a, b, c and d.
inline void lane_transpose(__m512d a, __m512d b, __m512d c, __m512d d, __m512d (&o)[4]) {
  const __m512d ab0 = lanes_of<0x88>(a, b), ab1 = lanes_of<0xDD>(a, b);
  const __m512d cd0 = lanes_of<0x88>(c, d), cd1 = lanes_of<0xDD>(c, d);
  o[0] = lanes_of<0x88>(ab0, cd0);
  o[1] = lanes_of<0x88>(ab1, cd1);
  o[2] = lanes_of<0xDD>(ab0, cd0);
  o[3] = lanes_of<0xDD>(ab1, cd1);
}
struct Tile8d {
  using Reg = __m512d;
  static constexpr std::size_t kWidth = 8;
  static Reg load(const double* p) { return _mm512_loadu_pd(p); }
  static void store(double* p, Reg r) { _mm512_storeu_pd(p, r); }
  static Reg broadcast(double g) { return _mm512_set1_pd(g); }
  static Reg mul_add(Reg g, Reg f, Reg z) { return _mm512_fmadd_pd(g, f, z); }
  static Reg sub_mul(Reg z, Reg a, Reg x) { return _mm512_fnmadd_pd(a, x, z); }
  static Reg mul(Reg a, Reg b) { return _mm512_mul_pd(a, b); }
  static Reg zero() { return _mm512_setzero_pd(); }
  // r[0..7] hold eight rows of an 8x8 tile; on return they hold its eight columns.
  static void transpose(Reg (&r)[8]) {
    Reg t[8], o[4];
    for (int k = 0; k < 4; ++k) {
      // Lane j: column 2j (lo) or 2j + 1 (hi) of rows 2k and 2k + 1.
      t[2 * k] = _mm512_mask_unpacklo_pd(r[2 * k], kAll8, r[2 * k], r[2 * k + 1]);
      t[2 * k + 1] = _mm512_mask_unpackhi_pd(r[2 * k], kAll8, r[2 * k], r[2 * k + 1]);
    }
    for (int c = 0; c < 2; ++c) {
      lane_transpose(t[c], t[2 + c], t[4 + c], t[6 + c], o);
      for (int j = 0; j < 4; ++j) r[2 * j + c] = o[j];
    }
  }
};
#endif

// The tile of each precision.
template <class T>
struct WideTile;
#if defined(__AVX512F__)
template <>
struct WideTile<double> : Tile8d {};
#else
template <>
struct WideTile<double> : Tile4d {};
#endif
template <>
struct WideTile<float> : Tile8f {};

// One register of the right-hand side z + g f (z alone without f) from element k on.
template <class V, class T>
typename V::Reg tile_rhs(const T* z, const T* f, typename V::Reg g, std::size_t k) {
  return f ? V::mul_add(g, V::load(f + k), V::load(z + k)) : V::load(z + k);
}
#endif

// buf[i * count + l] = z[l][i] + g f[l][i] over the rows of a block (z, f at its first row), and
// back: element by element, for the blocks that the tiled solve does not take.
template <class T>
void rows_to_buffer(std::size_t n, std::size_t count, const T* z, const T* f, T g, T* buf) {
  for (std::size_t l = 0; l < count; ++l)
    for (std::size_t i = 0; i < n; ++i) buf[i * count + l] = f ? z[l * n + i] + g * f[l * n + i] : z[l * n + i];
}

template <class T>
void buffer_to_rows(std::size_t n, std::size_t count, const T* buf, T* y) {
  for (std::size_t l = 0; l < count; ++l)
    for (std::size_t i = 0; i < n; ++i) y[l * n + i] = buf[i * count + l];
}

}  // namespace

#if defined(__AVX__)
// The same solve with the forward elimination done as each WxW tile comes out of its transpose,
// and the back substitution just before each tile goes back into the rows: the buffer is written
// and read once instead of four times. Every value takes the operations of sweep_block in the same
// order, so the results are the same to the bit. Rows in groups of W; nodes past the last whole
// tile go element by element.
template <class T>
void solve_rows_tiled(std::size_t n, const LineFactorsT<T>& fac, std::size_t count, const T* z, const T* f, T g, T* y,
                      T* buf) {
  using V = WideTile<T>;
  using Reg = typename V::Reg;
  constexpr std::size_t W = V::kWidth;
  const T* a = fac.lower.data();
  const T* ur = fac.upper_ratio.data();
  const T* p = fac.inv_pivot.data();
  const std::size_t tiled = n - n % W;
  const Reg gv = V::broadcast(g);
  // Forward: node i of rows l..l+W-1 is (rhs - a_i x_{i-1}) / pivot_i, x_{-1} = 0 (a_0 = 0).
  for (std::size_t i = 0; i < tiled; i += W)
    for (std::size_t l = 0; l < count; l += W) {
      Reg r[W];
      for (std::size_t k = 0; k < W; ++k) r[k] = tile_rhs<V>(z, f, gv, (l + k) * n + i);
      V::transpose(r);
      Reg previous = i == 0 ? V::zero() : V::load(buf + (i - 1) * count + l);
      for (std::size_t k = 0; k < W; ++k) {
        r[k] = i + k == 0 ? V::mul(r[k], V::broadcast(p[0]))
                          : V::mul(V::sub_mul(r[k], V::broadcast(a[i + k]), previous), V::broadcast(p[i + k]));
        V::store(buf + (i + k) * count + l, r[k]);
        previous = r[k];
      }
    }
  for (std::size_t i = tiled; i < n; ++i)
    for (std::size_t l = 0; l < count; ++l) {
      const T x = f ? z[l * n + i] + g * f[l * n + i] : z[l * n + i];
      buf[i * count + l] = i == 0 ? x * p[0] : (x - a[i] * buf[(i - 1) * count + l]) * p[i];
    }
  // Backward: x_i -= (c_i / pivot_i) x_{i+1} below the last node, then back into the rows.
  for (std::size_t i = n - 1; i-- > tiled;)
    for (std::size_t l = 0; l < count; ++l) buf[i * count + l] -= ur[i] * buf[(i + 1) * count + l];
  for (std::size_t l = 0; l < count; ++l)
    for (std::size_t i = tiled; i < n; ++i) y[l * n + i] = buf[i * count + l];
  for (std::size_t i = tiled; i > 0; i -= W)
    for (std::size_t l = 0; l < count; l += W) {
      const std::size_t first = i - W;
      Reg next = i == n ? V::zero() : V::load(buf + i * count + l);
      Reg r[W];
      for (std::size_t k = W; k-- > 0;) {
        r[k] = V::load(buf + (first + k) * count + l);
        if (first + k + 1 < n) r[k] = V::sub_mul(r[k], V::broadcast(ur[first + k]), next);
        V::store(buf + (first + k) * count + l, r[k]);
        next = r[k];
      }
      V::transpose(r);
      for (std::size_t k = 0; k < W; ++k) V::store(y + (l + k) * n + first, r[k]);
    }
}
#endif

// Lines along the contiguous axis would leave the recurrence scalar: a block of rows is
// transposed into a buffer where neighbouring lines are neighbours in memory (the right-hand
// side formed on the way in), solved with vector loops across lines, and copied back.
template <class T>
void solve_rows(std::size_t n, const LineFactorsT<T>& fac, std::size_t count, const T* z, const T* f, T g, T* y,
                T* buf) {
#if defined(__AVX__)
  static_assert(WideTile<T>::kWidth == kRowsPerTile<T>);
  if (const std::size_t tiled = count - count % kRowsPerTile<T>; tiled > 0 && n >= kRowsPerTile<T>) {
    solve_rows_tiled(n, fac, tiled, z, f, g, y, buf);
    if (tiled == count) return;
    z += tiled * n;
    f = f ? f + tiled * n : nullptr;
    y += tiled * n;
    count -= tiled;
  }
#endif
  rows_to_buffer(n, count, z, f, g, buf);
  LineBlocks local;
  local.n = n;
  local.step = count;
  local.line_stride = 1;
  StageRhs<T> in_buffer;
  in_buffer.z = buf;
  solve_block(local, fac, in_buffer, 0, count, buf);
  buffer_to_rows(n, count, buf, y);
}

std::size_t line_buffer_size(const Problem& pb) { return pb.axes[0].size() * kRowsPerBlock; }

namespace {

template <class T>
[[gnu::always_inline]] inline void solve_lines(const LineBlocks& lb, const LineFactorsT<T>& fac, std::size_t base,
                                               std::size_t count, const T* z, const T* f, T g, T* y, T* buf) {
  if (lb.step == 1) {
    solve_rows(lb.n, fac, count, z + base, f ? f + base : nullptr, g, y + base, buf);
  } else {
    StageRhs<T> rhs;
    rhs.z = z;
    rhs.f = f;
    rhs.g = g;
    solve_block(lb, fac, rhs, base, count, y);
  }
}

std::size_t blocks_per_group(const LineBlocks& lb) { return (lb.lines_per_group + lb.per_block - 1) / lb.per_block; }

// solve(first element, lines) for each block of lines the calling thread takes: a group's lines
// (a layer, or a plane in 3-D) in blocks of lb.per_block from its first, the same blocks whatever
// the thread count.
template <class Solve>
void for_blocks(const LineBlocks& lb, StealingShares& blocks, const Solve& solve) {
  const std::size_t per_group = blocks_per_group(lb);
  blocks.run([&](std::size_t b) {
    const std::size_t group = b / per_group, j = b % per_group * lb.per_block;
    solve(group * lb.group_stride + j * lb.line_stride, std::min(lb.per_block, lb.lines_per_group - j));
  });
}

// The blocks of axis d's lines the calling thread takes (of every block of the axis, in `blocks`).
template <class T>
void solve_axis_blocks(const Problem& pb, int d, StealingShares& blocks, const LineFactorsT<T>& fac, const T* z,
                       const T* f, T g, T* y, T* buf) {
  const LineBlocks lb = line_blocks(pb, d);
  for_blocks(lb, blocks, [&](std::size_t base, std::size_t count) { solve_lines(lb, fac, base, count, z, f, g, y, buf); });
}

}  // namespace

template <class T>
void solve_axis_groups(const Problem& pb, int d, const LineFactorsT<T>& fac, const StageRhs<T>& rhs, T* y,
                       std::size_t first_group, std::size_t last_group) {
  const LineBlocks lb = line_blocks(pb, d);
  for (std::size_t group = first_group; group < last_group; ++group)
    for (std::size_t j = 0; j < lb.lines_per_group; j += lb.per_block)
      solve_block(lb, fac, rhs, group * lb.group_stride + j, std::min(lb.per_block, lb.lines_per_group - j), y);
}

#define ELSBENCH_LINE_SOLVE(T)                                                                                    \
  template void solve_rows(std::size_t, const LineFactorsT<T>&, std::size_t, const T*, const T*, T, T*, T*);      \
  template void solve_axis_groups(const Problem&, int, const LineFactorsT<T>&, const StageRhs<T>&, T*, std::size_t, \
                                  std::size_t);
ELSBENCH_LINE_SOLVE(double)
ELSBENCH_LINE_SOLVE(float)
#undef ELSBENCH_LINE_SOLVE

LineFactorsT<float> to_fp32(const LineFactors& f) {
  LineFactorsT<float> out;
  out.lower.assign(f.lower.begin(), f.lower.end());
  out.upper_ratio.assign(f.upper_ratio.begin(), f.upper_ratio.end());
  out.inv_pivot.assign(f.inv_pivot.begin(), f.inv_pivot.end());
  return out;
}

void solve_axis(const Problem& pb, int d, const LineFactors& fac, const double* z, const double* f,
                double g, double* y) {
  const LineBlocks lb = line_blocks(pb, d);
  StealingShares blocks(lb.groups * blocks_per_group(lb), omp_get_max_threads());
#pragma omp parallel if (threaded(pb.values()))
  {
    std::vector<double> buf(line_buffer_size(pb));
    solve_axis_blocks<double>(pb, d, blocks, fac, z, f, g, y, buf.data());
  }
}

void solve_axis(const Problem& pb, int d, const LineFactors& fac, double* x) {
  solve_axis(pb, d, fac, x, nullptr, 0.0, x);
}

void solve_axis_rhs(const Problem& pb, int d, double theta_dt, const double* z, const double* f,
                    double g, double* y) {
  solve_axis(pb, d, factor_axis(pb.axes[static_cast<std::size_t>(d)].op, theta_dt), z, f, g, y);
}

}  // namespace elsbench
