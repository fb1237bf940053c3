// adi: Douglas, Craig-Sneyd, modified Craig-Sneyd and Hundsdorfer-Verwer splitting on the shared
// problem. Mixed derivatives are explicit as each scheme prescribes; each axis is implicit, solved
// as one batch of tridiagonal systems that share a factorisation.
#include <omp.h>

#include <algorithm>
#include <type_traits>

#include "platform/stealing_shares.hpp"
#include "platform/subnormals.hpp"
#include "solvers/contract/solver.hpp"
#include "solvers/march/march.hpp"
#include "solvers/operators/fused_explicit.hpp"
#include "solvers/schemes/adi_scheme.hpp"
#include "solvers/tridiagonal/line_solve.hpp"

namespace elsbench {
namespace {

// CS and MCS read F_0(X) and each F_d(X) in their second round: the only schemes that store them.
bool keeps_x_terms(SchemeKind k) { return k == SchemeKind::CraigSneyd || k == SchemeKind::ModifiedCraigSneyd; }

// One ADI step, scheme by scheme, on fused passes (solvers/operators/fused_explicit.hpp). Notation of
// In 't Hout & Foulon: F = F_0 (mixed) + sum_d F_d, X the values at the start of the step.
// F(X) is never stored: Y0 = X + dt F(X) gives it back as (Y0 - X) / dt.
//
// A step is one or two rounds of an explicit pass followed by the implicit stage of each axis.
// The axis-0 stage solves rows, the lines the pass writes, so each thread runs the pass and that
// stage over a block of rows while it is in its cache, and A_0 v never goes to memory unless a
// later round needs it. Only the other axes' stages wait for every row (one barrier per stage; the
// threads stay in one parallel region for the whole march). In every stage a thread takes the
// blocks of its own share first, then what is left of the others' (platform/stealing_shares.hpp).
// Each value is computed by the same operations in the same order as by separate whole-grid
// passes, so prices do not depend on the thread count.
template <class T>
class AdiStepper {
  using Vec = std::vector<T>;

 public:
  // `keep_x_terms`: the scheme's second round reads F_0(X) and each F_d(X) (CS, MCS).
  AdiStepper(const Problem& pb, bool keep_x_terms)
      : pb_(pb), stencils_(pb), y0_(pb.values()), y_(pb.values()),
        threaded_(pb.values() >= 4096 && omp_get_max_threads() > 1),
        row_blocks_((explicit_rows(pb) + kRowsPerBlock - 1) / kRowsPerBlock, omp_get_max_threads()) {
    if (keep_x_terms) {
      mixed_x_.resize(pb.values());
      axis_x_.assign(static_cast<std::size_t>(pb.dim), Vec(pb.values()));
    }
    for (int d = 0; d < pb.dim; ++d) axis_blocks_.emplace_back(d == 0 ? 0 : axis_blocks(pb, d), omp_get_max_threads());
    const std::size_t n0 = pb.axes[0].size();
    for (int t = 0; t < (threaded_ ? omp_get_max_threads() : 1); ++t)
      scratch_.push_back({PassScratch<T>(n0), Vec(kRowsPerBlock * n0), Vec(line_buffer_size(pb)), y_.data()});
  }

  // Called by every thread of the march's region (march_on_threads), or by the one thread of an
  // unthreaded march, with X at x; returns, once every thread's share of the step is done, where
  // the values are: x, or the other value buffer, which X's storage then becomes.
  T* step(const StepWeights& w, T* x) {
    Scratch& s = scratch_[static_cast<std::size_t>(omp_get_thread_num())];
    T* const y = s.spare;
    factor_axes(w.theta_dt);
    const bool keep_mixed = keeps_x_terms(w.kind);
    // Y0 = X + dt F(X), keeping F_d(X) (and F_0(X)) where the second round uses them.
    // X is left alone until the last round's pass has read it: unless CS or MCS read F_d(X) in
    // that round, each axis's stage forms A_d X from X instead of storing it.
    Round predictor = round_over(x, y, keep_mixed ? &axis_x_ : nullptr, keep_mixed, y);
    predictor.pass.mixed_out = keep_mixed ? mixed_x_.data() : nullptr;
    set_out(predictor.pass, y0_, {{x, 1.0}}, w.dt, w.dt);
    predictor.theta_dt = w.theta_dt;
    const bool two = w.two_rounds();
    const Round second = two ? corrector(w, x, y) : Round{};
    const FlushSubnormals flush(std::is_same_v<T, float>);
    run_round(predictor, s, two);
    if (two) run_round(second, s, false);
    T* const result = (two ? second : predictor).result;
    // Each thread keeps its own record of which buffer is spare, changed the same way on every
    // thread: swapping a shared record would race with threads still reading it.
    if (result != x) s.spare = x;
#pragma omp barrier
    return result;
  }

  bool threaded() const { return threaded_; }

 private:
  struct Term {
    const T* base;
    double coeff;
  };
  struct Round {
    ExplicitPassT<T> pass;
    // F_d for each axis's stage; null: the pass's own A_d v (kept in cache for axis 0, formed
    // again inside the solve from pass.v for the others).
    const T* f[3] = {nullptr, nullptr, nullptr};
    double theta_dt = 0;
    T* stage0_out = nullptr;  // never pass.v, whose rows the pass still reads
    T* result = nullptr;      // where the other axes' stages write (in place after the first)
  };
  struct Scratch {
    PassScratch<T> pass;
    Vec axis0_rows, lines;
    T* spare;  // the value buffer that does not hold X (y_'s storage or the march's)
  };

  // The axes' factors for theta dt: kept while theta dt stays (a uniform grid refactors only
  // around the damping sub-steps). Every thread reads the factored theta dt before one of them
  // changes it.
  void factor_axes(double theta_dt) {
    if (theta_dt == factored_theta_dt_) return;
#pragma omp barrier
#pragma omp single
    {
      for (int d = 0; d < pb_.dim; ++d) {
        LineFactors f = factor_axis(pb_.axes[static_cast<std::size_t>(d)].op, theta_dt);
        if constexpr (std::is_same_v<T, double>) {
          factors_[d] = std::move(f);
        } else {
          factors_[d] = to_fp32(f);
        }
      }
      factored_theta_dt_ = theta_dt;
    }
  }

  // A pass over v whose axis terms are the stages' F_d, stored in `axis_out` (none: each stage forms
  // its own from v); `keep0`: A_0 v is stored for a later round.
  // `y`: the spare value buffer, where the last stage writes.
  Round round_over(const T* v, T* y, std::vector<Vec>* axis_out, bool keep0, T* stage0_out) {
    Round r;
    r.pass.v = v;
    for (std::size_t d = 0; axis_out && d < axis_out->size(); ++d) {
      if (d == 0 && !keep0) continue;
      r.pass.axis_out[d] = (*axis_out)[d].data();
      r.f[d] = (*axis_out)[d].data();
    }
    r.stage0_out = stage0_out;
    r.result = pb_.dim == 1 ? r.stage0_out : y;
    return r;
  }

  static void set_out(ExplicitPassT<T>& p, Vec& out, std::initializer_list<Term> terms, double mixed_coeff,
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

  // Second round of CS, MCS and HV: Y0 <- corrected Y0 (from Y = Y_dim), then the stages again.
  // F(X) is not stored: dt F(X) = Y0 - X, which is where MCS's and HV's X terms come from. The
  // pass reads Y's neighbouring rows, so the axis-0 stage writes Y0 in place, except in one
  // dimension, where a row has no neighbours and the stage is the last.
  Round corrector(const StepWeights& w, T* x, T* y) {
    T* const stage0_out = pb_.dim == 1 ? y : y0_.data();
    Round r;
    r.pass.v = y;
    r.theta_dt = w.theta_dt;
    r.stage0_out = stage0_out;
    r.result = pb_.dim == 1 ? r.stage0_out : y;
    switch (w.kind) {
      case SchemeKind::CraigSneyd:
        set_out(r.pass, y0_, {{y0_.data(), 1.0}, {mixed_x_.data(), -w.corr_mixed}}, w.corr_mixed, 0.0);
        for (std::size_t d = 0; d < axis_x_.size(); ++d) r.f[d] = axis_x_[d].data();
        break;
      case SchemeKind::ModifiedCraigSneyd:
        set_out(r.pass, y0_, {{y0_.data(), 0.5 + w.theta}, {x, 0.5 - w.theta}, {mixed_x_.data(), -w.corr_mixed}},
                0.5 * w.dt, w.corr_full);
        for (std::size_t d = 0; d < axis_x_.size(); ++d) r.f[d] = axis_x_[d].data();
        break;
      default:
        // Hundsdorfer-Verwer: its stages subtract F_d(Y), not F_d(X), formed from Y, so that Y
        // stays: the other axes' stages write into X, which only the pass still read.
        r = round_over(y, y, nullptr, false, stage0_out);
        if (pb_.dim > 1) r.result = x;
        r.theta_dt = w.theta_dt;
        set_out(r.pass, y0_, {{y0_.data(), 0.5}, {x, 0.5}}, w.corr_full, w.corr_full);
        break;
    }
    return r;
  }

  // The pass, then Y <- (I - theta dt A_d)^{-1} (Y - theta dt F_d) for each axis, Y starting at Y0.
  // `more`: another round follows (else the step's end is the barrier).
  void run_round(const Round& r, Scratch& s, bool more) {
    const std::size_t n0 = pb_.axes[0].size(), rows = explicit_rows(pb_);
    // Blocks of kRowsPerBlock rows from the first, whole tiles (the transposes' unit) but the
    // grid's last, whichever thread runs them.
    row_blocks_.run([&](std::size_t block) {
      const std::size_t first = block * kRowsPerBlock, last = std::min(rows, first + kRowsPerBlock);
      T* own_axis0 = r.f[0] ? nullptr : s.axis0_rows.data();
      run_explicit_rows(pb_, stencils_, r.pass, first, last, s.pass, own_axis0);
      const T* f0 = own_axis0 ? own_axis0 : r.f[0] + first * n0;
      solve_rows(n0, factors_[0], last - first, r.pass.out + first * n0, f0, static_cast<T>(-r.theta_dt),
                 r.stage0_out + first * n0, s.lines.data());
    });
    for (int d = 1; d < pb_.dim; ++d) {
#pragma omp barrier
      const T* z = d == 1 ? r.stage0_out : r.result;
      const T g = static_cast<T>(-r.theta_dt);
      if (r.f[d]) {
        solve_axis_blocks(pb_, d, axis_blocks_[d], factors_[d], z, r.f[d], g, r.result, s.lines.data());
      } else {
        solve_axis_blocks_stencil(pb_, d, axis_blocks_[d], factors_[d], stencils_.op(d), z, r.pass.v, g, r.result);
      }
    }
    // The next round's pass reads neighbouring rows.
    if (more) {
#pragma omp barrier
    }
  }

  const Problem& pb_;
  const GridStencils<T> stencils_;
  Vec y0_, y_, mixed_x_;
  std::vector<Vec> axis_x_;
  bool threaded_;
  std::vector<Scratch> scratch_;
  StealingShares row_blocks_;
  std::vector<StealingShares> axis_blocks_;  // the lines of each axis d > 0 (index d)
  LineFactorsT<T> factors_[3];
  double factored_theta_dt_ = -1;
};

template <class T>
MarchResult march_in(const Problem& pb, const SolverOptions& opt) {
  const AdiScheme scheme = adi_scheme(opt.scheme.empty() ? adi_scheme_names().front() : opt.scheme);
  const AdiScheme damped = damping_scheme();
  AdiStepper<T> stepper(pb, keeps_x_terms(scheme.kind));
  MarchResult m;
  m.scheme = scheme.name();
  std::vector<T> values = march_on_threads<T>(pb, stepper.threaded(), [&](std::size_t j, T* v) {
    return stepper.step(step_weights(pb.time.damped[j] ? damped : scheme, pb.time.dt(j)), v);
  });
  if constexpr (std::is_same_v<T, double>) {
    m.values = std::move(values);
  } else {
    m.values.assign(values.begin(), values.end());
  }
  return m;
}

// fp32 keeps the problem (mesh, payoff, events) in fp64 and marches fp32 values with fp32 copies
// of the operators and factors: half the bytes a step streams, twice the lanes per vector.
MarchResult march_adi(const Problem& pb, const SolverOptions& opt) {
  return opt.precision == Precision::FP32 ? march_in<float>(pb, opt) : march_in<double>(pb, opt);
}

SolverInfo adi_info() {
  SolverInfo s;
  s.name = "adi";
  s.description = "CPU ADI (mixed term as each scheme prescribes), threads over lines";
  s.schemes = adi_scheme_names();
  s.devices = {Device::Kind::Cpu};
  s.precisions = {Precision::FP64, Precision::FP32};
  s.max_dim = 3;
  s.memory = MemoryModel{MemorySpace::Host, 4, 0, 0, true, "per layer: payoff, values, Y0, Y (CS, MCS: F_0(X) and each F_d(X) too)"};
  for (const std::string& name : adi_scheme_names())
    if (keeps_x_terms(adi_scheme(name).kind)) s.scheme_memory.push_back({name, 5, 1});
  s.march = march_adi;
  return s;
}

}  // namespace

ELSBENCH_REGISTER_SOLVER(adi_info);

}  // namespace elsbench
