#pragma once
// The device step counter of a captured march: kernels find their step at
// steps[*step_base + local], and after the steps of one graph replay one tiny kernel advances it,
// so that the same graph serves every group of steps (march_graph.hpp).
#include <cuda_runtime_api.h>

namespace elsbench::gpu {

// *step_base += by, on `stream`.
void launch_advance_steps(int* step_base, int by, cudaStream_t stream);

}  // namespace elsbench::gpu
