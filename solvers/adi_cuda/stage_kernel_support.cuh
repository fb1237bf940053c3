#pragma once
// What the one-note and the batched adi-cuda stage kernels share (adi_kernels.cu,
// adi_batch_kernels.cu): the block's dynamic shared memory, the carry scans of its lines, and the
// dynamic shared memory limit a kernel needs set on the current device.
#include <sstream>
#include <string>

#include "platform/cuda/cuda_check.hpp"
#include "platform/solver_error.hpp"
#include "solvers/adi_cuda/adi_kernels.hpp"
#include "solvers/gpu/kernels/stage_blocks.hpp"

namespace elsbench::gpu {

template <class T>
__device__ T* shared_values() {
  extern __shared__ __align__(16) unsigned char smem_raw[];
  return reinterpret_cast<T*>(smem_raw);
}

// Every line of the block gets its carries from one warp; lines are dealt to warps in turn.
template <class T, class Block>
__device__ void block_carries(const Block& blk, int lines, const StageLayout& l) {
  const int warp = static_cast<int>(threadIdx.x) / kWarp, lane = static_cast<int>(threadIdx.x) % kWarp;
  const ChunkTable<T> t = blk.table();
  for (int li = warp; li < lines; li += l.threads / kWarp) warp_carries(blk.z(li), blk.v(li), t, ShuffleWarp{lane});
}

template <class Kernel>
void allow_shared(Kernel kernel, std::size_t bytes, const char* name) {
  const std::size_t optin = stage_smem_limit();
  if (bytes > optin) {
    std::ostringstream msg;
    msg << "kernel " << name << " needs " << bytes << " bytes of shared memory per block; this GPU "
        << "allows " << optin << ": the grid is too large along one axis for adi-cuda";
    throw SolverError(SolverError::Kind::Unsupported, msg.str());
  }
  cuda_check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)),
             std::string("cudaFuncSetAttribute(") + name + ", MaxDynamicSharedMemorySize)");
}

}  // namespace elsbench::gpu
