#pragma once
// Launchers of the adi-cuda kernels (adi_kernels.cu). Each kernel finds its time step at
// steps[*step_base + local]: the march is captured once as a CUDA graph of a few steps whose
// kernels differ only in `local`, and the graph is replayed with step_base advanced on the device
// (march_graph.hpp). Round-2 kernels return at once on steps of a one-round scheme (the damped
// steps), and every kernel returns past the last step.
#include <cuda_runtime_api.h>

#include <cstddef>

#include "solvers/gpu/kernels/stage_blocks.hpp"

namespace elsbench::gpu {

// The shared memory a block may use on the current device when its kernel opts in: the limit
// the stage layouts are chosen under (stage_layout's smem_limit).
std::size_t stage_smem_limit();

// Sets the kernels' dynamic shared memory limits for these layouts on the current device;
// throws SolverError(Unsupported) when a line is too long for the device's shared memory.
template <class T>
void prepare_stage_kernels(const StageLayout& axis0, const StageLayout* axis1);

template <class T>
void launch_axis0_stage(const MarchArgs<T>& a, const StageLayout& l, const int* step_base, int local,
                        int round, cudaStream_t stream);
template <class T>
void launch_axis1_stage(const MarchArgs<T>& a, const StageLayout& l, const int* step_base, int local,
                        int round, cudaStream_t stream);

}  // namespace elsbench::gpu
