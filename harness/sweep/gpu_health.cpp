#include "harness/sweep/gpu_health.hpp"

#include "solvers/contract/solver.hpp"

namespace elsbench {
namespace {

constexpr const char* kFault = "device-fault: ";

// A case that would run on a GPU: on a CUDA device (or auto) with a solver that runs there; the
// others keep their own reasons (unsupported, ...).
bool on_gpu(const SweepCase& c) {
  return (c.device.kind == Device::Kind::Cuda || c.device.is_auto) &&
         SolverRegistry::instance().get(c.solver).supports(Device::Kind::Cuda);
}

}  // namespace

std::string GpuHealth::skip_for(const SweepCase& c) const {
  if (fault_.empty() || !on_gpu(c)) return "";
  return std::string(kFault) + "not run: case " + fault_case_ + " left the CUDA context unusable (" + fault_ + ")";
}

void GpuHealth::record(const SweepCase& c, const CaseOutcome& out) {
  if (!fault_.empty() || out.skip_reason.rfind(kFault, 0) != 0) return;
  fault_ = out.skip_reason.substr(std::string(kFault).size());
  fault_case_ = c.id();
}

}  // namespace elsbench
