#include "platform/cuda/device_memory.hpp"

#include <cuda_runtime_api.h>

#include <sstream>

#include "platform/cuda/cuda_check.hpp"
#include "platform/solver_error.hpp"

namespace elsbench::gpu {

void* DeviceAllocator::allocate(std::size_t bytes, const std::string& what) {
  if (bytes == 0) bytes = 1;  // keep a distinct, valid pointer for empty arrays
  void* p = nullptr;
  const cudaError_t err = cudaMalloc(&p, bytes);
  if (err == cudaErrorMemoryAllocation) {
    (void)cudaGetLastError();  // clear the error so the device stays usable
    std::size_t free_b = 0, total_b = 0;
    cudaMemGetInfo(&free_b, &total_b);
    std::ostringstream msg;
    msg << "out of device memory: cudaMalloc of " << bytes << " bytes for " << what << " failed ("
        << free_b << " of " << total_b << " bytes free; this march already holds " << current_ << ")";
    throw SolverError(SolverError::Kind::OutOfMemory, msg.str());
  }
  cuda_check(err, "cudaMalloc of " + std::to_string(bytes) + " bytes for " + what);
  current_ += bytes;
  if (current_ > peak_) peak_ = current_;
  return p;
}

void DeviceAllocator::release(void* p, std::size_t bytes) noexcept {
  if (!p) return;
  cudaFree(p);
  if (bytes == 0) bytes = 1;
  current_ -= bytes;
}

// cudaMemcpy from pageable memory returns once the data is staged, before it reaches the device,
// and it runs on the legacy stream, which a march's non-blocking stream does not wait for: the
// device is synchronised, so that no kernel launched after an upload can read the array before it
// arrives. Uploads happen once per session, not per step.
void copy_to_device(void* dst, const void* src, std::size_t bytes, const std::string& what) {
  cuda_check(cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice), what);
  cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize after " + what);
}

void copy_to_device_unsynchronised(void* dst, const void* src, std::size_t bytes, const std::string& what) {
  cuda_check(cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice), what);
}

void copy_to_device_on(cudaStream_t stream, void* dst, const void* src, std::size_t bytes, const std::string& what) {
  cuda_check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, stream), what);
}

void copy_to_host(void* dst, const void* src, std::size_t bytes, const std::string& what) {
  cuda_check(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToHost), what);
}

}  // namespace elsbench::gpu
