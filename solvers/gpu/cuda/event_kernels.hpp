#pragma once
// The event kernel every GPU variant runs after a step's implicit stages: the step's actions
// (autocall resets, knock-in copies, the continuous projection), one thread per node, read from
// the device step records like the stage kernels (march_graph.hpp).
#include <cuda_runtime_api.h>

#include "solvers/gpu/kernels/stage_blocks.hpp"

namespace elsbench::gpu {

// `lifts`: instead of the actions, the lifts of a centroid autocall among them (a launch before).
template <class T>
void launch_step_events(const MarchArgs<T>& a, int blocks, const int* step_base, int local, cudaStream_t stream,
                        bool lifts = false);

}  // namespace elsbench::gpu
