#include "solvers/tridiagonal/line_solve.hpp"

#include <omp.h>

#if defined(__AVX__)
#include <immintrin.h>
#endif

#include <algorithm>
#include <cmath>

#include "platform/thread_share.hpp"

namespace elsbench {
namespace {

// Lines of one axis, in blocks of neighbouring lines that a thread takes together.
struct LineBlocks {
  std::size_t n = 0;            // nodes per line
  std::size_t step = 1;         // element stride along a line
  std::size_t line_stride = 1;  // distance between neighbouring lines of a block
  std::size_t per_block = 1;    // lines per block
  std::size_t blocks = 0;
  std::size_t lines_per_group = 1, group_stride = 0, blocks_per_group = 1;

  // First element of the first line of block b, and how many lines it holds.
  std::pair<std::size_t, std::size_t> block(std::size_t b) const {
    const std::size_t group = b / blocks_per_group, first = (b % blocks_per_group) * per_block;
    const std::size_t count = std::min(per_block, lines_per_group - first);
    return {group * group_stride + first * line_stride, count};
  }
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
    lb.per_block = 64;
  }
  lb.blocks_per_group = (lb.lines_per_group + lb.per_block - 1) / lb.per_block;
  const std::size_t groups = ax.stride == 1 ? 1 : total / lb.group_stride;
  lb.blocks = groups * lb.blocks_per_group;
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
    const double a = -theta_dt * op.lower[i], b = 1.0 - theta_dt * op.diag[i], c = -theta_dt * op.upper[i];
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
// (an axis's own lines when its stride is not 1, or rows transposed into a buffer); the inner
// loops run over the lines, contiguous and independent. The right-hand side of node i of line l,
// rhs(i, k) with k = i * step + l, is formed during the forward sweep.
template <class Rhs>
void sweep_block(const LineBlocks& lb, const LineFactors& fac, std::size_t count, const Rhs& rhs, double* out) {
  const double* a = fac.lower.data();
  const double* r = fac.upper_ratio.data();
  const double* p = fac.inv_pivot.data();
  const std::size_t s = lb.step, n = lb.n;
  // out may be the right-hand side's z (an in-place stage): an element is read before it is
  // written, and the other row read is not written by the loop, so the lines are independent. The
  // compiler cannot prove it when they alias and would fall back to scalar code: simd says so.
#pragma omp simd
  for (std::size_t l = 0; l < count; ++l) out[l] = rhs(0, l) * p[0];
  for (std::size_t i = 1; i < n; ++i) {
    const std::size_t row = i * s;
#pragma omp simd
    for (std::size_t l = 0; l < count; ++l) out[row + l] = (rhs(i, row + l) - a[i] * out[row - s + l]) * p[i];
  }
  for (std::size_t i = n - 1; i-- > 0;) {
    const std::size_t row = i * s;
#pragma omp simd
    for (std::size_t l = 0; l < count; ++l) out[row + l] -= r[i] * out[row + s + l];
  }
}

// z + g f, or z alone.
template <bool WithF>
void solve_block(const LineBlocks& lb, const LineFactors& fac, std::size_t base, std::size_t count,
                 const double* z, const double* f, double g, double* y) {
  const auto rhs = [&](std::size_t, std::size_t k) { return WithF ? z[base + k] + g * f[base + k] : z[base + k]; };
  sweep_block(lb, fac, count, rhs, y + base);
}

// z + g A v, A v formed from v's neighbours along the line as the explicit pass forms it
// (neighbours clamped at the ends, where their weights are zero), so that the result is the one a
// stored A v gives, to the bit.
void solve_block_stencil(const LineBlocks& lb, const LineFactors& fac, const Tridiagonal& op, std::size_t base,
                         std::size_t count, const double* z, const double* v, double g, double* y) {
  const std::size_t s = lb.step, last = (lb.n - 1) * s;
  const double* lo = op.lower.data();
  const double* di = op.diag.data();
  const double* up = op.upper.data();
  const auto rhs = [&](std::size_t i, std::size_t k) {
    const std::size_t row = i * s;
    const double* vb = v + base + (row == 0 ? k : k - s);
    const double* va = v + base + (row == last ? k : k + s);
    const double axis = lo[i] * *vb + di[i] * v[base + k] + up[i] * *va;
    return z[base + k] + g * axis;
  };
  sweep_block(lb, fac, count, rhs, y + base);
}

#if defined(__AVX__)
// r0..r3 hold four rows of a 4x4 tile; on return they hold its four columns.
inline void transpose4(__m256d& r0, __m256d& r1, __m256d& r2, __m256d& r3) {
  const __m256d t0 = _mm256_unpacklo_pd(r0, r1), t1 = _mm256_unpackhi_pd(r0, r1);
  const __m256d t2 = _mm256_unpacklo_pd(r2, r3), t3 = _mm256_unpackhi_pd(r2, r3);
  r0 = _mm256_permute2f128_pd(t0, t2, 0x20);
  r1 = _mm256_permute2f128_pd(t1, t3, 0x20);
  r2 = _mm256_permute2f128_pd(t0, t2, 0x31);
  r3 = _mm256_permute2f128_pd(t1, t3, 0x31);
}

inline __m256d rhs4(const double* z, const double* f, __m256d g) {
  if (!f) return _mm256_loadu_pd(z);
#if defined(__FMA__)
  return _mm256_fmadd_pd(g, _mm256_loadu_pd(f), _mm256_loadu_pd(z));  // as the scalar tail contracts it
#else
  return _mm256_add_pd(_mm256_loadu_pd(z), _mm256_mul_pd(g, _mm256_loadu_pd(f)));
#endif
}
#endif

// buf[i * count + l] = z[l][i] + g f[l][i] over the rows of a block (z, f at its first row). With
// AVX, 4x4 tiles are transposed in registers (element by element this was a fifth of the solve);
// the rows and nodes beyond the tiles go element by element.
void rows_to_buffer(std::size_t n, std::size_t count, const double* z, const double* f, double g, double* buf) {
  const auto element = [&](std::size_t l, std::size_t i) {
    buf[i * count + l] = f ? z[l * n + i] + g * f[l * n + i] : z[l * n + i];
  };
  std::size_t tiled_rows = 0, tiled_nodes = 0;
#if defined(__AVX__)
  tiled_rows = count & ~std::size_t{3};
  tiled_nodes = n & ~std::size_t{3};
  const __m256d gv = _mm256_set1_pd(g);
  for (std::size_t l = 0; l < tiled_rows; l += 4)
    for (std::size_t i = 0; i < tiled_nodes; i += 4) {
      const double* zr = z + l * n + i;
      const double* fr = f ? f + l * n + i : nullptr;
      __m256d r0 = rhs4(zr, fr, gv), r1 = rhs4(zr + n, fr ? fr + n : nullptr, gv);
      __m256d r2 = rhs4(zr + 2 * n, fr ? fr + 2 * n : nullptr, gv), r3 = rhs4(zr + 3 * n, fr ? fr + 3 * n : nullptr, gv);
      transpose4(r0, r1, r2, r3);
      _mm256_storeu_pd(buf + i * count + l, r0);
      _mm256_storeu_pd(buf + (i + 1) * count + l, r1);
      _mm256_storeu_pd(buf + (i + 2) * count + l, r2);
      _mm256_storeu_pd(buf + (i + 3) * count + l, r3);
    }
#endif
  for (std::size_t l = 0; l < tiled_rows; ++l)
    for (std::size_t i = tiled_nodes; i < n; ++i) element(l, i);
  for (std::size_t l = tiled_rows; l < count; ++l)
    for (std::size_t i = 0; i < n; ++i) element(l, i);
}

// y[l][i] = buf[i * count + l]: the way back.
void buffer_to_rows(std::size_t n, std::size_t count, const double* buf, double* y) {
  std::size_t tiled_rows = 0, tiled_nodes = 0;
#if defined(__AVX__)
  tiled_rows = count & ~std::size_t{3};
  tiled_nodes = n & ~std::size_t{3};
  for (std::size_t l = 0; l < tiled_rows; l += 4)
    for (std::size_t i = 0; i < tiled_nodes; i += 4) {
      __m256d c0 = _mm256_loadu_pd(buf + i * count + l), c1 = _mm256_loadu_pd(buf + (i + 1) * count + l);
      __m256d c2 = _mm256_loadu_pd(buf + (i + 2) * count + l), c3 = _mm256_loadu_pd(buf + (i + 3) * count + l);
      transpose4(c0, c1, c2, c3);
      double* yr = y + l * n + i;
      _mm256_storeu_pd(yr, c0);
      _mm256_storeu_pd(yr + n, c1);
      _mm256_storeu_pd(yr + 2 * n, c2);
      _mm256_storeu_pd(yr + 3 * n, c3);
    }
#endif
  for (std::size_t l = 0; l < tiled_rows; ++l)
    for (std::size_t i = tiled_nodes; i < n; ++i) y[l * n + i] = buf[i * count + l];
  for (std::size_t l = tiled_rows; l < count; ++l)
    for (std::size_t i = 0; i < n; ++i) y[l * n + i] = buf[i * count + l];
}

}  // namespace

// Lines along the contiguous axis would leave the recurrence scalar: a block of rows is
// transposed into a buffer where neighbouring lines are neighbours in memory (the right-hand
// side formed on the way in), solved with vector loops across lines, and copied back.
void solve_rows(std::size_t n, const LineFactors& fac, std::size_t count, const double* z, const double* f,
                double g, double* y, double* buf) {
  rows_to_buffer(n, count, z, f, g, buf);
  LineBlocks local;
  local.n = n;
  local.step = count;
  local.line_stride = 1;
  solve_block<false>(local, fac, 0, count, buf, nullptr, 0.0, buf);
  buffer_to_rows(n, count, buf, y);
}

std::size_t line_buffer_size(const Problem& pb) { return pb.axes[0].size() * kRowsPerBlock; }

namespace {

[[gnu::always_inline]] inline void solve_lines(const LineBlocks& lb, const LineFactors& fac, std::size_t base, std::size_t count, const double* z,
                 const double* f, double g, double* y, double* buf) {
  if (lb.step == 1) {
    solve_rows(lb.n, fac, count, z + base, f ? f + base : nullptr, g, y + base, buf);
  } else if (f) {
    solve_block<true>(lb, fac, base, count, z, f, g, y);
  } else {
    solve_block<false>(lb, fac, base, count, z, f, g, y);
  }
}

// The calling thread's share of the lines, block by block: solve(first element, lines).
template <class Solve>
void for_share(const LineBlocks& lb, const Solve& solve) {
  const std::size_t lines = lb.blocks / lb.blocks_per_group * lb.lines_per_group;
  // Shares are whole vectors of lines; blocks never cross a group (a layer, or a plane in 3-D).
  constexpr std::size_t kUnit = 8;
  const auto [first_unit, last_unit] = thread_share((lines + kUnit - 1) / kUnit);
  const std::size_t end = std::min(lines, last_unit * kUnit);
  for (std::size_t l = first_unit * kUnit; l < end;) {
    const std::size_t group = l / lb.lines_per_group, j = l % lb.lines_per_group;
    const std::size_t count = std::min({lb.per_block, lb.lines_per_group - j, end - l});
    solve(group * lb.group_stride + j * lb.line_stride, count);
    l += count;
  }
}

}  // namespace

void solve_axis_share_stencil(const Problem& pb, int d, const LineFactors& fac, const double* z, const double* v,
                              double g, double* y) {
  const LineBlocks lb = line_blocks(pb, d);
  for_share(lb, [&](std::size_t base, std::size_t count) {
    solve_block_stencil(lb, fac, pb.axes[static_cast<std::size_t>(d)].op, base, count, z, v, g, y);
  });
}

void solve_axis_share(const Problem& pb, int d, const LineFactors& fac, const double* z, const double* f, double g,
                      double* y, double* buf) {
  const LineBlocks lb = line_blocks(pb, d);
  for_share(lb, [&](std::size_t base, std::size_t count) { solve_lines(lb, fac, base, count, z, f, g, y, buf); });
}

void solve_axis(const Problem& pb, int d, const LineFactors& fac, const double* z, const double* f,
                double g, double* y) {
#pragma omp parallel if (threaded(pb.values()))
  {
    std::vector<double> buf(line_buffer_size(pb));
    solve_axis_share(pb, d, fac, z, f, g, y, buf.data());
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
