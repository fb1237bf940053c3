#include "harness/book/book_plan.hpp"

#include <algorithm>
#include <sstream>

#include "harness/placement/book_price.hpp"
#include "harness/results/estimate_lines.hpp"
#include "platform/device.hpp"
#include "solvers/contract/cost_model.hpp"
#include "solvers/contract/memory_model.hpp"
#include "solvers/contract/registry.hpp"

namespace elsbench {

namespace {

std::string grid_rule(const BookRunSpec& spec) {
  if (spec.target)
    return "each note to " + spec.target->text + " (--target-error: the grid is chosen after each note's pilot; " +
           "the work counted is the least its search prices, the pilot and twice its nodes with their bars)";
  if (!spec.default_grid) return "grid n = " + std::to_string(spec.options.grid.n);
  return "the default grid: " + default_grid_words() + ", with each note's error bar";
}

}  // namespace

BookPlan plan_book(const Book& book, const BookRunSpec& spec) {
  const SolverInfo& solver = SolverRegistry::instance().get(spec.solver);
  BookPlan plan;
  plan.notes = book.notes.size();
  plan.bad_lines = book.bad.size();
  Device device = spec.options.device;
  if (device.is_cpu()) device.threads = spec.threads;
  plan.parallel = device.is_cpu() ? resolved_threads(device) : 1;
  double low = 0, high = 0, expected = 0;
  bool measured = true;
  for (const BookNote& n : book.notes) {
    const int dim = n.product.dimension();
    ++plan.by_assets[std::min(dim, 3)];
    if (dim > solver.max_dim) {
      ++plan.refused;
      continue;
    }
    const double layers = grid_load(n.product).layers;
    const std::vector<PlannedLevel> levels =
        pricing_levels(n.product, spec.options.grid, note_pricing(spec), solver.stepping);
    const std::optional<CostRate> rate = measured_rate(spec.solver, spec.options.precision, dim);
    for (const PlannedLevel& level : levels) {
      const double work = level.work * layers;
      plan.work += work;
      if (!rate) continue;
      const MarchSeconds t = march_seconds(*rate, level.nodes, work);
      low += t.fastest;
      expected += t.own;
      high += t.slowest;
    }
    measured = measured && rate.has_value();
  }
  if (!measured) return plan;
  plan.low_seconds = low / plan.parallel;
  if (spec.target) return plan;  // the grids past the least are not known before the pilots
  plan.high_seconds = high / plan.parallel;
  plan.expected_seconds = expected / plan.parallel;
  return plan;
}

std::string describe(const BookPlan& plan, const BookRunSpec& spec) {
  std::ostringstream s;
  s << "book: " << plan.notes << " notes (" << plan.by_assets[1] << " one-asset, " << plan.by_assets[2]
    << " two-asset, " << plan.by_assets[3] << " three-asset), " << plan.bad_lines << " bad lines\n";
  s << "pricing: " << spec.solver << ", " << to_string(spec.options.precision) << ", device "
    << spec.options.device.str() << ", " << plan.parallel
    << (spec.options.device.is_cpu() ? " threads" : " device") << ", " << grid_rule(spec) << '\n';
  if (plan.refused > 0) s << "refused: " << plan.refused << " notes have more underlyings than " << spec.solver << " takes\n";
  s << "work: " << plan.work << " point-layer-steps\n";
  if (plan.low_seconds && !plan.high_seconds) {
    s << "estimate: at least " << *plan.low_seconds << " s of marching at the fastest rate measured for " << spec.solver
      << " (solvers/contract/cost_rates.inc); how much more, each note's pilot says\n";
  } else if (plan.low_seconds) {
    s << "estimate: " << *plan.expected_seconds << " s (" << *plan.low_seconds << " to " << *plan.high_seconds
      << ") of marching at the rates measured for " << spec.solver
      << " (solvers/contract/cost_rates.inc: the calibration machines; a GPU's single-note march)\n";
  } else {
    s << "estimate: none, no rate was measured for " << spec.solver << " in " << to_string(spec.options.precision)
      << " on some of these notes' dimensions\n";
  }
  return s.str() + estimate_lines(plan.low_seconds, plan.expected_seconds, plan.high_seconds);
}

}  // namespace elsbench
