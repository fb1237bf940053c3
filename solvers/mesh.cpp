#include "solvers/mesh.hpp"

#include <cmath>
#include <stdexcept>

namespace elsbench {

std::vector<double> make_mesh(const MeshSpec& spec) {
  if (spec.nodes < 4) throw std::invalid_argument("a mesh needs at least 4 nodes per axis");
  if (!(spec.s_max > 0)) throw std::invalid_argument("S_max must be > 0");
  const auto n = static_cast<std::size_t>(spec.nodes);
  std::vector<double> s(n);
  const double last = static_cast<double>(n - 1);
  if (spec.kind == MeshKind::Uniform) {
    for (std::size_t i = 0; i < n; ++i) s[i] = spec.s_max * static_cast<double>(i) / last;
  } else {
    const double alpha = spec.density * spec.center;
    const double lo = std::asinh(-spec.center / alpha);
    const double hi = std::asinh((spec.s_max - spec.center) / alpha);
    for (std::size_t i = 0; i < n; ++i)
      s[i] = spec.center + alpha * std::sinh(lo + (hi - lo) * static_cast<double>(i) / last);
  }
  s.front() = 0.0;
  s.back() = spec.s_max;
  return s;
}

MeshKind parse_mesh_kind(const std::string& name) {
  if (name == "uniform") return MeshKind::Uniform;
  if (name == "sinh") return MeshKind::Sinh;
  throw std::invalid_argument("unknown mesh '" + name + "' (expected uniform or sinh)");
}

const char* to_string(MeshKind k) { return k == MeshKind::Uniform ? "uniform" : "sinh"; }

}  // namespace elsbench
