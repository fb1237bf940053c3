#include "solvers/contract/cost_model.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "solvers/problem/problem_builder.hpp"

namespace elsbench {
namespace {

const std::vector<CostRate> kRates = {
#include "solvers/contract/cost_rates.inc"
};

// Where no rate was measured: 0.1 ns per point-layer-step per CPU thread is under a quarter of every
// CPU rate measured (explicit 2-D's 0.81 ns the fastest, ADI's 1.6 ns); a GPU streams about 56
// bytes per point-layer-step, and 1e-11 s is beyond 5 TB/s.
constexpr double kUnmeasuredCpuNs = 0.1;
constexpr double kUnmeasuredGpuNs = 0.01;

}  // namespace

std::optional<CostRate> measured_rate(const std::string& solver, Precision precision, int dim) {
  for (const CostRate& r : kRates)
    if (solver == r.solver && precision == r.precision && dim == r.dim) return r;
  return std::nullopt;
}

double rate_at(const CostRate& rate, double nodes) {
  const auto& s = rate.sizes;
  if (s.empty()) return rate.slowest_ns;
  if (nodes <= s.front().first) return s.front().second;
  if (nodes >= s.back().first) return s.back().second;
  const auto above = std::find_if(s.begin(), s.end(), [&](const auto& p) { return p.first >= nodes; });
  const auto below = above - 1;
  const double t = std::log(nodes / below->first) / std::log(static_cast<double>(above->first) / below->first);
  return below->second + t * (above->second - below->second);
}

MarchSeconds march_seconds(const CostRate& rate, double nodes, double work) {
  return {work * rate.fastest_ns * 1e-9, work * rate_at(rate, nodes) * 1e-9, work * rate.slowest_ns * 1e-9};
}

double planned_work(const Product& product, const GridOptions& grid, const TimeStepping& stepping) {
  const Problem planned = plan_problem(product, grid, stepping);
  return static_cast<double>(planned.points) * planned.time.march_steps();
}

double lower_bound_seconds(const std::string& solver, Precision precision, int dim, const Device& device, double work) {
  const std::optional<CostRate> rate = measured_rate(solver, precision, dim);
  const double ns = rate ? rate->fastest_ns / kFasterMachine : device.is_cpu() ? kUnmeasuredCpuNs : kUnmeasuredGpuNs;
  const double parallel = device.is_cpu() ? resolved_threads(device) : 1;
  return work * ns * 1e-9 / parallel;
}

}  // namespace elsbench
