#include "platform/cuda/device_guard.hpp"

#include <cuda_runtime_api.h>

#include <string>

#include "platform/cuda/cuda_check.hpp"

namespace elsbench::gpu {

DeviceGuard::DeviceGuard(int device) {
  cuda_check(cudaGetDevice(&previous_), "cudaGetDevice");
  if (previous_ != device) cuda_check(cudaSetDevice(device), "cudaSetDevice(" + std::to_string(device) + ")");
}

DeviceGuard::~DeviceGuard() {
  int now = -1;
  if (cudaGetDevice(&now) == cudaSuccess && now != previous_) cudaSetDevice(previous_);
}

}  // namespace elsbench::gpu
