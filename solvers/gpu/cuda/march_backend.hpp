#pragma once
// What a GPU variant implements behind GpuMarchSession: one march from the payoff, and the
// values it ends with. The session owns the device allocator the backend allocates from. A
// variant's folder defines the factories its registration declares (GpuBackends).
#include <string>
#include <vector>

#include "platform/cuda/device_memory.hpp"
#include "solvers/gpu/plan/gpu_plan.hpp"
#include "solvers/problem/problem.hpp"

namespace elsbench::gpu {

class MarchBackend {
 public:
  virtual ~MarchBackend() = default;
  virtual double march() = 0;  // device seconds
  virtual std::vector<double> values(bool all_layers) const = 0;
  virtual std::vector<std::string> notes() const { return {}; }
};

}  // namespace elsbench::gpu
