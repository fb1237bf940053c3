#include "solvers/adi_cusparse/cusparse_kernels.hpp"

#include "platform/cuda/cuda_check.hpp"

namespace elsbench::gpu {
namespace {

constexpr int kNodeThreads = 256;

// Writes the rhs value and matrix row of node (i0, i1, layer) at position `at`.
template <class T>
__device__ void put_row(const MarchArgs<T>& a, const GpuStep& s, int axis, const SystemArrays<T>& out,
                        long long at, int i0, int i1, T rhs) {
  out.rhs[at] = rhs;
  const int i = axis == 0 ? i0 : i1;
  const int n = axis == 0 ? a.grid.n0 : a.grid.n1;
  const Diagonals<T> row = implicit_row(a.grid.op[axis], i, n, static_cast<T>(s.w.theta_dt));
  out.dl[at] = row.dl;
  out.d[at] = row.d;
  out.du[at] = row.du;
}

// Systems already in our layout: one thread per node, every access coalesced.
template <class T>
__global__ void store_system_natural(MarchArgs<T> a, const int* step_base, int local, int axis, int round,
                                     SystemArrays<T> out) {
  const GpuStep* sp = current_step(a, step_base, local);
  if (!sp) return;
  const GridView<T>& g = a.grid;
  const long long v = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (v >= g.points * g.layers) return;
  const int layer = static_cast<int>(v / g.points);
  const long long node = v - layer * g.points;
  const int i1 = static_cast<int>(node / g.n0), i0 = static_cast<int>(node - static_cast<long long>(i1) * g.n0);
  const GpuStep s = *sp;
  put_row(a, s, axis, out, out.layout.index(i0, i1, layer), i0, i1, stage_rhs_at(a, s, axis, round, i0, i1, layer));
}

// Systems in a transposed layout: the rhs of a tile computed walking i0, written walking i1.
template <class T>
__global__ void store_system_tiled(MarchArgs<T> a, const int* step_base, int local, int axis, int round,
                                   SystemArrays<T> out) {
  __shared__ T tile[kTile * kTilePitch];
  const GpuStep* sp = current_step(a, step_base, local);
  if (!sp) return;  // the same for the whole block: no thread is left at the barrier
  const GridView<T>& g = a.grid;
  const GpuStep s = *sp;
  const TileBlock b = tile_block(static_cast<int>(blockIdx.x), static_cast<int>(blockIdx.y),
                                 static_cast<int>(blockIdx.z), g.n0, g.n1);
  const int tx = static_cast<int>(threadIdx.x), ty = static_cast<int>(threadIdx.y);
  tile_gather_rows(tile, b, tx, ty, [&](int i0, int i1) { return stage_rhs_at(a, s, axis, round, i0, i1, b.layer); });
  __syncthreads();
  tile_scatter_columns(tile, b, tx, ty, [&](int i0, int i1, T r) {
    put_row(a, s, axis, out, out.layout.index(i0, i1, b.layer), i0, i1, r);
  });
}

template <class T>
__global__ void untile(GridView<T> g, const T* src, SolveLayout layout, T* dest) {
  __shared__ T tile[kTile * kTilePitch];
  const TileBlock b = tile_block(static_cast<int>(blockIdx.x), static_cast<int>(blockIdx.y),
                                 static_cast<int>(blockIdx.z), g.n0, g.n1);
  const int tx = static_cast<int>(threadIdx.x), ty = static_cast<int>(threadIdx.y);
  tile_gather_columns(tile, b, tx, ty, [&](int i0, int i1) { return src[layout.index(i0, i1, b.layer)]; });
  __syncthreads();
  tile_scatter_rows(tile, b, tx, ty, [&](int i0, int i1, T x) { dest[g.index(i0, i1, b.layer)] = x; });
}

template <class T>
dim3 tile_grid(const GridView<T>& g) {
  return dim3(static_cast<unsigned>(ceil_div(g.n0, kTile)), static_cast<unsigned>(ceil_div(g.n1, kTile)),
              static_cast<unsigned>(g.layers));
}

}  // namespace

template <class T>
void launch_store_system(const MarchArgs<T>& a, const int* step_base, int local, int axis, int round,
                         const SystemArrays<T>& out, cudaStream_t stream) {
  if (out.natural) {
    const long long values = a.grid.points * a.grid.layers;
    const auto blocks = static_cast<unsigned>((values + kNodeThreads - 1) / kNodeThreads);
    store_system_natural<T><<<blocks, kNodeThreads, 0, stream>>>(a, step_base, local, axis, round, out);
    check_launch("store_system_natural");
  } else {
    store_system_tiled<T><<<tile_grid(a.grid), dim3(kTile, kTileRows), 0, stream>>>(a, step_base, local, axis, round,
                                                                                   out);
    check_launch("store_system_tiled");
  }
}

template <class T>
void launch_untile(const GridView<T>& g, const T* src, SolveLayout layout, T* dest, cudaStream_t stream) {
  untile<T><<<tile_grid(g), dim3(kTile, kTileRows), 0, stream>>>(g, src, layout, dest);
  check_launch("untile");
}

template void launch_store_system<double>(const MarchArgs<double>&, const int*, int, int, int,
                                          const SystemArrays<double>&, cudaStream_t);
template void launch_store_system<float>(const MarchArgs<float>&, const int*, int, int, int,
                                         const SystemArrays<float>&, cudaStream_t);
template void launch_untile<double>(const GridView<double>&, const double*, SolveLayout, double*, cudaStream_t);
template void launch_untile<float>(const GridView<float>&, const float*, SolveLayout, float*, cudaStream_t);

}  // namespace elsbench::gpu
