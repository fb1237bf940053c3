#pragma once
// Flags shared by the commands that run a solver (price, validate, sweep...): grid, scheme,
// device, precision, threads. Parsed into SolverOptions after CLI11 has read the strings.
#include <CLI/CLI.hpp>
#include <memory>
#include <string>

#include "solvers/contract/options.hpp"

namespace elsbench {

struct SolverFlags {
  std::string scheme;
  int n = 100;
  std::string nt = "auto";
  std::string mesh = "sinh";
  double s_max = 4.0;
  double density = 0.5;
  int damping = 2;
  std::string device = "auto";
  std::string precision = "fp64";
  int threads = 0;

  void add_to(CLI::App& cmd);
  SolverOptions options() const;  // throws std::invalid_argument naming the flag
};

}  // namespace elsbench
