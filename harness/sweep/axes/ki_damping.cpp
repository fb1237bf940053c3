// The knock-in damping axis: implicit sub-steps opening the step after each daily knock-in date
// (the grid codec's ki_damping); left empty, the sweep's grid setting. The worked example of
// docs/adding-an-axis.md: a grid setting as an axis is this declaration and its test.
#include "harness/sweep/axis.hpp"
#include "solvers/problem/grid_codec.hpp"

namespace elsbench {

ELSBENCH_SWEEP_AXIS({.key = "ki_damping",
                     .flag = "--ki-damping",
                     .help = "knock-in damping sub-steps (0: none; default: the preset grid's)",
                     .order = 90,
                     .type = SweepAxis::Type::Whole,
                     .min = static_cast<long long>(grid_setting("ki_damping").lowest),
                     .max = static_cast<long long>(grid_setting("ki_damping").highest),
                     .defaults = nlohmann::json::array(),
                     .enter = [](SweepCase c, const nlohmann::json& v) {
                       if (!v.is_null()) c.grid["ki_damping"] = v;
                       return std::vector<SweepCase>{c};
                     }});

}  // namespace elsbench
