#include "solvers/schemes/adi_scheme.hpp"

#include <cmath>
#include <stdexcept>

namespace elsbench {

std::string AdiScheme::name() const {
  switch (kind) {
    case SchemeKind::Douglas: return "douglas";
    case SchemeKind::CraigSneyd: return "craig-sneyd";
    case SchemeKind::ModifiedCraigSneyd: return "modified-craig-sneyd";
    case SchemeKind::HundsdorferVerwer: return "hundsdorfer-verwer";
  }
  return "?";
}

AdiScheme adi_scheme(const std::string& name) {
  AdiScheme s;
  if (name == "douglas") {
    s.kind = SchemeKind::Douglas;
    s.theta = 0.5;
  } else if (name == "craig-sneyd") {
    s.kind = SchemeKind::CraigSneyd;
    s.theta = 0.5;
  } else if (name == "modified-craig-sneyd") {
    s.kind = SchemeKind::ModifiedCraigSneyd;
    s.theta = 1.0 / 3.0;
  } else if (name == "hundsdorfer-verwer") {
    s.kind = SchemeKind::HundsdorferVerwer;
    s.theta = 0.5 + std::sqrt(3.0) / 6.0;
  } else {
    throw std::invalid_argument("unknown ADI scheme '" + name + "'");
  }
  return s;
}

AdiScheme damping_scheme() {
  AdiScheme s;
  s.kind = SchemeKind::Douglas;
  s.theta = 1.0;
  return s;
}

const std::vector<std::string>& adi_scheme_names() {
  static const std::vector<std::string> names{"hundsdorfer-verwer", "modified-craig-sneyd",
                                              "craig-sneyd", "douglas"};
  return names;
}

StepWeights step_weights(const AdiScheme& s, double dt) {
  StepWeights w;
  w.kind = s.kind;
  w.dt = dt;
  w.theta = s.theta;
  w.theta_dt = s.theta * dt;
  switch (s.kind) {
    case SchemeKind::CraigSneyd: w.corr_mixed = s.sigma * dt; break;
    case SchemeKind::ModifiedCraigSneyd:
      w.corr_mixed = s.theta * dt;
      w.corr_full = (0.5 - s.theta) * dt;
      break;
    case SchemeKind::HundsdorferVerwer: w.corr_full = 0.5 * dt; break;
    case SchemeKind::Douglas: break;
  }
  return w;
}

}  // namespace elsbench
