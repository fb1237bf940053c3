#include "harness/sweep/sweep_estimate.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <vector>

#include "harness/results/estimate_lines.hpp"
#include "platform/device.hpp"
#include "solvers/contract/accuracy.hpp"
#include "solvers/contract/cost_model.hpp"
#include "solvers/contract/memory_model.hpp"
#include "solvers/contract/registry.hpp"

namespace elsbench {
namespace {

// One pricing of one note of the case, by the grids it prices (one, or a target search's least).
std::vector<PlannedLevel> case_levels(const SweepCase& c, const Product& product, const SweepSpec& spec) {
  const SolverInfo& solver = SolverRegistry::instance().get(c.solver);
  const GridOptions grid = c.options(spec.grid).grid;
  if (spec.target) return target_levels_at_least(product, grid, solver.stepping);
  return {{static_cast<double>(c.n), planned_work(product, grid, solver.stepping)}};
}

// The timed repetitions where the noise keeps the rule's target out of reach: as many as start
// within its max_seconds, at most its max_repetitions, at least the sweep's repetitions (time_case;
// a target of 0 takes the sweep's repetitions exactly, and none are timed where they are 0).
double most_repetitions(const SweepSpec& spec, double seconds_each) {
  if (spec.repetitions == 0 || spec.timing.target <= 0) return spec.repetitions;
  const double fit = seconds_each > 0 ? std::floor(spec.timing.max_seconds / seconds_each) + 1 : 1;
  return std::max<double>(spec.repetitions, std::min<double>(spec.timing.max_repetitions, fit));
}

}  // namespace

SweepEstimate estimate_sweep(const SweepPlan& plan, const SweepSpec& spec) {
  SweepEstimate e;
  double low = 0, expected = 0, high = 0;
  for (const SweepCase& c : plan.cases) {
    const Product& product = plan.products.at(c.product);
    const SolverInfo& solver = SolverRegistry::instance().get(c.solver);
    if (!c.skip_reason.empty() || product.dimension() > solver.max_dim) {
      ++e.skipped;
      continue;
    }
    std::vector<PlannedLevel> levels;
    try {
      levels = case_levels(c, product, spec);
    } catch (const std::exception&) {
      ++e.skipped;  // the builder refuses the grid: the case fails at once
      continue;
    }
    const double layers = grid_load(product).layers, book = std::max(c.book, 1);
    const std::optional<CostRate> rate = measured_rate(c.solver, c.precision, product.dimension());
    const double parallel = c.device.is_cpu() ? resolved_threads(c.device) : 1;
    double fastest = 0, own = 0, slowest = 0;  // one note's seconds
    for (const PlannedLevel& l : levels) {
      e.work += l.work * layers * book;
      if (!rate) continue;
      const MarchSeconds t = march_seconds(*rate, l.nodes, l.work * layers / parallel);
      fastest += t.fastest;
      own += t.own;
      slowest += t.slowest;
    }
    if (!rate) {
      ++e.unmeasured;
      continue;
    }
    ++e.counted;
    // The untimed pricing is of one note (run_case); each timed repetition prices the book.
    low += fastest * (1 + book * spec.repetitions);
    expected += own * (1 + book * spec.repetitions);
    high += slowest * (1 + book * most_repetitions(spec, slowest * book));
  }
  if (e.counted == 0) return e;
  e.low_seconds = low;
  if (spec.target || e.unmeasured > 0) return e;  // a lower bound alone
  e.expected_seconds = expected;
  e.high_seconds = high;
  return e;
}

std::string describe(const SweepEstimate& e, const SweepSpec& spec) {
  std::ostringstream s;
  s << "work: " << e.work << " point-layer-steps (one timed pricing of each of " << e.counted + e.unmeasured
    << " cases" << (spec.target ? ", the least its search prices" : "") << "; " << e.skipped << " skipped)\n";
  const std::string what = " of marching, each case priced once untimed and then timed " +
                           std::to_string(spec.repetitions) + " times or, where the noise asks, up to " +
                           std::to_string(spec.timing.max_repetitions) + " times within " +
                           std::to_string(static_cast<int>(spec.timing.max_seconds)) +
                           " s (solvers/contract/cost_rates.inc: the calibration machines; a GPU's single-note march)";
  if (!e.low_seconds) {
    s << "estimate: none, no rate was measured for these cases' variants, precisions or dimensions\n";
  } else if (!e.expected_seconds) {
    s << "estimate: at least " << *e.low_seconds << " s" << what;
    if (e.unmeasured)
      s << ", for the " << e.counted << " cases with a measured rate (" << e.unmeasured << " have none)\n";
    else
      s << "; past that, the grids the pilots choose\n";
  } else {
    s << "estimate: " << *e.expected_seconds << " s (" << *e.low_seconds << " to " << *e.high_seconds << ")" << what
      << '\n';
  }
  return s.str() + estimate_lines(e.low_seconds, e.expected_seconds, e.high_seconds);
}

}  // namespace elsbench
