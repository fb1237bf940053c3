#include "harness/run/case.hpp"

#include <cmath>
#include <iomanip>
#include <sstream>
#include <stdexcept>

#include "solvers/problem/grid_codec.hpp"
#include "solvers/problem/problem_builder.hpp"

namespace elsbench {
namespace {

// X steps per node at n nodes, refused (never wrapped past 32 bits, never raised to one step)
// when it is not between 1 and kMaxTimeSteps.
int per_n_steps(double per_node, int n) {
  const double steps = std::round(per_node * n);
  if (steps >= 1 && steps <= kMaxTimeSteps) return static_cast<int>(steps);
  std::ostringstream s;
  s << std::setprecision(12) << "time-step rule 'per-n:" << per_node << "' at n = " << n << " asks for " << per_node * n
    << " steps: a case takes 1 to " << kMaxTimeSteps;
  throw std::invalid_argument(s.str());
}

}  // namespace

std::optional<int> NtRule::steps(int n) const {
  switch (kind) {
    case Kind::Fixed: return static_cast<int>(value);
    case Kind::PerN: return per_n_steps(value, n);
    case Kind::Auto: break;
  }
  return std::nullopt;
}

std::string NtRule::str() const {
  std::ostringstream s;
  switch (kind) {
    case Kind::Fixed: s << "fixed:" << value; break;
    case Kind::PerN: s << "per-n:" << value; break;
    case Kind::Auto: s << "auto"; break;
  }
  return s.str();
}

NtRule parse_nt_rule(const std::string& s) {
  NtRule r;
  if (s == "auto") return r;
  const auto colon = s.find(':');
  const std::string kind = s.substr(0, colon);
  double v = 0;
  if (colon != std::string::npos) {
    std::size_t used = 0;
    try {
      v = std::stod(s.substr(colon + 1), &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != s.size() - colon - 1 || !std::isfinite(v)) v = 0;
  }
  if (kind == "fixed" && v >= 1 && v == std::floor(v) && v <= kMaxTimeSteps) {
    r.kind = NtRule::Kind::Fixed;
  } else if (kind == "per-n" && v > 0 && v <= kMaxTimeSteps) {
    r.kind = NtRule::Kind::PerN;
  } else {
    throw std::invalid_argument("bad time-step rule '" + s + "' (expected fixed:K, per-n:X or auto)");
  }
  r.value = v;
  return r;
}

namespace {

std::string case_id(const SweepCase& c, const std::string& device_part) {
  const auto steps = c.nt.steps(c.n);
  std::string id = c.product + "/" + c.solver + (c.scheme.empty() ? "" : ":" + c.scheme) + "/n=" +
                   nodes_text(c.n, c.axis_nodes) +
                   "/nt=" + (steps ? std::to_string(*steps) : std::string("auto")) + "/" + device_part + "/" +
                   to_string(c.precision) + (c.book > 1 ? "/book=" + std::to_string(c.book) : std::string());
  for (const auto& item : c.grid.items()) id += "/" + item.key() + "=" + item.value().dump();
  return id;
}

}  // namespace

std::string SweepCase::id() const {
  return case_id(*this, device.is_cpu() ? "cpu/t" + std::to_string(device.threads) : device.str());
}

std::string SweepCase::note_id() const { return case_id(*this, "book"); }

SolverOptions SweepCase::options(const GridOptions& sweep_grid) const {
  SolverOptions o;
  o.scheme = scheme;
  o.grid = grid_from_json(grid, "case " + id(), "grid", GridKeys::Mesh, sweep_grid);
  o.grid.n = n;
  o.grid.axis_nodes = axis_nodes;
  o.grid.nt = nt.steps(n);
  o.device = device;
  o.precision = precision;
  return o;
}

}  // namespace elsbench
