#pragma once
// How a product is put on a grid: the one declaration of the grid settings, read by the problem
// builder, the CLI flags, sweep presets and results files.
#include <optional>

#include "solvers/meshers/mesh.hpp"

namespace elsbench {

struct GridOptions {
  int n = 100;                      // nodes per axis
  std::optional<int> nt;            // total time steps; empty: the variant's rule (TimeStepping)
  MeshKind mesh = MeshKind::Sinh;
  double s_max_multiple = 4.0;      // S_max = multiple * max(reference or strike, spot)
  double density = 0.5;             // sinh concentration (fraction of the center level)
  int damping_steps = 2;            // implicit steps after the payoff and each autocall date
};

// What a variant declares about its time grid: how many steps when nt is not given, and whether
// its scheme takes the damping steps (an implicit scheme needs them after a discontinuity;
// explicit Euler damps by itself).
struct TimeStepping {
  enum class Rule {
    PerYear,         // n / 2 steps per year of maturity, at least 50 (dt ~ h for second order)
    ExplicitStable,  // the largest steps under 0.9 of the explicit Euler stability bound
  };
  Rule rule = Rule::PerYear;
  bool damping = true;
  // ExplicitStable: a given nt beyond the bound is refused (SolverError::Unstable).
};

}  // namespace elsbench
