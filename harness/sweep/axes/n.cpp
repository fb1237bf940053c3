// The grid-size axis: nodes per axis, bounded like --n of price (the grid codec's bounds).
#include "harness/sweep/axis.hpp"
#include "solvers/problem/grid_codec.hpp"

namespace elsbench {

ELSBENCH_SWEEP_AXIS({.key = "n",
                     .flag = "--n",
                     .help = "grid sizes: nodes per axis",
                     .order = 40,
                     .type = SweepAxis::Type::Whole,
                     .min = kMinNodes,
                     .max = kMaxNodes,
                     .enter = [](SweepCase c, const nlohmann::json& v) {
                       c.n = v.get<int>();
                       return std::vector<SweepCase>{c};
                     }});

}  // namespace elsbench
