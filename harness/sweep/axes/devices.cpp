// The device axis: cpu (every core, resolved to cpu:tN when planned), cpu:tN or cuda:N.
#include "harness/sweep/axes.hpp"
#include "harness/sweep/axis.hpp"

namespace elsbench {

ELSBENCH_SWEEP_AXIS({.key = "devices",
                     .flag = "--devices",
                     .help = "cpu (all cores) | cpu:tN (N threads) | cuda:N",
                     .order = 60,
                     .defaults = nlohmann::json::array({"cpu"}),
                     .check = [](const std::string& v) { parse_sweep_device(v); },
                     .enter = [](SweepCase c, const nlohmann::json& v) {
                       c.device = parse_sweep_device(v.get<std::string>());
                       return std::vector<SweepCase>{c};
                     }});

}  // namespace elsbench
