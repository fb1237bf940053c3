#pragma once
// A sweep's axes from the command line: every axis named there replaces that axis in every group
// of the preset. With the solvers but not the devices named (or the reverse), a group's device that
// none of its solvers runs on came with the solvers the command line replaced, so it goes.
#include <optional>

#include "harness/sweep/axes.hpp"

namespace elsbench {

struct SweepOverrides {
  SweepAxes axes;
  std::optional<int> repetitions;
  bool error_estimate = false;
  bool empty() const;
};
void apply_overrides(SweepSpec& spec, const SweepOverrides& o);

}  // namespace elsbench
