#pragma once
// Data layouts of the cuSPARSE batched tridiagonal solvers and the tiled transposes into and out
// of them, shared by the kernels (adi_cusparse/cusparse_kernels.cu) and their emulation. The
// library takes the three diagonals at full length for every system, laid out its way:
// gtsv2StridedBatch system j's values contiguous, batchStride apart; gtsvInterleavedBatch value i
// of system j at i * batchCount + j. Axis-0 lines are already strided systems and axis-1 lines
// (a layer at a time) interleaved ones; the other two cases go through a 32x32 shared-memory tile,
// so that both the read and the write are coalesced.
#include "platform/hd.hpp"
#include "solvers/gpu/kernels/stage_math.hpp"

namespace elsbench::gpu {

// index(i0, i1, layer) = i0 * s0 + i1 * s1 + layer * sl.
struct SolveLayout {
  long long s0 = 1, s1 = 0, sl = 0;
  ELSBENCH_HD long long index(int i0, int i1, int layer) const { return i0 * s0 + i1 * s1 + layer * sl; }
};

// Our own layout (and that of the systems needing no transpose): layers layer_stride apart,
// each starting 128-byte aligned (GpuPlan::layer_stride), so the per-layer library calls get
// aligned pointers.
inline SolveLayout natural_layout(int n0, long long layer_stride) {
  return {1, n0, layer_stride};
}
// Lines of axis 1 as gtsv2StridedBatch systems: system (i0, layer) = i0 + n0 layer, m = n1.
inline SolveLayout strided_axis1_layout(int n0, int n1) {
  return {n1, 1, static_cast<long long>(n0) * n1};
}
// Lines of axis 0 as gtsvInterleavedBatch systems: system (i1, layer) = i1 + n1 layer among
// n1 * layers, value i0 at i0 * n1 * layers.
inline SolveLayout interleaved_axis0_layout(int n1, int layers) {
  return {static_cast<long long>(n1) * layers, 1, n1};
}

// Row i of I - theta dt A_d (what factor_axis factors), with the entries off the matrix zero.
template <class T>
struct Diagonals {
  T dl, d, du;
};
template <class T>
ELSBENCH_HD Diagonals<T> implicit_row(const AxisCoefs<T>& op, int i, int n, T theta_dt) {
  return {i > 0 ? -theta_dt * op.lo[i] : T(0), T(1) - theta_dt * op.di[i],
          i + 1 < n ? -theta_dt * op.up[i] : T(0)};
}

// A 32 x 32 tile of nodes (i0, i1) of one layer, held in shared memory as tile[(i1 - base1) *
// kTilePitch + (i0 - base0)]; the pitch of 33 keeps a column's values in different banks. A block
// of 32 x 8 threads moves it: "rows" phases make consecutive threads walk i0 (coalesced in our
// layout), "columns" phases walk i1 (coalesced in the transposed layouts, where s1 = 1).
constexpr int kTile = 32, kTileRows = 8, kTilePitch = kTile + 1;

struct TileBlock {
  int base0, base1, layer;  // the tile's first node and its layer
  int n0, n1;
};

template <class T, class Read>
ELSBENCH_HD void tile_gather_rows(T* tile, const TileBlock& b, int tx, int ty, Read read) {
  for (int r = ty; r < kTile; r += kTileRows) {
    const int i0 = b.base0 + tx, i1 = b.base1 + r;
    if (i0 < b.n0 && i1 < b.n1) tile[r * kTilePitch + tx] = read(i0, i1);
  }
}

template <class T, class Write>
ELSBENCH_HD void tile_scatter_rows(const T* tile, const TileBlock& b, int tx, int ty, Write write) {
  for (int r = ty; r < kTile; r += kTileRows) {
    const int i0 = b.base0 + tx, i1 = b.base1 + r;
    if (i0 < b.n0 && i1 < b.n1) write(i0, i1, tile[r * kTilePitch + tx]);
  }
}

template <class T, class Read>
ELSBENCH_HD void tile_gather_columns(T* tile, const TileBlock& b, int tx, int ty, Read read) {
  for (int c = ty; c < kTile; c += kTileRows) {
    const int i0 = b.base0 + c, i1 = b.base1 + tx;
    if (i0 < b.n0 && i1 < b.n1) tile[tx * kTilePitch + c] = read(i0, i1);
  }
}

template <class T, class Write>
ELSBENCH_HD void tile_scatter_columns(const T* tile, const TileBlock& b, int tx, int ty, Write write) {
  for (int c = ty; c < kTile; c += kTileRows) {
    const int i0 = b.base0 + c, i1 = b.base1 + tx;
    if (i0 < b.n0 && i1 < b.n1) write(i0, i1, tile[tx * kTilePitch + c]);
  }
}

// Tile (bx, by, layer) of the grid of tiles.
ELSBENCH_HD TileBlock tile_block(int bx, int by, int layer, int n0, int n1) {
  return {bx * kTile, by * kTile, layer, n0, n1};
}

}  // namespace elsbench::gpu
