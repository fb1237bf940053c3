#pragma once
// Whether a GPU suite or benchmark runs, skips or fails. It skips only when this machine has no
// GPU at all (no CUDA in the build, no driver, no device); any other CUDA failure (a driver too old
// for the toolkit, a device in a bad state) is a failure with CUDA's reason, never a skip, and
// ELSBENCH_REQUIRE_GPU=1 (a run on a machine that has a GPU) turns every skip into a failure.
#include <string>

#include "platform/cuda_devices.hpp"

namespace elsbench {

enum class GpuGate { Run, Skip, Fail };

struct GpuGateDecision {
  GpuGate gate = GpuGate::Run;
  std::string reason;  // why it skips or fails
};

GpuGateDecision gpu_gate(const CudaProbe& probe, bool require_gpu);
// ELSBENCH_REQUIRE_GPU set to 1 in the environment.
bool gpu_required();

// For a main(): prints `who`'s decision on this machine and returns the exit code to leave with
// (`skip_code` for a skip, 1 for a failure), or -1 when it should run.
int gpu_gate_exit_code(const std::string& who, int skip_code);

}  // namespace elsbench
