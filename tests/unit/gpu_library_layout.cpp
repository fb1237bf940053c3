// The layouts and tiled transposes of the cuSPARSE variants (solvers/gpu/kernels/library_layout.hpp), run
// on the CPU thread by thread as the kernels run them; and the matrix rows they hand the library,
// solved as the library would, against the CPU's Thomas solve. Runs without a GPU.
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <vector>

#include "products/catalog.hpp"
#include "solvers/gpu/kernels/library_layout.hpp"
#include "solvers/gpu/plan/gpu_plan.hpp"
#include "solvers/problem/problem_builder.hpp"
#include "solvers/tridiagonal/line_solve.hpp"

namespace elsbench::gpu {
namespace {

double value_at(int i0, int i1, int layer) { return i0 + 1000.0 * i1 + 1e6 * layer; }

// Our layers' offsets as the GPU plan pads them (GpuPlan::layer_stride).
long long aligned_stride(int n0, int n1) {
  const long long points = static_cast<long long>(n0) * n1;
  return (points + kLayerAlignValues - 1) / kLayerAlignValues * kLayerAlignValues;
}

// store_system_tiled's data movement: computed walking i0, written walking i1 into `layout`.
std::vector<double> tiled_store(int n0, int n1, int layers, SolveLayout layout) {
  std::vector<double> out(static_cast<std::size_t>(n0) * static_cast<std::size_t>(n1) * static_cast<std::size_t>(layers), -1.0);
  std::vector<double> tile(kTile * kTilePitch);
  for (int l = 0; l < layers; ++l)
    for (int by = 0; by < ceil_div(n1, kTile); ++by)
      for (int bx = 0; bx < ceil_div(n0, kTile); ++bx) {
        const TileBlock b = tile_block(bx, by, l, n0, n1);
        for (int ty = 0; ty < kTileRows; ++ty)
          for (int tx = 0; tx < kTile; ++tx)
            tile_gather_rows(tile.data(), b, tx, ty, [&](int i0, int i1) { return value_at(i0, i1, l); });
        for (int ty = 0; ty < kTileRows; ++ty)
          for (int tx = 0; tx < kTile; ++tx)
            tile_scatter_columns(tile.data(), b, tx, ty, [&](int i0, int i1, double v) {
              out[static_cast<std::size_t>(layout.index(i0, i1, l))] = v;
            });
      }
  return out;
}

// untile's data movement: read walking i1 from `layout`, written walking i0 in our layout.
std::vector<double> untiled(const std::vector<double>& src, int n0, int n1, int layers, SolveLayout layout) {
  std::vector<double> out(static_cast<std::size_t>(aligned_stride(n0, n1) * layers), -1.0);
  const SolveLayout ours = natural_layout(n0, aligned_stride(n0, n1));
  std::vector<double> tile(kTile * kTilePitch);
  for (int l = 0; l < layers; ++l)
    for (int by = 0; by < ceil_div(n1, kTile); ++by)
      for (int bx = 0; bx < ceil_div(n0, kTile); ++bx) {
        const TileBlock b = tile_block(bx, by, l, n0, n1);
        for (int ty = 0; ty < kTileRows; ++ty)
          for (int tx = 0; tx < kTile; ++tx)
            tile_gather_columns(tile.data(), b, tx, ty, [&](int i0, int i1) {
              return src[static_cast<std::size_t>(layout.index(i0, i1, l))];
            });
        for (int ty = 0; ty < kTileRows; ++ty)
          for (int tx = 0; tx < kTile; ++tx)
            tile_scatter_rows(tile.data(), b, tx, ty, [&](int i0, int i1, double v) {
              out[static_cast<std::size_t>(ours.index(i0, i1, l))] = v;
            });
      }
  return out;
}

BOOST_AUTO_TEST_CASE(layouts_are_the_library_formats) {
  const int n0 = 7, n1 = 5, layers = 2;
  // gtsv2StridedBatch: system j = i0 + n0 layer holds its n1 values contiguously.
  const SolveLayout s = strided_axis1_layout(n0, n1);
  for (int l = 0; l < layers; ++l)
    for (int i0 = 0; i0 < n0; ++i0)
      for (int i1 = 0; i1 < n1; ++i1) BOOST_TEST(s.index(i0, i1, l) == (i0 + n0 * l) * n1 + i1);
  // gtsvInterleavedBatch: value i0 of system j = i1 + n1 layer at i0 * batch + j.
  const SolveLayout v = interleaved_axis0_layout(n1, layers);
  for (int l = 0; l < layers; ++l)
    for (int i0 = 0; i0 < n0; ++i0)
      for (int i1 = 0; i1 < n1; ++i1) BOOST_TEST(v.index(i0, i1, l) == i0 * (n1 * layers) + i1 + n1 * l);
  // Ours: axis 0 contiguous, layer-major, each layer at a multiple of 32 values (128 bytes in
  // fp32 and fp64) although n0 n1 = 35 is odd.
  const SolveLayout o = natural_layout(n0, aligned_stride(n0, n1));
  BOOST_TEST(o.index(3, 2, 1) == 3 + n0 * 2 + 64);
}

BOOST_AUTO_TEST_CASE(tiled_transposes_move_every_value_once) {
  // Sizes below, at and across tile edges; one axis of length 1 (the 1-D interleaved case).
  const int sizes[][3] = {{37, 45, 2}, {32, 32, 1}, {33, 64, 2}, {100, 1, 2}, {5, 70, 1}};
  for (const auto& sz : sizes) {
    const int n0 = sz[0], n1 = sz[1], layers = sz[2];
    for (SolveLayout layout : {strided_axis1_layout(n0, n1), interleaved_axis0_layout(n1, layers)}) {
      const std::vector<double> stored = tiled_store(n0, n1, layers, layout);
      for (int l = 0; l < layers; ++l)
        for (int i1 = 0; i1 < n1; ++i1)
          for (int i0 = 0; i0 < n0; ++i0)
            BOOST_TEST(stored[static_cast<std::size_t>(layout.index(i0, i1, l))] == value_at(i0, i1, l));
      const std::vector<double> back = untiled(stored, n0, n1, layers, layout);
      const SolveLayout ours = natural_layout(n0, aligned_stride(n0, n1));
      for (int l = 0; l < layers; ++l)
        for (int i1 = 0; i1 < n1; ++i1)
          for (int i0 = 0; i0 < n0; ++i0)
            BOOST_TEST(back[static_cast<std::size_t>(ours.index(i0, i1, l))] == value_at(i0, i1, l));
    }
  }
}

BOOST_AUTO_TEST_CASE(rows_handed_to_the_library_are_the_factored_matrix) {
  const Product product = resolve_product("sample-2a-stepdown");
  GridOptions g;
  g.n = 41;
  const Problem pb = build_problem(product, g);
  const Tridiagonal& op = pb.axes[1].op;
  const int n = static_cast<int>(op.size());
  const double theta_dt = 0.7 / 252;
  const AxisCoefs<double> c{op.lower.data(), op.diag.data(), op.upper.data()};
  // A plain Thomas solve on the rows (what a library does, up to its own rounding).
  std::vector<double> rhs(static_cast<std::size_t>(n)), cp(rhs.size()), x(rhs.size());
  for (int i = 0; i < n; ++i) rhs[static_cast<std::size_t>(i)] = std::sin(0.3 * i) * 50 + 60;
  double prev_c = 0, prev_x = 0;
  for (int i = 0; i < n; ++i) {
    const Diagonals<double> r = implicit_row(c, i, n, theta_dt);
    if (i == 0) BOOST_TEST(r.dl == 0.0);
    if (i == n - 1) BOOST_TEST(r.du == 0.0);
    const double denom = r.d - r.dl * prev_c;
    prev_c = cp[static_cast<std::size_t>(i)] = r.du / denom;
    prev_x = x[static_cast<std::size_t>(i)] = (rhs[static_cast<std::size_t>(i)] - r.dl * prev_x) / denom;
  }
  for (int i = n - 2; i >= 0; --i)
    x[static_cast<std::size_t>(i)] -= cp[static_cast<std::size_t>(i)] * x[static_cast<std::size_t>(i) + 1];
  // The CPU's solve along axis 1 of a grid whose every line is `rhs`.
  std::vector<double> grid(pb.values());
  for (std::size_t f = 0; f < grid.size(); ++f) grid[f] = rhs[(f / pb.axes[0].size()) % static_cast<std::size_t>(n)];
  solve_axis(pb, 1, factor_axis(op, theta_dt), grid.data());
  for (int i = 0; i < n; ++i)
    BOOST_TEST(std::abs(grid[static_cast<std::size_t>(i) * pb.axes[0].size()] - x[static_cast<std::size_t>(i)]) <=
               1e-12 * 100);
}

}  // namespace
}  // namespace elsbench::gpu
