#pragma once
// Owned CUDA runtime handles: a stream, and a pair of events that times device work.
#include <cuda_runtime_api.h>

namespace elsbench::gpu {

class CudaStream {
 public:
  CudaStream();
  ~CudaStream();
  CudaStream(const CudaStream&) = delete;
  CudaStream& operator=(const CudaStream&) = delete;
  cudaStream_t get() const { return stream_; }
  void synchronize() const;

 private:
  cudaStream_t stream_ = nullptr;
};

// Device time between start() and stop() on one stream, measured with CUDA events: what the GPU
// spent, free of the host's launch and synchronisation overheads.
class DeviceTimer {
 public:
  DeviceTimer();
  ~DeviceTimer();
  DeviceTimer(const DeviceTimer&) = delete;
  DeviceTimer& operator=(const DeviceTimer&) = delete;
  void start(cudaStream_t s);
  void stop(cudaStream_t s);
  double seconds() const;  // waits for the stop event

 private:
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
};

}  // namespace elsbench::gpu
