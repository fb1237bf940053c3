#include "platform/gpu_gate.hpp"

#include <cstdlib>
#include <cstring>
#include <iostream>

namespace elsbench {

GpuGateDecision gpu_gate(const CudaProbe& probe, bool require_gpu) {
  switch (probe.presence) {
    case CudaPresence::Devices: return {GpuGate::Run, {}};
    case CudaPresence::Broken: return {GpuGate::Fail, probe.reason};
    case CudaPresence::NotBuilt:
    case CudaPresence::NoDriver:
    case CudaPresence::NoDevice:
      if (require_gpu) return {GpuGate::Fail, probe.reason + ", and ELSBENCH_REQUIRE_GPU=1 requires a GPU"};
      return {GpuGate::Skip, probe.reason};
  }
  return {GpuGate::Fail, "unknown CUDA presence"};
}

bool gpu_required() {
  const char* v = std::getenv("ELSBENCH_REQUIRE_GPU");
  return v && std::strcmp(v, "1") == 0;
}

int gpu_gate_exit_code(const std::string& who, int skip_code) {
  const GpuGateDecision d = gpu_gate(probe_cuda(), gpu_required());
  switch (d.gate) {
    case GpuGate::Run: return -1;
    case GpuGate::Skip: std::cout << who << ": skipped: " << d.reason << "\n"; return skip_code;
    case GpuGate::Fail: std::cerr << who << ": FAILED: " << d.reason << "\n"; return 1;
  }
  return 1;
}

}  // namespace elsbench
