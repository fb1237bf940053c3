#include "harness/machine/build_info.hpp"
#include "harness/machine/machine.hpp"

#include <sys/utsname.h>
#include <unistd.h>

#include <cctype>
#include <fstream>
#include <set>
#include <cstdlib>

#include "platform/device.hpp"
#include "platform/host_memory.hpp"

namespace elsbench {
namespace {

std::string cpu_model_name() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) return line.substr(line.find_first_not_of(' ', colon + 1));
    }
  return "";
}

std::size_t total_memory() { return meminfo_bytes("MemTotal:"); }

std::string os_name() {
  std::ifstream in("/etc/os-release");
  std::string line, pretty;
  while (std::getline(in, line))
    if (line.rfind("PRETTY_NAME=", 0) == 0) {
      pretty = line.substr(12);
      if (pretty.size() >= 2 && pretty.front() == '"') pretty = pretty.substr(1, pretty.size() - 2);
    }
  utsname u{};
  if (uname(&u) == 0) pretty += std::string(pretty.empty() ? "" : ", ") + u.sysname + " " + u.release + " " + u.machine;
  return pretty;
}

}  // namespace

std::string omp_wait_policy() {
  // As the OpenMP runtime read it when it was loaded (the CLI and the Python package set it to
  // passive first when the user had not set it).
  const char* policy = std::getenv("OMP_WAIT_POLICY");
  return policy ? policy : "unset";
}

MachineInfo describe_machine(const std::string& instance) {
  MachineInfo m;
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) == 0) m.hostname = host;
  m.cpu_model = cpu_model_name();
  m.cores = hardware_threads();
  m.omp_wait_policy = omp_wait_policy();
  m.memory_bytes = total_memory();
  m.os = os_name();
  m.compiler = build_info().compiler;
  m.cxx_flags = build_info().cxx_flags;
  m.build_type = build_info().build_type;
  m.git_commit = build_info().git_commit;
  m.cuda_built = cuda_built();
  const CudaVersions cuda = cuda_versions();
  m.cuda_runtime = cuda_version_string(cuda.runtime);
  m.cuda_driver = cuda_version_string(cuda.driver);
  m.gpus = cuda_devices(&m.gpus_note);
  m.instance = instance;
  return m;
}

nlohmann::json to_json(const MachineInfo& m) {
  nlohmann::json gpus = nlohmann::json::array();
  for (const auto& g : m.gpus)
    gpus.push_back({{"index", g.index},
                    {"name", g.name},
                    {"uuid", g.uuid},
                    {"pci_bus_id", g.pci_bus_id},
                    {"error", g.error},
                    {"memory_bytes", g.memory_bytes},
                    {"sm_count", g.sm_count},
                    {"compute_capability", std::to_string(g.cc_major) + "." + std::to_string(g.cc_minor)},
                    {"clock_mhz", g.clock_mhz},
                    {"memory_clock_mhz", g.memory_clock_mhz},
                    {"memory_bus_bits", g.bus_width_bits},
                    {"driver", cuda_version_string(g.driver_version)},
                    {"runtime", cuda_version_string(g.runtime_version)}});
  return {{"hostname", m.hostname},     {"cpu_model", m.cpu_model},   {"cores", m.cores},
          {"omp_wait_policy", m.omp_wait_policy},
          {"memory_bytes", m.memory_bytes}, {"os", m.os},           {"compiler", m.compiler},
          {"cxx_flags", m.cxx_flags},   {"build_type", m.build_type}, {"git_commit", m.git_commit},
          {"cuda_built", m.cuda_built}, {"cuda_runtime", m.cuda_runtime}, {"cuda_driver", m.cuda_driver},
          {"gpus", gpus},               {"gpus_note", m.gpus_note},   {"instance", m.instance}};
}

namespace {

// Lower-case words of a model name joined by '-', less the marks and words that tell no machine
// apart: "Intel(R) Xeon(R) CPU @ 2.60GHz" -> "intel-xeon-2.60ghz".
std::string model_words(const std::string& model) {
  static const std::set<std::string> noise = {"r", "tm", "cpu", "processor", "nvidia", "core", "with"};
  std::string out, word;
  const auto flush = [&] {
    if (!word.empty() && !noise.count(word)) out += (out.empty() ? "" : "-") + word;
    word.clear();
  };
  for (const char c : model) {
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '.')
      word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    else
      flush();
  }
  flush();
  return out;
}

}  // namespace

std::string machine_slug(const MachineInfo& m) {
  std::string s = m.instance;
  if (s.empty()) {
    // Every cloud VM may be called "vm": the hardware tells two machines apart, the hostname not.
    s = std::to_string(m.cores) + "c-" + (m.cpu_model.empty() ? "cpu" : model_words(m.cpu_model));
    if (!m.gpus.empty()) s += "-" + std::to_string(m.gpus.size()) + "x-" + model_words(m.gpus.front().name);
  }
  for (char& c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '.' && c != '_') c = '-';
  return s.empty() ? "unknown" : s;
}

}  // namespace elsbench
