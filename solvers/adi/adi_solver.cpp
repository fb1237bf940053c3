// adi: Douglas, Craig-Sneyd, modified Craig-Sneyd and Hundsdorfer-Verwer splitting on the shared
// problem. Mixed derivatives are explicit as each scheme prescribes; each axis is implicit, solved
// as one batch of tridiagonal systems that share a factorisation.
#include "solvers/contract/solver.hpp"
#include "solvers/march/march.hpp"
#include "solvers/operators/fused_explicit.hpp"
#include "solvers/schemes/adi_scheme.hpp"
#include "solvers/tridiagonal/line_solve.hpp"

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

  void step(const StepWeights& w, Vec& x) {
    const bool keep_mixed = w.kind == SchemeKind::CraigSneyd || w.kind == SchemeKind::ModifiedCraigSneyd;
    // Y0 = X + dt F(X), keeping F_d(X) (and F_0(X) where the scheme corrects it).
    ExplicitPass predictor = pass_over(x, axis_x_);
    predictor.mixed_out = keep_mixed ? mixed_x_.data() : nullptr;
    set_out(predictor, y0_, {{x.data(), 1.0}}, w.dt, w.dt);
    run_explicit_pass(pb_, predictor);
    implicit_stages(w.theta_dt, axis_x_);
    if (w.two_rounds()) corrector(w, x);
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
  // F(X) is not stored: dt F(X) = Y0 - X, which is where MCS's and HV's X terms come from.
  void corrector(const StepWeights& w, const Vec& x) {
    ExplicitPass p;
    p.v = y_.data();
    switch (w.kind) {
      case SchemeKind::CraigSneyd:
        set_out(p, y0_, {{y0_.data(), 1.0}, {mixed_x_.data(), -w.corr_mixed}}, w.corr_mixed, 0.0);
        run_explicit_pass(pb_, p);
        implicit_stages(w.theta_dt, axis_x_);
        break;
      case SchemeKind::ModifiedCraigSneyd:
        set_out(p, y0_, {{y0_.data(), 0.5 + w.theta}, {x.data(), 0.5 - w.theta}, {mixed_x_.data(), -w.corr_mixed}},
                0.5 * w.dt, w.corr_full);
        run_explicit_pass(pb_, p);
        implicit_stages(w.theta_dt, axis_x_);
        break;
      default:
        // Hundsdorfer-Verwer: its stages subtract F_d(Y), not F_d(X).
        p = pass_over(y_, axis_y_);
        set_out(p, y0_, {{y0_.data(), 0.5}, {x.data(), 0.5}}, w.corr_full, w.corr_full);
        run_explicit_pass(pb_, p);
        implicit_stages(w.theta_dt, axis_y_);
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

MarchResult march_adi(const Problem& pb, const SolverOptions& opt) {
  const AdiScheme scheme = adi_scheme(opt.scheme.empty() ? adi_scheme_names().front() : opt.scheme);
  const AdiScheme damped = damping_scheme();
  AdiStepper stepper(pb);
  MarchResult m;
  m.scheme = scheme.name();
  m.values = march(pb, [&](std::size_t j, Vec& v) {
    stepper.step(step_weights(pb.time.damped[j] ? damped : scheme, pb.time.dt(j)), v);
  });
  return m;
}

SolverInfo adi_info() {
  SolverInfo s;
  s.name = "adi";
  s.description = "CPU ADI (mixed term as each scheme prescribes), threads over lines";
  s.schemes = adi_scheme_names();
  s.devices = {Device::Kind::Cpu};
  s.max_dim = 3;
  s.memory = MemoryModel{MemorySpace::Host, 5, 2, 0, true,
                         "per layer: payoff, values, Y0, Y, F_0(X); per direction d: F_d(X) and F_d(Y)"};
  s.march = march_adi;
  return s;
}

}  // namespace

ELSBENCH_REGISTER_SOLVER(adi_info);

}  // namespace elsbench
