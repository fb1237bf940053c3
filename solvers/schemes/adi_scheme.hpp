#pragma once
// The ADI schemes of the `adi` family (In 't Hout & Foulon's notation) and the weights of one
// step of each: the one scheme description that the CPU stepper and the GPU plan both read, so
// that every variant runs exactly the same scheme.
#include <string>
#include <vector>

#include "solvers/schemes/step_weights.hpp"

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

// The weights of one step of `scheme` with step dt (step_weights.hpp).
StepWeights step_weights(const AdiScheme& scheme, double dt);

}  // namespace elsbench
