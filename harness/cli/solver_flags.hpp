#pragma once
// The flags of a command that runs a solver (price): grid, scheme, device, precision, threads,
// bound to a SolverOptions. Numbers go straight into it; the named values (nt, mesh, device,
// precision) are parsed by their one parser after CLI11 has read the strings.
#include <CLI/CLI.hpp>
#include <string>

#include "solvers/contract/options.hpp"

namespace elsbench {

struct SolverFlags {
  SolverOptions options;
  std::string nt = "auto", mesh = "sinh", device = "auto", precision = "fp64";
  int threads = 0;

  void add_to(CLI::App& cmd);
  SolverOptions parsed() const;  // throws std::invalid_argument naming the flag
};

}  // namespace elsbench
