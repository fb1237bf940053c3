#include "solvers/schemes/adi_scheme.hpp"

#include <cmath>
#include <stdexcept>

namespace elsbench {

std::string AdiScheme::name() const {
  switch (kind) {
    case Kind::Douglas: return "douglas";
    case Kind::CraigSneyd: return "craig-sneyd";
    case Kind::ModifiedCraigSneyd: return "modified-craig-sneyd";
    case Kind::HundsdorferVerwer: return "hundsdorfer-verwer";
  }
  return "?";
}

AdiScheme adi_scheme(const std::string& name) {
  AdiScheme s;
  if (name == "douglas") {
    s.kind = AdiScheme::Kind::Douglas;
    s.theta = 0.5;
  } else if (name == "craig-sneyd") {
    s.kind = AdiScheme::Kind::CraigSneyd;
    s.theta = 0.5;
  } else if (name == "modified-craig-sneyd") {
    s.kind = AdiScheme::Kind::ModifiedCraigSneyd;
    s.theta = 1.0 / 3.0;
  } else if (name == "hundsdorfer-verwer") {
    s.kind = AdiScheme::Kind::HundsdorferVerwer;
    s.theta = 0.5 + std::sqrt(3.0) / 6.0;
  } else {
    throw std::invalid_argument("unknown ADI scheme '" + name + "'");
  }
  return s;
}

AdiScheme damping_scheme() {
  AdiScheme s;
  s.kind = AdiScheme::Kind::Douglas;
  s.theta = 1.0;
  return s;
}

const std::vector<std::string>& adi_scheme_names() {
  static const std::vector<std::string> names{"hundsdorfer-verwer", "modified-craig-sneyd",
                                              "craig-sneyd", "douglas"};
  return names;
}

}  // namespace elsbench
