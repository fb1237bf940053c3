// GpuMarchSession with CUDA: picks the device, plans the march, and hands it to the variant's
// backend (adi_cuda_march.cpp, ../cusparse/cusparse_march.cpp).
#include "solvers/gpu/session.hpp"

#include <cuda_runtime_api.h>

#include "platform/cuda/cuda_check.hpp"
#include "solvers/gpu/cuda/march_backend.hpp"
#include "solvers/problem/solver_error.hpp"

namespace elsbench {
namespace {

// The device `index` as GpuInfo, made current; a clear error when it does not exist.
GpuInfo select_device(int index) {
  std::string why;
  const std::vector<GpuInfo> devices = cuda_devices(&why);
  if (devices.empty()) throw SolverError(SolverError::Kind::Unavailable, "no usable CUDA device: " + why);
  if (index < 0 || index >= static_cast<int>(devices.size()))
    throw SolverError(SolverError::Kind::Unavailable,
                      "CUDA device cuda:" + std::to_string(index) + " does not exist: this machine has " +
                          std::to_string(devices.size()) + " CUDA device(s) (cuda:0" +
                          (devices.size() > 1 ? " to cuda:" + std::to_string(devices.size() - 1) : "") + ")");
  gpu::cuda_check(cudaSetDevice(index), "cudaSetDevice(" + std::to_string(index) + ")");
  return devices[static_cast<std::size_t>(index)];
}

template <class T>
std::unique_ptr<gpu::GpuMarchBackend> make_backend(GpuVariant v, const Problem& pb, const gpu::GpuPlan& plan,
                                                   gpu::DeviceAllocator& alloc) {
  switch (v) {
    case GpuVariant::AdiCuda: return gpu::make_adi_cuda_backend<T>(pb, plan, alloc);
    case GpuVariant::CusparseStrided: return gpu::make_cusparse_backend<T>(pb, plan, alloc, false);
    case GpuVariant::CusparseInterleaved: return gpu::make_cusparse_backend<T>(pb, plan, alloc, true);
  }
  throw std::logic_error("unknown GPU variant");
}

}  // namespace

struct GpuMarchSession::Impl {
  GpuInfo device;
  gpu::GpuPlan plan;
  gpu::DeviceAllocator alloc;                     // outlives the backend's arrays
  std::unique_ptr<gpu::GpuMarchBackend> backend;
};

GpuMarchSession::GpuMarchSession(GpuVariant variant, const Problem& pb, const AdiScheme& scheme, int device,
                                 Precision precision)
    : impl_(std::make_unique<Impl>()) {
  impl_->device = select_device(device);
  impl_->plan = gpu::make_gpu_plan(pb, scheme);
  impl_->backend = precision == Precision::FP64 ? make_backend<double>(variant, pb, impl_->plan, impl_->alloc)
                                                : make_backend<float>(variant, pb, impl_->plan, impl_->alloc);
}

GpuMarchSession::~GpuMarchSession() = default;

double GpuMarchSession::march() { return impl_->backend->march(); }

std::vector<double> GpuMarchSession::values(bool all_layers) const { return impl_->backend->values(all_layers); }

const gpu::GpuPlan& GpuMarchSession::plan() const { return impl_->plan; }

std::size_t GpuMarchSession::peak_device_bytes() const { return impl_->alloc.peak(); }

const GpuInfo& GpuMarchSession::device() const { return impl_->device; }

std::vector<std::string> GpuMarchSession::notes() const { return impl_->backend->notes(); }

}  // namespace elsbench
