#include "platform/cuda/cuda_handles.hpp"

#include "platform/cuda/cuda_check.hpp"

namespace elsbench::gpu {

CudaStream::CudaStream() { cuda_check(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreate"); }

CudaStream::~CudaStream() {
  if (stream_) cudaStreamDestroy(stream_);
}

void CudaStream::synchronize() const { cuda_check(cudaStreamSynchronize(stream_), "cudaStreamSynchronize"); }

DeviceTimer::DeviceTimer() {
  cuda_check(cudaEventCreate(&start_), "cudaEventCreate");
  const cudaError_t err = cudaEventCreate(&stop_);
  if (err != cudaSuccess) cudaEventDestroy(start_);
  cuda_check(err, "cudaEventCreate");
}

DeviceTimer::~DeviceTimer() {
  cudaEventDestroy(start_);
  cudaEventDestroy(stop_);
}

void DeviceTimer::start(cudaStream_t s) { cuda_check(cudaEventRecord(start_, s), "cudaEventRecord(start)"); }
void DeviceTimer::stop(cudaStream_t s) { cuda_check(cudaEventRecord(stop_, s), "cudaEventRecord(stop)"); }

double DeviceTimer::seconds() const {
  cuda_check(cudaEventSynchronize(stop_), "cudaEventSynchronize");
  float ms = 0;
  cuda_check(cudaEventElapsedTime(&ms, start_, stop_), "cudaEventElapsedTime");
  return static_cast<double>(ms) * 1e-3;
}

}  // namespace elsbench::gpu
