// The products axis: catalog ids or product JSON files. The planner loads each once (a bad file
// is refused before any case runs) and the case takes the product's id.
#include "harness/sweep/axis.hpp"

namespace elsbench {

ELSBENCH_SWEEP_AXIS({.key = "products",
                     .flag = "--products",
                     .help = "catalog ids or product JSON files",
                     .order = 10,
                     .enter = [](SweepCase c, const nlohmann::json& v) {
                       c.product = v.get<std::string>();
                       return std::vector<SweepCase>{c};
                     }});

}  // namespace elsbench
