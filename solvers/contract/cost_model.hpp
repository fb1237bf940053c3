#pragma once
// What a pricing's march costs, from rates the project measured (benchmarks/calibrate_cost.py
// writes solvers/contract/cost_rates.inc with its machine, commit and date): nanoseconds per
// point-layer-step per solver, precision and dimension, on one CPU thread or one GPU.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "products/product.hpp"
#include "solvers/contract/options.hpp"
#include "solvers/problem/grid_options.hpp"

namespace elsbench {

struct CostRate {
  const char* solver;
  Precision precision;
  int dim;
  double fastest_ns;  // the fastest over the grid sizes measured: what a lower bound takes
  double slowest_ns;  // the slowest: how far the fastest may be from one pricing's rate there
  std::vector<std::pair<int, double>> sizes;  // nodes per axis: ns, as measured, by size
};

// The measured rate of this variant, if the calibration covered it.
std::optional<CostRate> measured_rate(const std::string& solver, Precision precision, int dim);
// The rate expected on `nodes` per axis: between the sizes measured, interpolated in log n; beyond
// them, the nearest one's.
double rate_at(const CostRate& rate, double nodes);
// The seconds of `work` point-layer-steps on `nodes` per axis, on one CPU thread or one GPU: at the
// row's fastest rate, at its own size's (rate_at) and at its slowest. The plans' one estimate.
struct MarchSeconds {
  double fastest = 0, own = 0, slowest = 0;
};
MarchSeconds march_seconds(const CostRate& rate, double nodes, double work);

// One pricing's march on `grid`, layers apart: its points x its planned time grid's march steps (a
// damped step counts half) under the solver's `stepping`. Throws where the builder refuses the grid
// (plan_problem).
double planned_work(const Product& product, const GridOptions& grid, const TimeStepping& stepping = {});

// A time no pricing of `work` point-layer-steps can beat on a machine up to kFasterMachine times
// the calibration machine's speed per thread (or GPU): the measured fastest rate over that, with
// the threads' perfect scaling. Unmeasured variants fall back to bounds no device reaches.
constexpr double kFasterMachine = 4.0;
double lower_bound_seconds(const std::string& solver, Precision precision, int dim, const Device& device, double work);

}  // namespace elsbench
