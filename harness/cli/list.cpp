// elsbench list solvers|products|devices
#include <algorithm>
#include <iomanip>
#include <iostream>

#include "harness/cli/command.hpp"
#include "harness/machine/machine.hpp"
#include "platform/cuda_devices.hpp"
#include "products/catalog.hpp"
#include "solvers/contract/solver.hpp"

namespace elsbench {
namespace {

void list_solvers() {
  int name_width = 16;
  for (const auto& s : SolverRegistry::instance().all())
    if (!s.test_only) name_width = std::max(name_width, static_cast<int>(s.name.size()) + 2);
  constexpr int kPrecisionsWidth = 18;  // "fp64,fp32,mixed" and a gap
  std::cout << std::left << std::setw(name_width) << "solver" << std::setw(8) << "dims" << std::setw(kPrecisionsWidth)
            << "precisions" << std::setw(12) << "devices" << "status / schemes\n";
  for (const auto& s : SolverRegistry::instance().all()) {
    if (s.test_only) continue;
    std::string precisions, devices, schemes;
    for (auto p : s.precisions) precisions += std::string(precisions.empty() ? "" : ",") + to_string(p);
    for (auto d : s.devices) devices += std::string(devices.empty() ? "" : ",") + (d == Device::Kind::Cpu ? "cpu" : "cuda");
    for (const auto& x : s.schemes) schemes += (schemes.empty() ? "" : ", ") + x;
    const std::string why = s.unavailable_reason();
    std::cout << std::setw(name_width) << s.name << std::setw(8) << ("1-" + std::to_string(s.max_dim))
              << std::setw(kPrecisionsWidth) << precisions << std::setw(12) << devices
              << (why.empty() ? "available" : "unavailable: " + why)
              << (schemes.empty() ? "" : "; schemes: " + schemes) << '\n'
              << std::setw(name_width) << "" << s.description << '\n';
  }
}

void list_products() {
  std::cout << std::left << std::setw(26) << "id" << std::setw(20) << "type" << std::setw(8) << "assets"
            << "maturity\n";
  for (const auto& p : load_catalog())
    std::cout << std::setw(26) << p.id << std::setw(20) << to_string(p.type) << std::setw(8)
              << p.dimension() << p.maturity() << '\n';
}

void list_devices() {
  const MachineInfo m = describe_machine();
  std::cout << "cpu      " << m.cpu_model << ", " << m.cores << " logical cores this process may use, "
            << m.memory_bytes / (1024 * 1024) << " MiB, OpenMP wait policy " << m.omp_wait_policy << '\n';
  std::string why;
  const auto gpus = cuda_devices(&why);
  if (gpus.empty()) std::cout << "cuda     none (" << why << ")\n";
  for (const auto& g : gpus)
    std::cout << "cuda:" << g.index << "   " << g.name << ", " << g.memory_bytes / (1024 * 1024) << " MiB, "
              << g.sm_count << " SMs, compute capability " << g.cc_major << '.' << g.cc_minor
              << ", driver " << cuda_version_string(g.driver_version) << ", runtime "
              << cuda_version_string(g.runtime_version) << ", bus " << g.pci_bus_id << ", " << g.uuid
              << (g.error.empty() ? "" : ", " + g.error) << '\n';
}

void setup(CLI::App& app) {
  auto* cmd = app.add_subcommand("list", "list solvers, catalog products or devices");
  auto what = std::make_shared<std::string>();
  cmd->add_option("what", *what, "solvers | products | devices")
      ->required()
      ->check(CLI::IsMember({"solvers", "products", "devices"}));
  cmd->callback([what] {
    if (*what == "solvers") list_solvers();
    if (*what == "products") list_products();
    if (*what == "devices") list_devices();
  });
}

}  // namespace

ELSBENCH_REGISTER_COMMAND(10, setup);

}  // namespace elsbench
