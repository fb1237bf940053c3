#pragma once
// The flags of a command that runs a solver (price, book price): grid, scheme, device, precision,
// threads, bound to a SolverOptions. The grid's flags are the grid codec's keys
// (solvers/problem/grid_codec.hpp), read and checked by it; the named values (device, precision)
// by their one parser, after CLI11 has read the strings.
#include <CLI/CLI.hpp>
#include <string>

#include "solvers/contract/options.hpp"
#include "solvers/contract/risk_greeks.hpp"

namespace elsbench {

// --greek-units model|desk for a command with --greeks, read into `units`.
void add_greek_units_flag(CLI::App& cmd, std::string& units);
GreekUnits parsed_greek_units(const std::string& units);  // throws InputError naming the flag

struct SolverFlags {
  SolverOptions options;
  std::string n = "100", nt = "auto", mesh = "sinh", device = "auto", precision = "fp64";
  int threads = 0;

  // `grid_default` says what the command prices without --n: "" for the plain n grid above.
  void add_to(CLI::App& cmd, const std::string& grid_default = "");
  SolverOptions parsed() const;  // throws InputError naming the flag
};

}  // namespace elsbench
