#pragma once
// The one host-side builder of the PDE problem shared by all variants.
#include <optional>

#include "solvers/problem/problem.hpp"

namespace elsbench {

struct GridSpec {
  int n = 100;                      // nodes per axis
  std::optional<int> nt;            // total time steps; empty: the solver chooses
  MeshKind mesh = MeshKind::Sinh;
  double s_max_multiple = 4.0;      // S_max = multiple * max(reference or strike, spot)
  double density = 0.5;             // sinh concentration (fraction of the center level)
  int damping_steps = 2;            // implicit steps after the payoff and each autocall date
};

// Mesh, operators, event actions and payoff; the time grid is left empty (see with_time_grid).
Problem build_problem(const Product& product, const GridSpec& grid);
// Event times in tau: autocall dates before maturity, and daily monitoring dates before maturity.
std::vector<double> event_taus(const Product& product);
// Attaches a time grid and places the events and damping steps on it.
void set_time_grid(Problem& problem, TimeGrid grid, int damping_steps);

}  // namespace elsbench
