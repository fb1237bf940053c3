// explicit: forward Euler in tau on the full operator (mixed term included). Slow and only
// conditionally stable, but with no splitting and no linear solves it is the simplest check of
// the shared discretisation. Its time grid (stable steps, refusal of unstable ones, no damping)
// is the problem builder's TimeStepping::ExplicitStable.
#include "solvers/contract/solver.hpp"
#include "solvers/march/march.hpp"
#include "solvers/operators/fused_explicit.hpp"

namespace elsbench {
namespace {

MarchResult march_explicit(const Problem& pb, const SolverOptions&) {
  std::vector<double> next(pb.values());
  MarchResult m;
  m.scheme = "euler";
  m.values = march(pb, [&](std::size_t j, std::vector<double>& v) {
    const double dt = pb.time.dt(j);
    ExplicitPass pass;  // next = v + dt F(v), in one pass
    pass.v = v.data();
    pass.out = next.data();
    pass.base[0] = v.data();
    pass.base_coeff[0] = 1.0;
    pass.mixed_coeff = pass.axes_coeff = dt;
    run_explicit_pass(pb, pass);
    v.swap(next);
  });
  return m;
}

SolverInfo explicit_info() {
  SolverInfo s;
  s.name = "explicit";
  s.description = "explicit Euler on the full operator; refuses steps beyond its stability bound";
  s.devices = {Device::Kind::Cpu};
  s.max_dim = 3;
  s.stepping = {TimeStepping::Rule::ExplicitStable, false};
  s.memory = MemoryModel{MemorySpace::Host, 3, 0, 0, true,
                         "per layer: payoff (Problem::initial), marched values, next values"};
  // First order in dt with dt ~ h^2: O(h^2) with a larger constant (docs/accuracy.md, Validation).
  s.tolerance_c = 3e-3;
  s.march = march_explicit;
  return s;
}

}  // namespace

ELSBENCH_REGISTER_SOLVER(explicit_info);

}  // namespace elsbench
