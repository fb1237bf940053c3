// adi-nocorr: a deliberately broken variant for the validation tests. It drops the mixed
// derivative, as the original Python prototype did, so the gate must reject its prices of
// correlated products. Hidden from `list` and sweeps; linked into the test suites only.
//
// It is also the worked example of docs/adding-a-solver.md: a variant is one folder and one
// registration, and it reaches the rest of the project through the solver contract.
#include "solvers/contract/solver.hpp"
#include "solvers/schemes/adi_scheme.hpp"

namespace elsbench {
namespace {

MarchResult march_without_correlation(const Problem& pb, const SolverOptions& opt) {
  Problem uncorrelated = pb;  // the shared problem stays const: the bug lives in this copy
  uncorrelated.mixed.clear();
  return SolverRegistry::instance().get("adi").march(uncorrelated, opt);
}

SolverInfo no_correlation_info() {
  // Registrations run in no set order across files: adi's entry is looked up when a march runs.
  SolverInfo s;
  s.name = "adi-nocorr";
  s.description = "test only: CPU ADI without the mixed-derivative term (the prototype's bug)";
  s.schemes = adi_scheme_names();
  s.devices = {Device::Kind::Cpu};
  s.max_dim = 3;
  s.test_only = true;
  s.march = march_without_correlation;
  return s;
}

}  // namespace

ELSBENCH_REGISTER_SOLVER(no_correlation_info);

}  // namespace elsbench
