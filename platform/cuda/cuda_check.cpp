#include "platform/cuda/cuda_check.hpp"

#include <stdexcept>

namespace elsbench::gpu {

void cuda_check(cudaError_t err, const std::string& what) {
  if (err == cudaSuccess) return;
  throw std::runtime_error(what + " failed: " + cudaGetErrorName(err) + ": " + cudaGetErrorString(err));
}

void check_launch(const char* kernel) {
  cuda_check(cudaGetLastError(), std::string("launch of kernel ") + kernel);
}

}  // namespace elsbench::gpu
