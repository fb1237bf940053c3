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
  // Daily knock-in: implicit (damped) sub-steps that open the step after each monitoring date, and
  // the fraction of that step they take together (problem_builder.cpp, damp_after_knock_in_dates);
  // 0 sub-steps: none. Two sub-steps over 0.35 of the step: the sample ELS's time error at one step
  // a day is +0.002 at n = 200 and 400, shrinking monotonically with nt (README, Accuracy); without
  // them it is -0.019 at n = 200 and changes sign with nt.
  int knock_in_damping = 2;
  double knock_in_damping_fraction = 0.35;
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
