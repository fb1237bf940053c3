#pragma once
// How a product is put on a grid: the one declaration of the grid settings, read by the problem
// builder and, through its one codec (grid_codec.hpp), by the CLI flags, presets, results files,
// books and resume.
#include <optional>
#include <vector>

#include "solvers/meshers/mesh.hpp"

namespace elsbench {

struct GridOptions {
  int n = 100;                      // nodes per axis; with axis_nodes, the largest of them
  std::vector<int> axis_nodes;      // nodes of each axis (N1, N2, N3) when they differ; empty: n on every axis
  std::optional<int> nt;            // total time steps; empty: the variant's rule (TimeStepping)
  MeshKind mesh = MeshKind::Sinh;
  double s_max_multiple = 4.0;      // S_max >= multiple * max(reference or strike, spot); the model may widen it
  double density = 0.5;             // sinh concentration (fraction of the center level); at most, a short life concentrates more
  int damping_steps = 2;            // implicit (sub-)steps after the payoff and each payment date
  // Daily knock-in: implicit (damped) sub-steps that open the step after each monitoring date, and
  // the fraction of that step they take together (problem_builder.cpp, damp_after_knock_in_dates);
  // 0 sub-steps: none. Without them the sample ELS's time error changes sign with nt
  // (docs/accuracy.md).
  int knock_in_damping = 2;
  double knock_in_damping_fraction = 0.35;
  // Not a user setting (not in the codec): the error estimate prices again with the mesh carried
  // on beyond S_max to this multiple of it, its nodes below S_max unchanged, so that the price's
  // change is the truncation's alone (solvers/contract/accuracy.cpp).
  double domain_extension = 1.0;

  int nodes(int axis) const {  // nodes on axis `axis` (0-based)
    return axis_nodes.empty() ? n : axis_nodes[static_cast<std::size_t>(axis)];
  }
  double points(int dim) const {  // nodes of a dim-asset grid
    double p = 1;
    for (int d = 0; d < dim; ++d) p *= nodes(d);
    return p;
  }
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
