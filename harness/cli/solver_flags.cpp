#include "harness/cli/solver_flags.hpp"

#include <stdexcept>

namespace elsbench {

void SolverFlags::add_to(CLI::App& cmd) {
  cmd.add_option("--scheme", scheme, "time scheme (default: the solver's)");
  cmd.add_option("--n", n, "nodes per axis")->check(CLI::Range(4, 100000));
  cmd.add_option("--nt", nt, "time steps, or auto (the solver's choice)");
  cmd.add_option("--mesh", mesh, "uniform | sinh")->check(CLI::IsMember({"uniform", "sinh"}));
  cmd.add_option("--s-max", s_max, "S_max as a multiple of max(reference or strike, spot)");
  cmd.add_option("--density", density, "sinh concentration, fraction of the center level");
  cmd.add_option("--damping", damping, "implicit steps after the payoff and each autocall date")
      ->check(CLI::Range(0, 100));
  cmd.add_option("--device", device, "auto | cpu | cuda:N");
  cmd.add_option("--precision", precision, "fp64 | fp32")->check(CLI::IsMember({"fp64", "fp32"}));
  cmd.add_option("--threads", threads, "CPU threads (0: all cores)")->check(CLI::Range(0, 4096));
}

SolverOptions SolverFlags::options() const {
  SolverOptions o;
  o.scheme = scheme;
  o.grid.n = n;
  if (nt != "auto") {
    std::size_t used = 0;
    int steps = 0;
    try {
      steps = std::stoi(nt, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != nt.size() || steps < 1)
      throw std::invalid_argument("--nt: expected a positive whole number or auto, got '" + nt + "'");
    o.grid.nt = steps;
  }
  o.grid.mesh = parse_mesh_kind(mesh);
  if (!(s_max > 1.0)) throw std::invalid_argument("--s-max: must be > 1");
  o.grid.s_max_multiple = s_max;
  if (!(density > 0)) throw std::invalid_argument("--density: must be > 0");
  o.grid.density = density;
  o.grid.damping_steps = damping;
  o.device = parse_device(device);
  o.precision = parse_precision(precision);
  o.threads = threads;
  return o;
}

}  // namespace elsbench
