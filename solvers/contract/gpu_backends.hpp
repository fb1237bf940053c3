#pragma once
// A GPU variant's march backend, as its registration declares it: one factory per precision.
// Host code that never sees CUDA holds these as plain function pointers (solvers/gpu/session.hpp
// runs them); the factories themselves are compiled by nvcc in the variant's folder.
#include <memory>

namespace elsbench {

struct Problem;
namespace gpu {
class MarchBackend;
class DeviceAllocator;
struct GpuPlan;
}  // namespace gpu

using GpuBackendFactory = std::unique_ptr<gpu::MarchBackend> (*)(const Problem&, const gpu::GpuPlan&,
                                                                 gpu::DeviceAllocator&);

struct GpuBackends {
  GpuBackendFactory fp64 = nullptr;
  GpuBackendFactory fp32 = nullptr;
  explicit operator bool() const { return fp64 != nullptr; }
};

}  // namespace elsbench
