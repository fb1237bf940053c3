// The solvers axis: NAME, or NAME:SCHEME for one scheme of it (a scheme it lacks is a planned
// skip, set by the schemes axis). An unknown name is an error before any case runs; in a build without CUDA the GPU
// variants are unknown too, and the error says so.
#include <stdexcept>

#include "harness/sweep/axis.hpp"
#include "platform/cuda_devices.hpp"
#include "solvers/contract/solver.hpp"

namespace elsbench {
namespace {

const SolverInfo& registered(const std::string& name) {
  try {
    return SolverRegistry::instance().get(name);
  } catch (const std::invalid_argument& e) {
    if (cuda_built()) throw;
    throw std::invalid_argument(std::string(e.what()) +
                                "; this build has no CUDA, so the GPU variants are not registered "
                                "(configure with -DELSBENCH_WITH_CUDA=ON where nvcc is found)");
  }
}

std::vector<SweepCase> enter(SweepCase c, const nlohmann::json& v) {
  const std::string entry = v.get<std::string>();
  const auto colon = entry.find(':');
  const SolverInfo& info = registered(entry.substr(0, colon));
  c.solver = info.name;
  c.scheme = colon == std::string::npos ? "" : entry.substr(colon + 1);  // the schemes axis checks it
  return {c};
}

}  // namespace

ELSBENCH_SWEEP_AXIS({.key = "solvers",
                     .flag = "--solvers",
                     .help = "solvers, NAME or NAME:SCHEME (elsbench list solvers)",
                     .order = 20,
                     .enter = enter});

}  // namespace elsbench
