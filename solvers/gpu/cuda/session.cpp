// GpuMarchSession with CUDA: picks the device, plans the march, and hands it to the variant's
// backend (the factory its registration declared).
#include "solvers/gpu/session.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>

#include "platform/cuda/cuda_check.hpp"
#include "platform/cuda/device_guard.hpp"
#include "platform/solver_error.hpp"
#include "solvers/gpu/cuda/march_backend.hpp"

namespace elsbench {
namespace {

// The device `index` (CUDA's numbering) as GpuInfo; a clear error when it does not exist or its
// properties cannot be read.
GpuInfo select_device(int index) {
  std::string why;
  const std::vector<GpuInfo> devices = cuda_devices(&why);
  if (devices.empty()) throw SolverError(SolverError::Kind::Unavailable, "no usable CUDA device: " + why);
  if (index < 0 || index >= static_cast<int>(devices.size()))
    throw SolverError(SolverError::Kind::Unavailable,
                      "CUDA device cuda:" + std::to_string(index) + " does not exist: this machine has " +
                          std::to_string(devices.size()) + " CUDA device(s) (cuda:0" +
                          (devices.size() > 1 ? " to cuda:" + std::to_string(devices.size() - 1) : "") + ")");
  const GpuInfo& g = devices[static_cast<std::size_t>(index)];
  if (!g.error.empty())
    throw SolverError(SolverError::Kind::Unavailable, "CUDA device cuda:" + std::to_string(index) + ": " + g.error);
  return g;
}

// The device's free memory (cudaMemGetInfo): what the session costs beyond its counted arrays
// (the library's handles and workspaces, graphs, the runtime's own buffers) shows as a drop. The
// figure is device-wide: another process allocating at the same time counts too.
std::size_t free_device_bytes() {
  std::size_t free_b = 0, total_b = 0;
  gpu::cuda_check(cudaMemGetInfo(&free_b, &total_b), "cudaMemGetInfo");
  return free_b;
}

}  // namespace

struct GpuMarchSession::Impl {
  GpuInfo device;
  std::size_t free_before = 0, lowest_free = 0;  // around the session, for measured_device_bytes
  void observe() { lowest_free = std::min(lowest_free, free_device_bytes()); }
  gpu::GpuPlan plan;
  gpu::DeviceAllocator alloc;                     // outlives the backend's arrays
  std::unique_ptr<gpu::MarchBackend> backend;
};

GpuMarchSession::GpuMarchSession(const GpuBackends& backends, const Problem& pb, const AdiScheme& scheme,
                                 int device, Precision precision)
    : impl_(std::make_unique<Impl>()) {
  if (precision == Precision::Mixed)
    throw SolverError(SolverError::Kind::Unsupported,
                      "a single note's GPU march takes fp64 or fp32; mixed precision (fp64 values, fp32 increments) "
                      "runs in adi-cuda's on-chip book march (book price)");
  if (pb.dim > 2)
    throw SolverError(SolverError::Kind::Unsupported,
                      "a single note's GPU march takes 1 or 2 underlyings; three run in adi-cuda's on-chip book "
                      "march (book price)");
  const GpuBackendFactory make = precision == Precision::FP64 ? backends.fp64 : backends.fp32;
  if (!make) throw std::logic_error("GpuMarchSession: the variant declares no backend in this precision");
  impl_->device = select_device(device);
  const gpu::DeviceGuard on(impl_->device.index);
  // The context first, so that it is not counted as the session's.
  gpu::cuda_check(cudaFree(nullptr), "cudaFree(nullptr) (context creation)");
  impl_->free_before = impl_->lowest_free = free_device_bytes();
  impl_->plan = gpu::make_gpu_plan(pb, scheme);
  impl_->backend = make(pb, impl_->plan, impl_->alloc);
  impl_->observe();
}

// The backend's arrays, graphs and handles belong to the session's device: freed with it current.
GpuMarchSession::~GpuMarchSession() {
  if (!impl_ || !impl_->backend) return;
  try {
    const gpu::DeviceGuard on(impl_->device.index);
    impl_->backend.reset();
  } catch (...) {  // a destructor does not throw; the context is gone anyway
  }
}

double GpuMarchSession::march() {
  const gpu::DeviceGuard on(impl_->device.index);
  const double seconds = impl_->backend->march();
  impl_->observe();
  return seconds;
}

std::size_t GpuMarchSession::measured_device_bytes() const {
  return impl_->free_before > impl_->lowest_free ? impl_->free_before - impl_->lowest_free : 0;
}

std::vector<double> GpuMarchSession::values(bool all_layers) const {
  const gpu::DeviceGuard on(impl_->device.index);
  return impl_->backend->values(all_layers);
}

const gpu::GpuPlan& GpuMarchSession::plan() const { return impl_->plan; }

std::size_t GpuMarchSession::peak_device_bytes() const { return impl_->alloc.peak(); }

const GpuInfo& GpuMarchSession::device() const { return impl_->device; }

std::vector<std::string> GpuMarchSession::notes() const { return impl_->backend->notes(); }

}  // namespace elsbench
