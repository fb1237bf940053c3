// The precision axis: fp64, fp32, or mixed (fp64 values, fp32 steps).
#include "harness/sweep/axis.hpp"

namespace elsbench {

ELSBENCH_SWEEP_AXIS({.key = "precisions",
                     .flag = "--precisions",
                     .help = "fp64 | fp32 | mixed",
                     .order = 70,
                     .defaults = nlohmann::json::array({"fp64"}),
                     .check = [](const std::string& v) { parse_precision(v); },
                     .enter = [](SweepCase c, const nlohmann::json& v) {
                       c.precision = parse_precision(v.get<std::string>());
                       return std::vector<SweepCase>{c};
                     }});

}  // namespace elsbench
