// adi: Douglas, Craig-Sneyd, modified Craig-Sneyd and Hundsdorfer-Verwer splitting on the shared
// problem. Mixed derivatives are explicit as each scheme prescribes; each axis is implicit, solved
// as one batch of tridiagonal systems that share a factorisation.
#include "solvers/adi_solver.hpp"

#include <algorithm>
#include <cmath>

#include "harness/registry.hpp"
#include "solvers/adi_scheme.hpp"
#include "solvers/host_operators.hpp"
#include "solvers/march.hpp"

namespace elsbench {
namespace {

using Vec = std::vector<double>;

// Buffers of one ADI step; every one holds all layers.
class AdiStepper {
 public:
  explicit AdiStepper(const Problem& pb)
      : pb_(pb), y0_(pb.values()), y_(pb.values()), mixed_x_(pb.values()), mixed_y_(pb.values()),
        tmp_(pb.values()), axis_x_(static_cast<std::size_t>(pb.dim), Vec(pb.values())),
        axis_y_(axis_x_) {}

  void step(const AdiScheme& s, double dt, Vec& x) {
    explicit_part(x, mixed_x_, axis_x_);
    const std::size_t size = x.size();
    for (std::size_t i = 0; i < size; ++i) y0_[i] = x[i] + dt * (mixed_x_[i] + sum_axes(axis_x_, i));
    std::copy(y0_.begin(), y0_.end(), y_.begin());
    implicit_stages(s.theta * dt, axis_x_, y_);
    if (s.kind == AdiScheme::Kind::Douglas) {
      x.swap(y_);
      return;
    }
    if (s.kind == AdiScheme::Kind::CraigSneyd) {
      mixed_only(y_, mixed_y_);
      for (std::size_t i = 0; i < size; ++i) y_[i] = y0_[i] + s.sigma * dt * (mixed_y_[i] - mixed_x_[i]);
      implicit_stages(s.theta * dt, axis_x_, y_);
    } else if (s.kind == AdiScheme::Kind::ModifiedCraigSneyd) {
      explicit_part(y_, mixed_y_, axis_y_);
      const double w = 0.5 - s.theta;
      for (std::size_t i = 0; i < size; ++i) {
        const double dm = mixed_y_[i] - mixed_x_[i];
        const double dfull = dm + sum_axes(axis_y_, i) - sum_axes(axis_x_, i);
        y_[i] = y0_[i] + s.theta * dt * dm + w * dt * dfull;
      }
      implicit_stages(s.theta * dt, axis_x_, y_);
    } else {
      explicit_part(y_, mixed_y_, axis_y_);
      for (std::size_t i = 0; i < size; ++i) {
        const double dfull = mixed_y_[i] - mixed_x_[i] + sum_axes(axis_y_, i) - sum_axes(axis_x_, i);
        y_[i] = y0_[i] + 0.5 * dt * dfull;
      }
      implicit_stages(s.theta * dt, axis_y_, y_);
    }
    x.swap(y_);
  }

 private:
  static double sum_axes(const std::vector<Vec>& a, std::size_t i) {
    double s = 0.0;
    for (const Vec& v : a) s += v[i];
    return s;
  }

  void mixed_only(const Vec& v, Vec& mixed) {
    std::fill(mixed.begin(), mixed.end(), 0.0);
    for (const MixedTerm& m : pb_.mixed) apply_mixed(pb_, m, v.data(), mixed.data(), tmp_.data());
  }

  // F_0 v (all mixed terms) and F_d v (each axis) separately: the stages need them apart.
  void explicit_part(const Vec& v, Vec& mixed, std::vector<Vec>& axis) {
    mixed_only(v, mixed);
    for (int d = 0; d < pb_.dim; ++d)
      apply_axis(pb_, d, pb_.axes[static_cast<std::size_t>(d)].op, v.data(),
                 axis[static_cast<std::size_t>(d)].data(), 1.0, false);
  }

  // For each axis: y <- (I - theta dt A_d)^{-1} (y - theta dt F_d).
  void implicit_stages(double theta_dt, const std::vector<Vec>& f, Vec& y) {
    for (int d = 0; d < pb_.dim; ++d) {
      const Vec& fd = f[static_cast<std::size_t>(d)];
      for (std::size_t i = 0; i < y.size(); ++i) y[i] -= theta_dt * fd[i];
      solve_axis(pb_, d, factor_axis(pb_.axes[static_cast<std::size_t>(d)].op, theta_dt), y.data());
    }
  }

  const Problem& pb_;
  Vec y0_, y_, mixed_x_, mixed_y_, tmp_;
  std::vector<Vec> axis_x_, axis_y_;
};

PriceResult price_adi(const Product& product, const SolverOptions& opt) {
  Problem pb = build_problem(product, opt.grid);
  return solve_adi(pb, opt);
}

SolverInfo adi_info() {
  SolverInfo s;
  s.name = "adi";
  s.description = "CPU ADI (mixed term as each scheme prescribes), threads over lines";
  s.schemes = adi_scheme_names();
  s.devices = {Device::Kind::Cpu};
  s.max_dim = 3;
  s.price = price_adi;
  return s;
}

}  // namespace

int adi_default_steps(const Product& product, int n) {
  // One step per node per year of maturity, at least 50: keeps dt ~ h so both errors shrink together.
  return std::max(50, static_cast<int>(std::lround(n * std::max(1.0, product.maturity()) / 2.0)));
}

PriceResult solve_adi(Problem& pb, const SolverOptions& opt) {
  const Product& product = *pb.product;
  const AdiScheme scheme = adi_scheme(opt.scheme.empty() ? adi_scheme_names().front() : opt.scheme);
  const int steps = opt.grid.nt ? *opt.grid.nt : adi_default_steps(product, opt.grid.n);
  set_time_grid(pb, make_time_grid(product.maturity(), event_taus(product), steps), opt.grid.damping_steps);
  AdiStepper stepper(pb);
  const AdiScheme damped = damping_scheme();
  const Vec values = march(pb, [&](std::size_t j, Vec& v) {
    stepper.step(pb.time.damped[j] ? damped : scheme, pb.time.dt(j), v);
  });
  const SpotValues at = spot_values(pb, values);
  PriceResult r;
  r.scheme = scheme.name();
  r.mesh = pb.mesh;
  r.shape = pb.shape();
  r.time_steps = pb.time.steps();
  r.price = at.price;
  r.delta = at.delta;
  r.gamma = at.gamma;
  return r;
}

ELSBENCH_REGISTER_SOLVER(adi_info);

}  // namespace elsbench
