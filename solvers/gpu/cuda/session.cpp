// GpuMarchSession with CUDA: picks the device, plans the march, and hands it to the variant's
// backend (the factory its registration declared).
#include "solvers/gpu/session.hpp"

#include <cuda_runtime_api.h>

#include "platform/cuda/cuda_check.hpp"
#include "platform/solver_error.hpp"
#include "solvers/gpu/cuda/march_backend.hpp"

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

}  // namespace

struct GpuMarchSession::Impl {
  GpuInfo device;
  gpu::GpuPlan plan;
  gpu::DeviceAllocator alloc;                     // outlives the backend's arrays
  std::unique_ptr<gpu::MarchBackend> backend;
};

GpuMarchSession::GpuMarchSession(const GpuBackends& backends, const Problem& pb, const AdiScheme& scheme,
                                 int device, Precision precision)
    : impl_(std::make_unique<Impl>()) {
  const GpuBackendFactory make = precision == Precision::FP64 ? backends.fp64 : backends.fp32;
  if (!make) throw std::logic_error("GpuMarchSession: the variant declares no backend in this precision");
  impl_->device = select_device(device);
  impl_->plan = gpu::make_gpu_plan(pb, scheme);
  impl_->backend = make(pb, impl_->plan, impl_->alloc);
}

GpuMarchSession::~GpuMarchSession() = default;

double GpuMarchSession::march() { return impl_->backend->march(); }

std::vector<double> GpuMarchSession::values(bool all_layers) const { return impl_->backend->values(all_layers); }

const gpu::GpuPlan& GpuMarchSession::plan() const { return impl_->plan; }

std::size_t GpuMarchSession::peak_device_bytes() const { return impl_->alloc.peak(); }

const GpuInfo& GpuMarchSession::device() const { return impl_->device; }

std::vector<std::string> GpuMarchSession::notes() const { return impl_->backend->notes(); }

}  // namespace elsbench
