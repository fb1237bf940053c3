#pragma once
// The weights of one ADI step: what the CPU stepper reads (adi_solver.cpp) and what the GPU step
// records carry to the device (solvers/gpu/plan/gpu_step.hpp), so that both run the same scheme
// from the same numbers. adi_scheme.hpp's step_weights() fills them.
#include "platform/hd.hpp"

namespace elsbench {

// One step of a scheme with step dt, F = F_0 (mixed) + sum_d F_d:
//   Y0 = X + dt F(X);  Y_d = Y_{d-1} + theta dt (F_d(Y_d) - F_d(X))      (first round)
// and, for the two-round schemes, Y0 corrected and the stages again from it:
//   CS   Y0 + corr_mixed (F_0(Y) - F_0(X))                    corr_mixed = sigma dt
//   MCS  Y0 + corr_mixed (F_0(Y) - F_0(X)) + corr_full (F(Y) - F(X))
//                                                              corr_mixed = theta dt, corr_full = (1/2 - theta) dt
//   HV   Y0 + corr_full (F(Y) - F(X)), stages subtracting F_d(Y)    corr_full = dt / 2
enum class SchemeKind : int { Douglas = 0, CraigSneyd = 1, ModifiedCraigSneyd = 2, HundsdorferVerwer = 3 };

struct StepWeights {
  SchemeKind kind = SchemeKind::Douglas;
  double dt = 0;
  double theta = 0;
  double theta_dt = 0;    // the weight of every implicit stage, and the key of its factor table
  double corr_mixed = 0;
  double corr_full = 0;
  ELSBENCH_HD bool two_rounds() const { return kind != SchemeKind::Douglas; }
};

}  // namespace elsbench
