#pragma once
// The two cuSPARSE march backends (cusparse_march.cpp), as their registrations declare them.
#include <memory>

#include "solvers/gpu/cuda/march_backend.hpp"

namespace elsbench::gpu {

// gtsv2StridedBatch for the implicit stages.
template <class T>
std::unique_ptr<MarchBackend> make_cusparse_strided_backend(const Problem& pb, const GpuPlan& plan,
                                                            DeviceAllocator& alloc);
// gtsvInterleavedBatch for the implicit stages.
template <class T>
std::unique_ptr<MarchBackend> make_cusparse_interleaved_backend(const Problem& pb, const GpuPlan& plan,
                                                                DeviceAllocator& alloc);

}  // namespace elsbench::gpu
