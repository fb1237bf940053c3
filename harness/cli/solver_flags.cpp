#include "harness/cli/solver_flags.hpp"

#include <sstream>
#include <stdexcept>

#include "harness/cli/flag_limits.hpp"
#include "platform/input_error.hpp"
#include "solvers/problem/grid_codec.hpp"

namespace elsbench {
namespace {

const char* const kSource = "(command line)";

// "(default X)" with X the grid options' own default, so that help cannot drift from the code.
template <class T>
std::string default_of(T value) {
  std::ostringstream s;
  s << value;
  return " (default " + s.str() + ")";
}

}  // namespace

void add_greek_units_flag(CLI::App& cmd, std::string& units) {
  cmd.add_option("--greek-units", units,
                 "model (vega per unit vol, rho per unit rate, theta per year) | desk (per vol point, per basis\n"
                 "point, per calendar day)")
      ->capture_default_str()
      ->check(CLI::IsMember({"model", "desk"}));
}

GreekUnits parsed_greek_units(const std::string& units) {
  try {
    return parse_greek_units(units);
  } catch (const std::invalid_argument& e) {
    throw InputError(kSource, "--greek-units", e.what());
  }
}

void SolverFlags::add_to(CLI::App& cmd, const std::string& grid_default) {
  GridOptions& g = options.grid;
  cmd.add_option("--scheme", options.scheme, "time scheme (default: the solver's)");
  cmd.add_option("--n", n,
                 "nodes per axis: N, or N1,N2[,N3] one per asset (default: " +
                     (grid_default.empty() ? n + ", a plain grid" : grid_default) + ")");
  cmd.add_option("--nt", nt, "time steps, or auto (the solver's choice)");
  cmd.add_option("--mesh", mesh, "uniform | sinh");
  const GridOptions defaults;
  for (const GridSetting& s : grid_settings()) {
    const std::string help = std::string(s.help) + "; in " + s.range() + default_of(s.get(defaults));
    if (s.real) cmd.add_option(grid_flag(s.key), g.*s.real, help);
    if (s.count) cmd.add_option(grid_flag(s.key), g.*s.count, help);
  }
  cmd.add_option("--device", device, "auto | cpu | cuda:N");
  cmd.add_option("--precision", precision, "fp64 | fp32 | mixed (fp64 values, fp32 steps)")
      ->check(CLI::IsMember({"fp64", "fp32", "mixed"}));
  cmd.add_option("--threads", threads, "CPU threads (0: all cores)")->check(CLI::Range(0, kMaxThreads));
  cmd.add_option("--max-seconds", options.max_seconds,
                 "refuse (exit 3) a pricing whose work could not finish within this many seconds, and stop\n"
                 "(exit 3) a CPU march still running after them; for price, the whole command's deadline\n"
                 "(its Greeks' and error estimate's pricings included)");
}

SolverOptions SolverFlags::parsed() const {
  SolverOptions o = options;
  const auto refuse = [](const std::string& key, const std::string& why) {
    throw InputError(kSource, grid_flag(key), why);
  };
  const auto as_text = [&](const std::string& key, const std::string& text, auto set) {
    try {
      set(text);
    } catch (const std::invalid_argument& e) {
      refuse(key, e.what());
    }
  };
  as_text("n", n, [&](const std::string& t) { parse_nodes(t, o.grid); });
  as_text("nt", nt, [&](const std::string& t) { parse_steps(t, o.grid); });
  as_text("mesh", mesh, [&](const std::string& t) { o.grid.mesh = parse_mesh_kind(t); });
  check_grid(o.grid, kSource, grid_flag);
  if (!(o.max_seconds >= 0 && o.max_seconds <= 1e9))
    throw InputError(kSource, "--max-seconds", "must be in [0, 1e9]");
  o.device = parse_device(device);
  if (threads > 0) o.device.threads = threads;
  o.precision = parse_precision(precision);
  return o;
}

}  // namespace elsbench
