// test-faulty: CPU ADI that fails on purpose, for the fault-injection tests (tests/unit/fault_injection.cpp).
// A product whose id is named in ELSBENCH_TEST_THROW_ON makes its march throw; one named in
// ELSBENCH_TEST_ABORT_ON ends the process with std::abort, as a crash would. The variables are
// read by this variant alone, which is linked into the test suites only (hidden from `list`).
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "solvers/contract/solver.hpp"
#include "solvers/schemes/adi_scheme.hpp"

namespace elsbench {
namespace {

bool named_in(const char* variable, const std::string& id) {
  const char* value = std::getenv(variable);
  return value && id == value;
}

MarchResult march_or_fail(const Problem& pb, const SolverOptions& opt) {
  const std::string& id = pb.product->id;
  if (named_in("ELSBENCH_TEST_ABORT_ON", id)) std::abort();
  if (named_in("ELSBENCH_TEST_THROW_ON", id))
    throw std::runtime_error("test-faulty: injected failure for " + id);
  return SolverRegistry::instance().get("adi").march(pb, opt);
}

SolverInfo faulty_info() {
  SolverInfo s;
  s.name = "test-faulty";
  s.description = "test only: CPU ADI that throws or aborts for the product named in an environment variable";
  s.schemes = adi_scheme_names();
  s.devices = {Device::Kind::Cpu};
  s.max_dim = 3;
  s.test_only = true;
  s.march = march_or_fail;
  return s;
}

}  // namespace

ELSBENCH_REGISTER_SOLVER(faulty_info);

}  // namespace elsbench
