#include "harness/run/case.hpp"

namespace elsbench {

std::string SweepCase::id() const {
  const auto steps = nt.steps(n);
  const std::string device_part =
      device.device.kind == Device::Kind::Cpu ? "cpu/t" + std::to_string(device.threads) : device.device.str();
  return product + "/" + solver + (scheme.empty() ? "" : ":" + scheme) + "/n=" + std::to_string(n) +
         "/nt=" + (steps ? std::to_string(*steps) : std::string("auto")) + "/" + device_part + "/" +
         to_string(precision);
}

SolverOptions SweepCase::options(const SweepGrid& grid) const {
  SolverOptions o;
  o.scheme = scheme;
  o.grid.n = n;
  o.grid.nt = nt.steps(n);
  o.grid.mesh = parse_mesh_kind(grid.mesh);
  o.grid.s_max_multiple = grid.s_max;
  o.grid.density = grid.density;
  o.grid.damping_steps = grid.damping;
  o.device = device.device;
  o.precision = precision;
  o.threads = device.device.kind == Device::Kind::Cpu ? device.threads : 0;
  return o;
}

}  // namespace elsbench
