#pragma once
// What `sweep --dry-run` says of a sweep's time before any work: each case's pricing marched at the
// rates the project measured (solvers/contract/cost_model.hpp), once untimed and then its timed
// repetitions: `repetitions` where the timing rule's target is met at once, up to as many as its
// max_seconds or max_repetitions allow where it is not. Marching only: references, error
// estimates and set-up are not counted. With a target the grids are chosen by the pilots: the
// least their searches price, a lower bound alone; so too where some case has no measured rate.
#include <cstddef>
#include <optional>
#include <string>

#include "harness/sweep/axes.hpp"
#include "harness/sweep/plan.hpp"

namespace elsbench {

struct SweepEstimate {
  double work = 0;              // point-layer-steps of one timed pricing (a book's notes) of every case
  std::size_t counted = 0;      // cases with a measured rate
  std::size_t unmeasured = 0;   // cases whose variant, precision or dimension has no rate
  std::size_t skipped = 0;      // cases planned as skipped, or that the builder refuses
  // Seconds at the fastest measured rates and the least repetitions, at each grid's own rate
  // (rate_at) and the least repetitions, and at the slowest rates and the most repetitions.
  std::optional<double> low_seconds, expected_seconds, high_seconds;
};

SweepEstimate estimate_sweep(const SweepPlan& plan, const SweepSpec& spec);
// A few lines, the last two "expected_seconds: E" and "estimate_seconds: LOW HIGH" (a lower bound
// alone "estimate_seconds: LOW"; "estimate_seconds: unmeasured" where no case has a rate), as
// `book price --dry-run` ends, for ci/cloud-sweep.sh --dry-run.
std::string describe(const SweepEstimate& estimate, const SweepSpec& spec);

}  // namespace elsbench
