#include "platform/cuda/cuda_check.hpp"

#include <cstdlib>
#include <stdexcept>

#include "platform/solver_error.hpp"

namespace elsbench::gpu {

bool sticky_error(cudaError_t err) {
  switch (err) {
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchFailure:
    case cudaErrorHardwareStackError:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorAssert:
    case cudaErrorECCUncorrectable:
    case cudaErrorLaunchTimeout:
    case cudaErrorUnknown:
      return true;
    default:
      return false;
  }
}

void cuda_check(cudaError_t err, const std::string& what) {
  if (err == cudaSuccess) return;
  const std::string message = what + " failed: " + cudaGetErrorName(err) + ": " + cudaGetErrorString(err);
  if (sticky_error(err))
    throw SolverError(SolverError::Kind::DeviceFault, message + " (the CUDA context is unusable from now on)");
  throw std::runtime_error(message);
}

void check_launch(const char* kernel) {
  cuda_check(cudaGetLastError(), std::string("launch of kernel ") + kernel);
  if (checked_launches()) cuda_check(cudaDeviceSynchronize(), std::string("kernel ") + kernel + " (checked mode)");
}

bool checked_launches() {
  static const bool on = [] {
    const char* v = std::getenv("ELSBENCH_CUDA_CHECKED");
    return v && std::string(v) == "1";
  }();
  return on;
}

}  // namespace elsbench::gpu
