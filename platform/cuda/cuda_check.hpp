#pragma once
// Every CUDA runtime call of the GPU variants goes through cuda_check, so that a failure is an
// exception naming the call and CUDA's message, never a crash or a silently wrong price.
#include <cuda_runtime_api.h>

#include <string>

namespace elsbench::gpu {

// Throws std::runtime_error("<what>: <CUDA error name>: <message>") unless err is cudaSuccess.
void cuda_check(cudaError_t err, const std::string& what);
// The error of the last kernel launch (cudaGetLastError), checked the same way.
void check_launch(const char* kernel);

}  // namespace elsbench::gpu
