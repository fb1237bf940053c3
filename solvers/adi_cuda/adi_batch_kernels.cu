// The batched adi-cuda kernels: the block programs of solvers/gpu/kernels/stage_blocks.hpp, each
// block on the note that kernels/batch_blocks.hpp locates for it. The phases and barriers are
// those of adi_kernels.cu's one-note kernels.
#include "solvers/adi_cuda/adi_batch_kernels.hpp"

#include "solvers/adi_cuda/stage_kernel_support.cuh"

namespace elsbench::gpu {
namespace {

// A launch may hold more threads than a note's block needs (the batch's most): the others only
// take part in the barriers.
template <class T>
__global__ void __launch_bounds__(kMaxStageThreads, kMinStageBlocksPerSm) batch_axis0_stage(BatchArgs<T> b, int j, int round) {
  const BatchBlock<T> at = batch_stage_block(b, 0, static_cast<long long>(blockIdx.x), j, round);
  if (!at.step) return;  // the same for the whole block
  const GpuStep s = *at.step;
  const StageLayout l = *at.l;
  const Axis0Block<T> blk{*at.a, l, s, round, at.block, shared_values<T>()};
  const int tid = static_cast<int>(threadIdx.x);
  const bool mine = tid < l.threads;
  if (mine) blk.phase_rhs(tid);
  __syncthreads();
  if (mine) blk.phase_sums(tid);
  __syncthreads();
  if (mine) block_carries<T>(blk, blk.lines_here(), l);
  __syncthreads();
  if (mine) blk.phase_solve(tid);
  __syncthreads();
  if (mine) blk.phase_store(tid);
}

template <class T>
__global__ void __launch_bounds__(kMaxStageThreads, kMinStageBlocksPerSm) batch_axis1_stage(BatchArgs<T> b, int j, int round) {
  const BatchBlock<T> at = batch_stage_block(b, 1, static_cast<long long>(blockIdx.x), j, round);
  if (!at.step) return;
  const GpuStep s = *at.step;
  const StageLayout l = *at.l;
  const Axis1Block<T> blk{*at.a, l, s, round, at.block, shared_values<T>()};
  const int tid = static_cast<int>(threadIdx.x);
  const bool mine = tid < l.threads;
  if (mine) blk.phase_rhs(tid);
  __syncthreads();
  if (mine) blk.phase_sums(tid);
  __syncthreads();
  if (mine) block_carries<T>(blk, blk.lines_here(), l);
  __syncthreads();
  if (mine) blk.phase_solve(tid);
}

template <class T>
__global__ void batch_step_events(BatchArgs<T> b, int j, bool lifts) {
  batch_events_at(b, static_cast<long long>(blockIdx.x), static_cast<int>(threadIdx.x), j, lifts);
}

}  // namespace

template <class T>
void prepare_batch_kernels(std::size_t smem0, std::size_t smem1) {
  allow_shared(batch_axis0_stage<T>, smem0, "batch_axis0_stage");
  if (smem1 > 0) allow_shared(batch_axis1_stage<T>, smem1, "batch_axis1_stage");
}

template <class T>
void launch_batch_stage(const BatchArgs<T>& b, int axis, long long blocks, int threads, std::size_t smem, int j,
                        int round, cudaStream_t stream) {
  const auto grid = static_cast<unsigned>(blocks);
  if (axis == 0) {
    batch_axis0_stage<T><<<grid, threads, smem, stream>>>(b, j, round);
    check_launch("batch_axis0_stage");
  } else {
    batch_axis1_stage<T><<<grid, threads, smem, stream>>>(b, j, round);
    check_launch("batch_axis1_stage");
  }
}

template <class T>
void launch_batch_events(const BatchArgs<T>& b, long long blocks, int j, cudaStream_t stream, bool lifts) {
  batch_step_events<T><<<static_cast<unsigned>(blocks), kEventThreads, 0, stream>>>(b, j, lifts);
  check_launch("batch_step_events");
}

#define ELSBENCH_INSTANTIATE(T)                                                                             \
  template void prepare_batch_kernels<T>(std::size_t, std::size_t);                                         \
  template void launch_batch_stage<T>(const BatchArgs<T>&, int, long long, int, std::size_t, int, int,      \
                                      cudaStream_t);                                                        \
  template void launch_batch_events<T>(const BatchArgs<T>&, long long, int, cudaStream_t, bool);
ELSBENCH_INSTANTIATE(double)
ELSBENCH_INSTANTIATE(float)
#undef ELSBENCH_INSTANTIATE

}  // namespace elsbench::gpu
