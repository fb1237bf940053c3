#pragma once
// The machine descriptor written into every results file: what ran, where, built how. Nothing is
// guessed: a field that cannot be read is left empty, and the cloud instance is what the user said.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "platform/cuda_devices.hpp"

namespace elsbench {

struct MachineInfo {
  std::string hostname;
  std::string cpu_model;
  int cores = 0;  // logical processors this process may use (its affinity mask)
  std::string omp_wait_policy;  // OMP_WAIT_POLICY as the OpenMP runtime read it, "unset" if none
  std::size_t memory_bytes = 0;
  std::string os;
  std::string compiler, cxx_flags, build_type, git_commit;
  bool cuda_built = false;
  std::string cuda_runtime = "none", cuda_driver = "none";  // "12.4"; "none" when absent
  std::vector<GpuInfo> gpus;
  std::string gpus_note;  // why gpus is empty
  std::string instance;  // e.g. aws:g4dn.xlarge, colab:t4; empty when not given
};

MachineInfo describe_machine(const std::string& instance = "");
// OMP_WAIT_POLICY as the OpenMP runtime read it at start: "passive", "active", or "unset".
std::string omp_wait_policy();
nlohmann::json to_json(const MachineInfo& m);
// A short name for folders: the instance if given, else cores, CPU model and GPUs
// ("2c-intel-xeon-2.60ghz", "16c-intel-xeon-platinum-8480-1x-h100-80gb-hbm3"), never the hostname.
std::string machine_slug(const MachineInfo& m);

}  // namespace elsbench
