#pragma once
// A sweep's axes from the command line: every axis named there replaces that axis in every group
// of the preset. With the solvers but not the devices named (or the reverse), a group's device that
// none of its solvers runs on came with the solvers the command line replaced, so it goes.
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "harness/sweep/axes.hpp"
#include "harness/sweep/axis.hpp"

namespace elsbench {

struct SweepOverrides {
  SweepAxes axes;
  std::optional<int> repetitions;
  std::optional<double> timing_target, timing_max_seconds;  // --timing-target, --timing-max-seconds
  bool error_estimate = false;
  std::string target_error;  // --target-error; empty: none
  bool empty() const;
};
void apply_overrides(SweepSpec& spec, const SweepOverrides& o);

// Axes as a caller spells them (by axis key, each value as its flag takes it), each value checked
// by its axis; a refusal is an InputError naming `source` and the axis as `name` gives it (the
// CLI: its flag; Python: its keyword). An axis given no value is left out.
SweepAxes axes_from_text(const std::map<std::string, std::vector<std::string>>& given, const std::string& source,
                         const std::function<std::string(const SweepAxis&)>& name);

}  // namespace elsbench
