#pragma once
// Launchers of the batched adi-cuda kernels (adi_batch_kernels.cu): one launch per stage of step j
// covers the blocks of every note of a batch (solvers/gpu/plan/gpu_batch.hpp); each block finds its
// note (kernels/batch_blocks.hpp) and runs the one-note block programs of stage_blocks.hpp. A note
// past its last step, or on a one-round step in round 2, returns at once.
#include <cuda_runtime_api.h>

#include <cstddef>

#include "solvers/gpu/kernels/batch_blocks.hpp"

namespace elsbench::gpu {

// Sets the batched kernels' dynamic shared memory limits; throws SolverError(Unsupported) when a
// note's line is too long for the device's shared memory. smem1 = 0: no 2-D note in the batch.
template <class T>
void prepare_batch_kernels(std::size_t smem0, std::size_t smem1);

template <class T>
void launch_batch_stage(const BatchArgs<T>& b, int axis, long long blocks, int threads, std::size_t smem, int j,
                        int round, cudaStream_t stream);
// Step j's event actions, or with `lifts` their centroid autocalls' lifts (a launch before).
template <class T>
void launch_batch_events(const BatchArgs<T>& b, long long blocks, int j, cudaStream_t stream, bool lifts = false);

}  // namespace elsbench::gpu
