// adi-nocorr: a deliberately broken variant for the validation tests. It drops the mixed
// derivative, as the original Python prototype did, so the gate must reject its prices of
// correlated products. Hidden from `list` and sweeps.
#include "solvers/contract/solver.hpp"
#include "solvers/schemes/adi_scheme.hpp"
#include "solvers/adi/adi_solver.hpp"

namespace elsbench {
namespace {

PriceResult price_without_correlation(const Product& product, const SolverOptions& opt) {
  Problem pb = build_problem(product, opt.grid);
  pb.mixed.clear();
  return solve_adi(pb, opt);
}

SolverInfo no_correlation_info() {
  SolverInfo s;
  s.name = "adi-nocorr";
  s.description = "test only: CPU ADI without the mixed-derivative term (the prototype's bug)";
  s.schemes = adi_scheme_names();
  s.devices = {Device::Kind::Cpu};
  s.max_dim = 3;
  s.test_only = true;
  s.price = price_without_correlation;
  return s;
}

}  // namespace

ELSBENCH_REGISTER_SOLVER(no_correlation_info);

}  // namespace elsbench
