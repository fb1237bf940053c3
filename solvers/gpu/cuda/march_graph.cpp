#include "solvers/gpu/cuda/march_graph.hpp"

#include <utility>

#include "platform/cuda/cuda_check.hpp"

namespace elsbench::gpu {

CapturedGraph::CapturedGraph(cudaStream_t stream, std::function<void()> record) {
  if (checked_launches()) {
    record_ = std::move(record);
    return;
  }
  // Thread-local mode: other threads of the process (a parallel sweep) may keep using CUDA.
  cuda_check(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal), "cudaStreamBeginCapture");
  try {
    record();
  } catch (...) {
    cudaGraph_t partial = nullptr;
    cudaStreamEndCapture(stream, &partial);
    if (partial) cudaGraphDestroy(partial);
    (void)cudaGetLastError();
    throw;
  }
  cuda_check(cudaStreamEndCapture(stream, &graph_), "cudaStreamEndCapture");
  const cudaError_t err = cudaGraphInstantiate(&exec_, graph_, 0);
  if (err != cudaSuccess) {
    cudaGraphDestroy(graph_);
    graph_ = nullptr;
    cuda_check(err, "cudaGraphInstantiate");
  }
}

CapturedGraph::~CapturedGraph() {
  if (exec_) cudaGraphExecDestroy(exec_);
  if (graph_) cudaGraphDestroy(graph_);
}

void CapturedGraph::launch(cudaStream_t stream) const {
  if (record_) {
    record_();
    return;
  }
  cuda_check(cudaGraphLaunch(exec_, stream), "cudaGraphLaunch");
}

}  // namespace elsbench::gpu
