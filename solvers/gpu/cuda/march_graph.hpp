#pragma once
// A CUDA graph of work recorded once from a stream and replayed many times. A march of 1000
// steps launches thousands of small kernels; launched one by one, the host's launch overhead
// (several microseconds each) would exceed the GPU time of a 200x200 step. Captured, the kernels
// of a replay go to the GPU as one launch.
#include <cuda_runtime_api.h>

#include <functional>

namespace elsbench::gpu {

// In checked mode (platform/cuda/cuda_check.hpp) nothing is captured: launch() calls `record`
// again, so that every kernel is launched, synchronised and checked under its own name.
class CapturedGraph {
 public:
  // Captures what `record` enqueues on `stream` (nothing runs), then instantiates it. If
  // `record` throws, the capture is ended and discarded before the exception goes on. `record`
  // is kept for checked mode: it must not refer to locals of the caller.
  CapturedGraph(cudaStream_t stream, std::function<void()> record);
  ~CapturedGraph();
  CapturedGraph(const CapturedGraph&) = delete;
  CapturedGraph& operator=(const CapturedGraph&) = delete;

  void launch(cudaStream_t stream) const;

 private:
  std::function<void()> record_;  // checked mode only
  cudaGraph_t graph_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
};

}  // namespace elsbench::gpu
