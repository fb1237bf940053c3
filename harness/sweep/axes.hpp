#pragma once
// The axes of a sweep. A sweep is a union of groups; each group is the product of its axes (the
// declared ones, harness/sweep/axes/: products, solvers, schemes, n, nt_rules, devices,
// precisions, book, ki_damping), so a preset can run the slow explicit solver on small grids
// only and the GPU solvers up to n = 2000. Axis values stay as the user wrote them (strings or
// whole numbers: they are recorded in the results file and read back by --resume); they enter
// cases when the sweep is planned.
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "harness/run/case.hpp"
#include "harness/run/timing.hpp"
#include "harness/run/tolerance.hpp"
#include "solvers/contract/error_target.hpp"
#include "solvers/contract/options.hpp"

namespace elsbench {

// A sweep's device: cpu (every core, resolved to cpu:tN when planned), cpu:tN or cuda:N, parsed by
// platform/device.hpp's parser; `auto` is refused (a timing must name what ran).
Device parse_sweep_device(const std::string& s);

// The values of each axis of a group, by the axis's key (an array; absent or empty: none given).
struct SweepAxes {
  std::map<std::string, nlohmann::json> values;

  const nlohmann::json& of(const std::string& key) const;  // an empty array when none
  std::vector<std::string> strings(const std::string& key) const;
  void set(const std::string& key, nlohmann::json list) { values[key] = std::move(list); }
  bool empty() const;
  // Each axis of `top` that is non-empty replaces this one's.
  void overlay(const SweepAxes& top);
};
nlohmann::json to_json(const SweepAxes& a);
// Fills the axes left empty with their defaults and checks that every value parses, so that a
// bad preset is refused before the first case runs; errors name `source` and `field`.key.
void complete(SweepAxes& a, const std::string& source, const std::string& field);

struct SweepSpec {
  std::string preset = "custom";
  std::string description;
  std::vector<SweepAxes> groups;  // each complete: every axis filled
  int repetitions = 3;  // the least timed repetitions of a case; `timing` may take more
  TimingRule timing;    // its min_repetitions is `repetitions`
  GridOptions grid;  // mesh settings shared by every case (n and nt are axes)
  ToleranceRule tolerance;
  bool error_estimate = false;  // estimate each case's discretisation error (case_run.hpp: unconverged)
  std::optional<ErrorTarget> target;  // price each case to it (case_run.hpp); its n is then not used
};

// A preset (and the copy of it in a results file's context.elsbench.sweep): its format, the
// groups and each axis's default are in docs/adding-an-axis.md, "The preset format". `source`
// names the file in errors.
SweepSpec sweep_spec_from_json(const nlohmann::json& j, const std::string& source);
nlohmann::json to_json(const SweepSpec& spec);
// The bounds of a timing rule's key (target, max_seconds, max_repetitions), one check for a
// preset's "timing" object, the sweep's flags and the Python keywords: an InputError naming
// `source` and `field` when `value` lies outside them.
void check_timing(const std::string& key, double value, const std::string& source, const std::string& field);
// A preset's "timing" object; errors name `source` and timing.KEY.
TimingRule timing_rule_from_json(const nlohmann::json& j, const std::string& source);
nlohmann::json to_json(const TimingRule& rule);

}  // namespace elsbench
