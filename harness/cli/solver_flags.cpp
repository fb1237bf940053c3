#include "harness/cli/solver_flags.hpp"

#include <stdexcept>

#include "harness/cli/flag_limits.hpp"
#include "platform/input_error.hpp"

namespace elsbench {
void SolverFlags::add_to(CLI::App& cmd) {
  GridOptions& g = options.grid;
  cmd.add_option("--scheme", options.scheme, "time scheme (default: the solver's)");
  cmd.add_option("--n", g.n, "nodes per axis")->check(CLI::Range(4, kMaxNodes));
  cmd.add_option("--nt", nt, "time steps, or auto (the solver's choice)");
  cmd.add_option("--mesh", mesh, "uniform | sinh")->check(CLI::IsMember({"uniform", "sinh"}));
  cmd.add_option("--s-max", g.s_max_multiple, "S_max as a multiple of max(reference or strike, spot), in (1, 100]");
  cmd.add_option("--density", g.density, "sinh concentration, fraction of the center level, in (0, 100]");
  cmd.add_option("--damping", g.damping_steps, "implicit steps after the payoff and each autocall date")
      ->check(CLI::Range(0, kMaxDampingSteps));
  cmd.add_option("--ki-damping", g.knock_in_damping,
                 "implicit sub-steps opening the step after each daily knock-in date (default 2; 0: none)")
      ->check(CLI::Range(0, 8));
  cmd.add_option("--ki-damping-fraction", g.knock_in_damping_fraction,
                 "fraction of that step they take together, in (0, 1) (default 0.35)")
      ->check(CLI::Range(1e-3, 0.999));
  cmd.add_option("--device", device, "auto | cpu | cuda:N");
  cmd.add_option("--precision", precision, "fp64 | fp32 | mixed (fp64 values, fp32 steps)")
      ->check(CLI::IsMember({"fp64", "fp32", "mixed"}));
  cmd.add_option("--threads", threads, "CPU threads (0: all cores)")->check(CLI::Range(0, kMaxThreads));
  cmd.add_option("--max-seconds", options.max_seconds,
                 "refuse (exit 3) a pricing whose work could not finish within this many seconds");
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
      throw InputError("(command line)", "--nt", "expected a positive whole number or auto, got '" + nt + "'");
    o.grid.nt = steps;
  }
  o.grid.mesh = parse_mesh_kind(mesh);
  // Finite and bounded (NaN and inf fail every comparison): a mesh beyond fp64's range gives NaN
  // operator weights.
  if (!(o.grid.s_max_multiple > 1.0 && o.grid.s_max_multiple <= kMaxSMaxMultiple))
    throw InputError("(command line)", "--s-max", "must be in (1, 100]");
  if (!(o.grid.density > 0 && o.grid.density <= kMaxDensity))
    throw InputError("(command line)", "--density", "must be in (0, 100]");
  if (!(o.max_seconds >= 0 && o.max_seconds <= 1e9))
    throw InputError("(command line)", "--max-seconds", "must be in [0, 1e9]");
  o.device = parse_device(device);
  if (threads > 0) o.device.threads = threads;
  o.precision = parse_precision(precision);
  return o;
}

}  // namespace elsbench
