#include "harness/cli/solver_flags.hpp"

#include <stdexcept>

namespace elsbench {

void SolverFlags::add_to(CLI::App& cmd) {
  GridOptions& g = options.grid;
  cmd.add_option("--scheme", options.scheme, "time scheme (default: the solver's)");
  cmd.add_option("--n", g.n, "nodes per axis")->check(CLI::Range(4, 100000));
  cmd.add_option("--nt", nt, "time steps, or auto (the solver's choice)");
  cmd.add_option("--mesh", mesh, "uniform | sinh")->check(CLI::IsMember({"uniform", "sinh"}));
  cmd.add_option("--s-max", g.s_max_multiple, "S_max as a multiple of max(reference or strike, spot)");
  cmd.add_option("--density", g.density, "sinh concentration, fraction of the center level");
  cmd.add_option("--damping", g.damping_steps, "implicit steps after the payoff and each autocall date")
      ->check(CLI::Range(0, 100));
  cmd.add_option("--device", device, "auto | cpu | cuda:N");
  cmd.add_option("--precision", precision, "fp64 | fp32")->check(CLI::IsMember({"fp64", "fp32"}));
  cmd.add_option("--threads", threads, "CPU threads (0: all cores)")->check(CLI::Range(0, 4096));
}

SolverOptions SolverFlags::parsed() const {
  SolverOptions o = options;
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
  if (!(o.grid.s_max_multiple > 1.0)) throw std::invalid_argument("--s-max: must be > 1");
  if (!(o.grid.density > 0)) throw std::invalid_argument("--density: must be > 0");
  o.device = parse_device(device);
  if (threads > 0) o.device.threads = threads;
  o.precision = parse_precision(precision);
  return o;
}

}  // namespace elsbench
