#pragma once
// The device copy of a march: the problem's 1-D operators, the factor tables of every theta dt,
// the per-node event weights, the step and event records, the three value buffers and the step
// counter that the graph replays advance. MarchArgs points into it; every kernel receives that.
//
// Device arrays (values = layers x nodes): 3 value buffers (3 x values), one per-node weight
// array per distinct event barrier (5 for the sample ELS: 4 autocall levels, the knock-in), and
// arrays of size n per axis (operators, factor tables) and per step (records).
#include <cuda_runtime_api.h>

#include <vector>

#include "platform/cuda/device_memory.hpp"
#include "solvers/gpu/kernels/stage_blocks.hpp"
#include "solvers/gpu/plan/gpu_plan.hpp"
#include "solvers/problem/problem.hpp"

namespace elsbench::gpu {

template <class T>
class DeviceMarchData {
 public:
  // factor_tables: the adi-cuda kernels need them; the cuSPARSE variants factor by themselves.
  DeviceMarchData(const Problem& pb, const GpuPlan& plan, DeviceAllocator& alloc, bool factor_tables);

  const MarchArgs<T>& args() const { return args_; }
  int* step_base() const { return step_base_.data(); }
  T* buffer(int i) const { return buffers_[i].data(); }
  // Payoff into buffer 0 (X of the first step) and the step counter to 0, in stream order.
  void reset(cudaStream_t stream);
  // Values of buffer i, layer 0 only or all layers, converted to double.
  std::vector<double> download(int i, bool all_layers) const;

 private:
  const GpuPlan& plan_;
  std::vector<T> initial_;
  DeviceArray<T> coefs_[2], tables_[2], buffers_[3];
  DeviceArray<T> weights_;
  DeviceArray<double> fractions_;  // per-axis fractions and lifts (MarchImage::fractions)
  DeviceArray<GpuStep> steps_;
  DeviceArray<GpuEvent> events_;
  DeviceArray<int> step_base_;
  MarchArgs<T> args_;
};

}  // namespace elsbench::gpu
