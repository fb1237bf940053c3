// adi: Douglas, Craig-Sneyd, modified Craig-Sneyd and Hundsdorfer-Verwer splitting on the shared
// problem. Mixed derivatives are explicit as each scheme prescribes; each axis is implicit, solved
// as one batch of tridiagonal systems that share a factorisation.
#include "solvers/adi/adi_solver.hpp"

#include <algorithm>
#include <cmath>

#include "solvers/contract/solver.hpp"
#include "solvers/schemes/adi_scheme.hpp"
#include "solvers/operators/fused_explicit.hpp"
#include "solvers/march/march.hpp"

namespace elsbench {
namespace {

using Vec = std::vector<double>;

// One ADI step, scheme by scheme, on fused passes (solvers/operators/fused_explicit.hpp). Notation of
// In 't Hout & Foulon: F = F_0 (mixed) + sum_d F_d, X the values at the start of the step.
// F(X) is never stored: Y0 = X + dt F(X) gives it back as (Y0 - X) / dt.
class AdiStepper {
 public:
  explicit AdiStepper(const Problem& pb)
      : pb_(pb), y0_(pb.values()), y_(pb.values()), mixed_x_(pb.values()),
        axis_x_(static_cast<std::size_t>(pb.dim), Vec(pb.values())), axis_y_(axis_x_) {}

  void step(const AdiScheme& s, double dt, Vec& x) {
    const bool keep_mixed = s.kind == AdiScheme::Kind::CraigSneyd || s.kind == AdiScheme::Kind::ModifiedCraigSneyd;
    // Y0 = X + dt F(X), keeping F_d(X) (and F_0(X) where the scheme corrects it).
    ExplicitPass predictor = pass_over(x, axis_x_);
    predictor.mixed_out = keep_mixed ? mixed_x_.data() : nullptr;
    set_out(predictor, y0_, {{x.data(), 1.0}}, dt, dt);
    run_explicit_pass(pb_, predictor);
    implicit_stages(s.theta * dt, axis_x_);
    if (s.kind != AdiScheme::Kind::Douglas) corrector(s, dt, x);
    x.swap(y_);
  }

 private:
  struct Term {
    const double* base;
    double coeff;
  };

  ExplicitPass pass_over(const Vec& v, std::vector<Vec>& axis_out) {
    ExplicitPass p;
    p.v = v.data();
    for (std::size_t d = 0; d < axis_out.size(); ++d) p.axis_out[d] = axis_out[d].data();
    return p;
  }

  static void set_out(ExplicitPass& p, Vec& out, std::initializer_list<Term> terms, double mixed_coeff,
                      double axes_coeff) {
    p.out = out.data();
    int k = 0;
    for (const Term& t : terms) {
      p.base[k] = t.base;
      p.base_coeff[k++] = t.coeff;
    }
    p.mixed_coeff = mixed_coeff;
    p.axes_coeff = axes_coeff;
  }

  // Second half of CS, MCS and HV: Y0 <- corrected Y0 (from Y = Y_dim), then the stages again.
  void corrector(const AdiScheme& s, double dt, const Vec& x) {
    const double th = s.theta;
    ExplicitPass p;
    p.v = y_.data();
    switch (s.kind) {
      case AdiScheme::Kind::CraigSneyd:
        // Y0 + sigma dt (F_0(Y) - F_0(X))
        set_out(p, y0_, {{y0_.data(), 1.0}, {mixed_x_.data(), -s.sigma * dt}}, s.sigma * dt, 0.0);
        run_explicit_pass(pb_, p);
        implicit_stages(th * dt, axis_x_);
        break;
      case AdiScheme::Kind::ModifiedCraigSneyd:
        // Y0 + theta dt (F_0(Y) - F_0(X)) + (1/2 - theta) dt (F(Y) - F(X))
        set_out(p, y0_, {{y0_.data(), 0.5 + th}, {x.data(), 0.5 - th}, {mixed_x_.data(), -th * dt}},
                0.5 * dt, (0.5 - th) * dt);
        run_explicit_pass(pb_, p);
        implicit_stages(th * dt, axis_x_);
        break;
      default:
        // Hundsdorfer-Verwer: Y0 + dt/2 (F(Y) - F(X)); its stages subtract F_d(Y), not F_d(X).
        p = pass_over(y_, axis_y_);
        set_out(p, y0_, {{y0_.data(), 0.5}, {x.data(), 0.5}}, 0.5 * dt, 0.5 * dt);
        run_explicit_pass(pb_, p);
        implicit_stages(th * dt, axis_y_);
        break;
    }
  }

  // Y <- Y0, then for each axis: Y <- (I - theta dt A_d)^{-1} (Y - theta dt F_d).
  void implicit_stages(double theta_dt, const std::vector<Vec>& f) {
    for (int d = 0; d < pb_.dim; ++d)
      solve_axis_rhs(pb_, d, theta_dt, d == 0 ? y0_.data() : y_.data(), f[static_cast<std::size_t>(d)].data(),
                     -theta_dt, y_.data());
  }

  const Problem& pb_;
  Vec y0_, y_, mixed_x_;
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
  return result_at_spot(pb, values, scheme.name());
}

ELSBENCH_REGISTER_SOLVER(adi_info);

}  // namespace elsbench
