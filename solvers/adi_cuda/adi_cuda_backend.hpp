#pragma once
// The adi-cuda march backend (adi_cuda_march.cpp), as its registration declares it.
#include <memory>

#include "solvers/gpu/cuda/march_backend.hpp"

namespace elsbench::gpu {

template <class T>
std::unique_ptr<MarchBackend> make_adi_cuda_backend(const Problem& pb, const GpuPlan& plan, DeviceAllocator& alloc);

}  // namespace elsbench::gpu
