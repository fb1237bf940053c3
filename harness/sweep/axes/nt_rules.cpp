// The time-step axis: fixed:K steps, per-n:X (X*n steps) or auto (the solver's rule).
#include "harness/sweep/axis.hpp"

namespace elsbench {

ELSBENCH_SWEEP_AXIS({.key = "nt_rules",
                     .flag = "--nt-rule",
                     .help = "time steps: fixed:K | per-n:X (X*n steps) | auto",
                     .order = 50,
                     .defaults = nlohmann::json::array({"auto"}),
                     .check = [](const std::string& v) { parse_nt_rule(v); },
                     .enter = [](SweepCase c, const nlohmann::json& v) {
                       c.nt = parse_nt_rule(v.get<std::string>());
                       return std::vector<SweepCase>{c};
                     }});

}  // namespace elsbench
