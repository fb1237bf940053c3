#pragma once
// The ADI schemes of the `adi` family and their parameters (In 't Hout & Foulon's notation), shared
// by the CPU and GPU variants so that both run exactly the same scheme.
#include <string>
#include <vector>

namespace elsbench {

struct AdiScheme {
  enum class Kind { Douglas, CraigSneyd, ModifiedCraigSneyd, HundsdorferVerwer } kind = Kind::HundsdorferVerwer;
  double theta = 0.5;
  double sigma = 0.5;  // Craig-Sneyd's weight of the mixed-term correction
  std::string name() const;
};

// Default theta per scheme: Douglas 1/2, CS 1/2, MCS 1/3, HV 1/2 + sqrt(3)/6.
AdiScheme adi_scheme(const std::string& name);
// The damping step after a discontinuity: Douglas with theta = 1 (implicit in every direction).
AdiScheme damping_scheme();
const std::vector<std::string>& adi_scheme_names();  // the default first

}  // namespace elsbench
