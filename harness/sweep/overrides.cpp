#include "harness/sweep/overrides.hpp"

#include <algorithm>
#include <stdexcept>

#include "harness/run/price_run.hpp"
#include "platform/input_error.hpp"
#include "solvers/contract/solver.hpp"

namespace elsbench {
namespace {

// The devices of `devices` on which at least one of `solvers` runs; an unknown solver keeps them
// all (the planner names it).
std::vector<std::string> devices_run_by(const std::vector<std::string>& solvers,
                                        const std::vector<std::string>& devices) {
  std::vector<std::string> kept;
  for (const auto& d : devices) {
    Device::Kind kind;
    try {
      kind = parse_sweep_device(d).kind;
    } catch (const std::invalid_argument&) {
      return devices;  // complete() names the bad value
    }
    for (const auto& entry : solvers) {
      const SolverInfo* info = SolverRegistry::instance().find(entry.substr(0, entry.find(':')));
      if (!info || info->supports(kind)) {
        kept.push_back(d);
        break;
      }
    }
  }
  return kept;
}

}  // namespace

bool SweepOverrides::empty() const {
  return !repetitions && !timing_target && !timing_max_seconds && !error_estimate && target_error.empty() && axes.empty();
}

void apply_overrides(SweepSpec& spec, const SweepOverrides& o) {
  // Only one of solvers and devices from the command line: a group's device that none of its
  // solvers runs on came with the solvers the command line replaced (adi on the book preset's
  // cuda:0 group), so it goes; a group left without devices goes with it.
  const bool prune = o.axes.of("solvers").empty() != o.axes.of("devices").empty();
  std::vector<SweepAxes> groups;
  for (auto g : spec.groups) {
    g.overlay(o.axes);
    if (prune) g.set("devices", devices_run_by(g.strings("solvers"), g.strings("devices")));
    if (g.of("devices").empty()) continue;
    complete(g, "command line", "axes");
    if (std::none_of(groups.begin(), groups.end(), [&](const SweepAxes& h) { return h.values == g.values; }))
      groups.push_back(g);
  }
  if (groups.empty())
    throw InputError("command line", o.axes.of("solvers").empty() ? "--devices" : "--solvers",
                     "no group of the preset then pairs a solver with a device it runs on; give --solvers and "
                     "--devices together");
  spec.groups = groups;
  if (o.repetitions) {
    if (*o.repetitions < 2)
      throw InputError("command line", "--repetitions", "expected >= 2 (Google Benchmark needs two to aggregate)");
    spec.repetitions = *o.repetitions;
  }
  if (o.timing_target) {
    check_timing("target", *o.timing_target, "command line", "--timing-target");
    spec.timing.target = *o.timing_target;
  }
  if (o.timing_max_seconds) {
    check_timing("max_seconds", *o.timing_max_seconds, "command line", "--timing-max-seconds");
    spec.timing.max_seconds = *o.timing_max_seconds;
  }
  if (o.error_estimate) spec.error_estimate = true;
  if (!o.target_error.empty())
    spec.target = read_target(o.target_error, false, spec.error_estimate, "command line",
                              {"--target-error", "", "--error-estimate"});
}

SweepAxes axes_from_text(const std::map<std::string, std::vector<std::string>>& given, const std::string& source,
                         const std::function<std::string(const SweepAxis&)>& name) {
  SweepAxes axes;
  for (const auto& [key, texts] : given) {
    if (texts.empty()) continue;
    const SweepAxis* axis = find_sweep_axis(key);
    if (!axis) {
      std::string known;
      for (const SweepAxis& a : sweep_axes()) known += (known.empty() ? "" : ", ") + a.key;
      throw InputError(source, key, "not a sweep axis (known: " + known + ")");
    }
    nlohmann::json values = nlohmann::json::array();
    for (const std::string& text : texts) {
      try {
        values.push_back(axis_value_from_text(*axis, text));
      } catch (const std::invalid_argument& e) {
        throw InputError(source, name(*axis), e.what());
      }
    }
    axes.set(key, values);
  }
  return axes;
}

}  // namespace elsbench
