#pragma once
// The discretised pricing problem, built once on the host (problem_builder.hpp) and consumed by
// every variant: a variant only decides how the time steps are executed.
//
// Values live on a tensor mesh, flattened with axis 0 contiguous: index = i0 + n0 * (i1 + n1 * i2).
// Layer 0 is the note that has not knocked in; with a knock-in feature, the last layer is the note
// that has (all are marched together; a lizard adds one between them: event_kind.hpp). Time runs in tau = T - t from the payoff at tau = 0.
#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "products/product.hpp"
#include "solvers/problem/cell_fractions.hpp"
#include "products/event_kind.hpp"
#include "solvers/meshers/mesh.hpp"
#include "solvers/meshers/time_grid.hpp"
#include "solvers/operators/axis_operator.hpp"
#include "solvers/problem/spot_stencil.hpp"

namespace elsbench {

struct Axis {
  std::vector<double> s;           // nodes
  Tridiagonal op;                  // A_d, includes the share r / dim of discounting
  Tridiagonal d1;                  // S dV/dS weights, for mixed terms
  std::size_t stride = 1;          // distance between neighbours along this axis
  double spot = 0;
  SpotStencil at_spot;
  std::size_t size() const { return s.size(); }
};

// rho_ab sigma_a sigma_b S_a S_b d2V/dS_a dS_b.
struct MixedTerm {
  int a = 0, b = 1;
  double coeff = 0;
};

// Something that happens to the values at a time node. A node's cell may straddle the barrier,
// so the action is weighted by the fraction phi of the cell on the event's side of it
// (Problem::event_weights[weights]): applied at nodes alone, a barrier moves by up to half a cell
// and prices converge only at first order, erratically. That suits an event applied once (an
// autocall date); the knock-in, applied every monitoring day, sits on a cell face instead
// (phi is 0 or 1), since blending a straddling cell day after day smears the barrier.
struct EventAction {
  using Kind = EventKind;  // what each kind does at a node: event_kind.hpp
  Kind kind = Kind::Autocall;
  std::size_t at_node = 0;  // applied when the march reaches time node tau[at_node]
  double barrier = 0;
  double value = 0;
  bool inclusive = false;
  std::size_t weights = 0;     // index into Problem::event_fractions (and event_weights)
  bool at_centroid = false;    // an autocall whose cut cells take centroid_lift (cell_fractions.hpp)
};

// At most three layers: alive; knocked in; with a lizard, alive with the lizard broken
// (event_kind.hpp). A node's values of every layer, as the payoff is formed.
inline constexpr int kMaxLayers = 3;
using LayerValues = std::array<double, kMaxLayers>;

struct Problem {
  const Product* product = nullptr;
  int dim = 1;
  std::size_t points = 0;  // nodes per layer
  int layers = 1;
  std::vector<Axis> axes;
  std::vector<MixedTerm> mixed;
  TimeGrid time;
  std::vector<EventAction> events;   // sorted by node, autocalls first
  bool continuous_knock_in = false;  // knock-in projection after every step
  double knock_in_barrier = 0;
  std::vector<CellFractions> event_fractions;      // per distinct event side and barrier: per axis
  std::vector<std::vector<double>> event_weights;  // the same sides, phi per node (none: build_problems)
  std::size_t knock_in_weights = 0;  // index of the knock-in side (continuous projection)
  std::vector<double> initial;       // layers * points: the payoff at tau = 0
  std::string mesh;                  // description, e.g. "sinh 100x100, S_max 400/400"

  std::size_t values() const { return points * static_cast<std::size_t>(layers); }
  std::vector<int> shape() const;
};

}  // namespace elsbench
