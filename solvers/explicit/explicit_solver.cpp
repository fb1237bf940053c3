// explicit: forward Euler in tau on the full operator (mixed term included). Slow and only
// conditionally stable, but with no splitting and no linear solves it is the simplest check of
// the shared discretisation.
#include <cmath>
#include <sstream>

#include "solvers/contract/solver.hpp"
#include "solvers/operators/fused_explicit.hpp"
#include "solvers/operators/host_operators.hpp"
#include "solvers/march/march.hpp"
#include "solvers/problem/solver_error.hpp"

namespace elsbench {
namespace {

// auto keeps a margin under the bound so that the highest modes are damped, not just bounded.
constexpr double kAutoFraction = 0.9;

PriceResult price_explicit(const Product& product, const SolverOptions& opt) {
  Problem pb = build_problem(product, opt.grid);
  const double bound = explicit_dt_bound(pb);
  const double T = product.maturity();
  TimeGrid grid = opt.grid.nt ? make_time_grid(T, event_taus(product), *opt.grid.nt)
                              : make_time_grid_max_dt(T, event_taus(product), kAutoFraction * bound);
  if (grid.max_dt() > bound * (1 + 1e-12)) {
    const auto needed = make_time_grid_max_dt(T, event_taus(product), bound).steps();
    std::ostringstream msg;
    msg << "explicit: time step " << grid.max_dt() << " exceeds the stability bound " << bound
        << " of this grid; use --nt " << needed << " or more, or --nt auto";
    throw SolverError(SolverError::Kind::Unstable, msg.str());
  }
  set_time_grid(pb, std::move(grid), 0);  // explicit Euler damps by itself: no implicit steps

  std::vector<double> next(pb.values());
  const auto values = march(pb, [&](std::size_t j, std::vector<double>& v) {
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
  return result_at_spot(pb, values, "euler");
}

SolverInfo explicit_info() {
  SolverInfo s;
  s.name = "explicit";
  s.description = "explicit Euler on the full operator; refuses steps beyond its stability bound";
  s.devices = {Device::Kind::Cpu};
  s.max_dim = 3;
  s.price = price_explicit;
  return s;
}

}  // namespace

ELSBENCH_REGISTER_SOLVER(explicit_info);

}  // namespace elsbench
