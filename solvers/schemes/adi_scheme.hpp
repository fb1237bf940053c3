#pragma once
// The ADI schemes of the `adi` family (In 't Hout & Foulon's notation) and the weights of one
// step of each: the one scheme description that the CPU stepper and the GPU plan both read, so
// that every variant runs exactly the same scheme.
#include <string>
#include <vector>

#include "solvers/schemes/scheme_kind.hpp"

namespace elsbench {

struct AdiScheme {
  SchemeKind kind = SchemeKind::HundsdorferVerwer;
  double theta = 0.5;
  double sigma = 0.5;  // Craig-Sneyd's weight of the mixed-term correction
  std::string name() const;
};

// Default theta per scheme: Douglas 1/2, CS 1/2, MCS 1/3, HV 1/2 + sqrt(3)/6.
AdiScheme adi_scheme(const std::string& name);
// The damping step after a discontinuity: Douglas with theta = 1 (implicit in every direction).
AdiScheme damping_scheme();
const std::vector<std::string>& adi_scheme_names();  // the default first

// One step of a scheme with step dt, F = F_0 (mixed) + sum_d F_d:
//   Y0 = X + dt F(X);  Y_d = Y_{d-1} + theta dt (F_d(Y_d) - F_d(X))      (first round)
// and, for the two-round schemes, Y0 corrected and the stages again from it:
//   CS   Y0 + corr_mixed (F_0(Y) - F_0(X))                    corr_mixed = sigma dt
//   MCS  Y0 + corr_mixed (F_0(Y) - F_0(X)) + corr_full (F(Y) - F(X))
//                                                              corr_mixed = theta dt, corr_full = (1/2 - theta) dt
//   HV   Y0 + corr_full (F(Y) - F(X)), stages subtracting F_d(Y)    corr_full = dt / 2
struct StepWeights {
  SchemeKind kind = SchemeKind::Douglas;
  double dt = 0;
  double theta = 0;
  double theta_dt = 0;    // the weight of every implicit stage
  double corr_mixed = 0;
  double corr_full = 0;
  bool two_rounds() const { return kind != SchemeKind::Douglas; }
};
StepWeights step_weights(const AdiScheme& scheme, double dt);

}  // namespace elsbench
