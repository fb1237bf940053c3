// GpuMarchSession in a build without CUDA: the GPU variants are not registered there, but the
// GPU tests and benchmarks still compile and link, and say why they cannot run.
#ifndef ELSBENCH_HAVE_CUDA
#include "platform/solver_error.hpp"
#include "solvers/gpu/session.hpp"

namespace elsbench {

struct GpuMarchSession::Impl {};

GpuMarchSession::GpuMarchSession(const GpuBackends&, const Problem&, const AdiScheme&, int, Precision) {
  throw SolverError(SolverError::Kind::Unavailable, "built without CUDA");
}
GpuMarchSession::~GpuMarchSession() = default;
double GpuMarchSession::march() { return 0; }
std::vector<double> GpuMarchSession::values(bool) const { return {}; }
const gpu::GpuPlan& GpuMarchSession::plan() const {
  static const gpu::GpuPlan none;
  return none;
}
std::size_t GpuMarchSession::peak_device_bytes() const { return 0; }
std::size_t GpuMarchSession::measured_device_bytes() const { return 0; }
const GpuInfo& GpuMarchSession::device() const {
  static const GpuInfo none;
  return none;
}
std::vector<std::string> GpuMarchSession::notes() const { return {}; }

}  // namespace elsbench
#endif
