// The adi-cuda kernels: thin wrappers that run the block programs of solvers/gpu/kernels/stage_blocks.hpp
// between barriers. The arithmetic and the index computations live there, shared with the CPU
// emulation that the unit tests run.
#include "solvers/adi_cuda/adi_kernels.hpp"

#include "solvers/adi_cuda/stage_kernel_support.cuh"

namespace elsbench::gpu {
namespace {

// __launch_bounds__: blocks of up to kMaxStageThreads threads (the layouts never ask for more),
// registers capped so that kMinStageBlocksPerSm such blocks share an SM (gpu_plan.hpp).
template <class T>
__global__ void __launch_bounds__(kMaxStageThreads, kMinStageBlocksPerSm) axis0_stage(MarchArgs<T> a, StageLayout l, const int* step_base, int local, int round) {
  const GpuStep* sp = current_step(a, step_base, local);
  if (!sp || (round == 2 && !sp->two_rounds())) return;  // the same for the whole block
  const GpuStep s = *sp;
  const Axis0Block<T> blk{a, l, s, round, static_cast<int>(blockIdx.x), shared_values<T>()};
  const int tid = static_cast<int>(threadIdx.x);
  blk.phase_rhs(tid);
  __syncthreads();
  blk.phase_sums(tid);
  __syncthreads();
  block_carries<T>(blk, blk.lines_here(), l);
  __syncthreads();
  blk.phase_solve(tid);
  __syncthreads();
  blk.phase_store(tid);
}

template <class T>
__global__ void __launch_bounds__(kMaxStageThreads, kMinStageBlocksPerSm) axis1_stage(MarchArgs<T> a, StageLayout l, const int* step_base, int local, int round) {
  const GpuStep* sp = current_step(a, step_base, local);
  if (!sp || (round == 2 && !sp->two_rounds())) return;
  const GpuStep s = *sp;
  const Axis1Block<T> blk{a, l, s, round, static_cast<int>(blockIdx.x), shared_values<T>()};
  const int tid = static_cast<int>(threadIdx.x);
  blk.phase_rhs(tid);
  __syncthreads();
  blk.phase_sums(tid);
  __syncthreads();
  // Lines past the edge of the mesh (last block) have no carries to compute.
  block_carries<T>(blk, blk.lines_here(), l);
  __syncthreads();
  blk.phase_solve(tid);
}

}  // namespace

std::size_t stage_smem_limit() {
  int device = 0, optin = 0;
  cuda_check(cudaGetDevice(&device), "cudaGetDevice");
  cuda_check(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device),
             "cudaDeviceGetAttribute(MaxSharedMemoryPerBlockOptin)");
  return static_cast<std::size_t>(optin);
}

template <class T>
void prepare_stage_kernels(const StageLayout& axis0, const StageLayout* axis1) {
  allow_shared(axis0_stage<T>, axis0.smem_bytes, "axis0_stage");
  if (axis1) allow_shared(axis1_stage<T>, axis1->smem_bytes, "axis1_stage");
}

template <class T>
void launch_axis0_stage(const MarchArgs<T>& a, const StageLayout& l, const int* step_base, int local,
                        int round, cudaStream_t stream) {
  axis0_stage<T><<<l.blocks, l.threads, l.smem_bytes, stream>>>(a, l, step_base, local, round);
  check_launch("axis0_stage");
}

template <class T>
void launch_axis1_stage(const MarchArgs<T>& a, const StageLayout& l, const int* step_base, int local,
                        int round, cudaStream_t stream) {
  axis1_stage<T><<<l.blocks, l.threads, l.smem_bytes, stream>>>(a, l, step_base, local, round);
  check_launch("axis1_stage");
}

#define ELSBENCH_INSTANTIATE(T)                                                                   \
  template void prepare_stage_kernels<T>(const StageLayout&, const StageLayout*);                 \
  template void launch_axis0_stage<T>(const MarchArgs<T>&, const StageLayout&, const int*, int,   \
                                      int, cudaStream_t);                                         \
  template void launch_axis1_stage<T>(const MarchArgs<T>&, const StageLayout&, const int*, int,   \
                                      int, cudaStream_t);
ELSBENCH_INSTANTIATE(double)
ELSBENCH_INSTANTIATE(float)
#undef ELSBENCH_INSTANTIATE

}  // namespace elsbench::gpu
