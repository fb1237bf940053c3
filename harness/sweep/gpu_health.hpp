#pragma once
// A sticky CUDA error (a kernel's illegal address, a trap: SolverError::Kind::DeviceFault, skip
// reason "device-fault: ...") leaves the process's CUDA context unusable: every later GPU case
// would fail the same way, each recorded as an error that hides the first. After one, the sweep
// records its remaining GPU cases (cuda:N, and auto, which would pick the GPU) as skipped with
// that cause, and goes on with the CPU cases. A resumed sweep is a fresh process: it tries again.
#include <string>

#include "harness/run/case.hpp"
#include "harness/run/case_run.hpp"

namespace elsbench {

class GpuHealth {
 public:
  // Why `c` is not run (empty: run it).
  std::string skip_for(const SweepCase& c) const;
  // Notes a case's outcome: a device fault marks the GPU lost.
  void record(const SweepCase& c, const CaseOutcome& out);
  bool lost() const { return !fault_.empty(); }

 private:
  std::string fault_, fault_case_;
};

}  // namespace elsbench
