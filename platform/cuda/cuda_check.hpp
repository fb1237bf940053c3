#pragma once
// Every CUDA runtime call of the GPU variants goes through cuda_check, so that a failure is an
// exception naming the call and CUDA's message, never a crash or a silently wrong price.
#include <cuda_runtime_api.h>

#include <string>

namespace elsbench::gpu {

// Throws std::runtime_error("<what>: <CUDA error name>: <message>") unless err is cudaSuccess;
// SolverError(DeviceFault) when the error is sticky (the context is lost for the process).
void cuda_check(cudaError_t err, const std::string& what);
// The error of the last kernel launch (cudaGetLastError), checked the same way. In checked mode
// it also waits for the kernel to finish, so that a fault in it (an illegal address, a trap) is
// reported under its name instead of at a later synchronisation.
void check_launch(const char* kernel);
// Checked mode: ELSBENCH_CUDA_CHECKED=1 in the environment. Slow (one synchronisation per launch,
// no CUDA graphs: march_graph.hpp replays the recorded launches eagerly); for finding a fault.
bool checked_launches();
// Whether `err` leaves the CUDA context unusable: every later call of the process fails with it.
bool sticky_error(cudaError_t err);

}  // namespace elsbench::gpu
