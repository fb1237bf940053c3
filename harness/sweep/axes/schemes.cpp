// The schemes axis: the schemes of the solvers named without one ("all": every scheme each has);
// left empty, each solver's default. A solver without a scheme choice ignores it, one that lacks a
// scheme named here or with it ("explicit:crank-nicolson") gets a planned skip, and a name that is
// no solver's scheme is an error.
#include <algorithm>
#include <stdexcept>

#include "harness/sweep/axis.hpp"
#include "solvers/contract/solver.hpp"

namespace elsbench {
namespace {

bool some_solver_has(const std::string& scheme) {
  const auto& all = SolverRegistry::instance().all();
  return std::any_of(all.begin(), all.end(), [&](const SolverInfo& s) { return s.has_scheme(scheme); });
}

// The case on `scheme`, a planned skip where its solver lacks it.
SweepCase on_scheme(SweepCase c, const SolverInfo& info, const std::string& scheme) {
  c.scheme = scheme;
  if (!info.has_scheme(scheme)) c.skip_reason = "unsupported: solver '" + info.name + "' has no scheme '" + scheme + "'";
  return c;
}

std::vector<SweepCase> enter(SweepCase c, const nlohmann::json& v) {
  const SolverInfo& info = SolverRegistry::instance().get(c.solver);
  if (!c.scheme.empty()) return {on_scheme(c, info, c.scheme)};  // named with its solver ("adi:douglas")
  const std::string scheme = v.is_null() ? "" : v.get<std::string>();
  if (!scheme.empty() && scheme != "all" && !some_solver_has(scheme))
    throw std::invalid_argument("scheme '" + scheme + "' is not a scheme of any solver");
  if (scheme.empty() || info.schemes.empty()) {
    c.scheme = info.default_scheme();
    return {c};
  }
  std::vector<SweepCase> out;
  if (scheme == "all") {
    for (const std::string& s : info.schemes) {
      c.scheme = s;
      out.push_back(c);
    }
    return out;
  }
  return {on_scheme(c, info, scheme)};
}

}  // namespace

ELSBENCH_SWEEP_AXIS({.key = "schemes",
                     .flag = "--schemes",
                     .help = "schemes of the solvers named without one, or all",
                     .order = 30,
                     .defaults = nlohmann::json::array(),
                     .enter = enter});

}  // namespace elsbench
