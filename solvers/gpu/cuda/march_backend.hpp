#pragma once
// What a GPU variant implements behind GpuMarchSession: one march from the payoff, and the
// values it ends with. The session owns the device allocator the backend allocates from.
#include <memory>
#include <string>
#include <vector>

#include "platform/cuda/device_memory.hpp"
#include "solvers/gpu/plan/gpu_plan.hpp"
#include "solvers/problem/problem.hpp"

namespace elsbench::gpu {

class GpuMarchBackend {
 public:
  virtual ~GpuMarchBackend() = default;
  virtual double march() = 0;  // device seconds
  virtual std::vector<double> values(bool all_layers) const = 0;
  virtual std::vector<std::string> notes() const { return {}; }
};

template <class T>
std::unique_ptr<GpuMarchBackend> make_adi_cuda_backend(const Problem& pb, const GpuPlan& plan,
                                                       DeviceAllocator& alloc);
template <class T>
std::unique_ptr<GpuMarchBackend> make_cusparse_backend(const Problem& pb, const GpuPlan& plan,
                                                       DeviceAllocator& alloc, bool interleaved);

}  // namespace elsbench::gpu
