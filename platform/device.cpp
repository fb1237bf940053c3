#include "platform/device.hpp"

#include <omp.h>
#include <sched.h>

#include <algorithm>
#include <cerrno>
#include <stdexcept>

namespace elsbench {
namespace {

// The whole of `s` as a non-negative whole number no larger than `max`, or -1.
int whole_number(const std::string& s, int max) {
  if (s.empty() || s.size() > 9) return -1;
  int v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return -1;
    v = v * 10 + (c - '0');
  }
  return v <= max ? v : -1;
}

constexpr const char* kForms = "expected auto, cpu, cpu:tN (N threads), cuda or cuda:N";
constexpr int kMaxCudaIndex = 1023;

}  // namespace

int hardware_threads() {
  // The CPUs this process may run on (taskset, cgroups' cpusets, a batch system's binding), not
  // the machine's: the default thread count, and the free cores the noise check compares the
  // load to. Grown until the mask fits, for machines of more than CPU_SETSIZE CPUs.
  for (int cpus = CPU_SETSIZE; cpus <= (1 << 20); cpus *= 2) {
    cpu_set_t* set = CPU_ALLOC(cpus);
    const std::size_t bytes = CPU_ALLOC_SIZE(cpus);
    const bool read = sched_getaffinity(0, bytes, set) == 0;
    const int count = read ? CPU_COUNT_S(bytes, set) : 0;
    CPU_FREE(set);
    if (read) return std::max(count, 1);
    if (errno != EINVAL) break;
  }
  return omp_get_num_procs();
}

int resolved_threads(const Device& d) { return d.threads > 0 ? d.threads : hardware_threads(); }

std::string Device::str() const { return is_cpu() ? "cpu" : "cuda:" + std::to_string(index); }

std::string Device::spec() const {
  return is_cpu() ? "cpu:t" + std::to_string(resolved_threads(*this)) : str();
}

Device parse_device(const std::string& s) {
  Device d;
  if (s == "auto") {
    d.is_auto = true;
    return d;
  }
  if (s == "cpu") return d;
  if (s.rfind("cpu:t", 0) == 0) {
    d.threads = whole_number(s.substr(5), kMaxCpuThreads);
    if (d.threads < 1)
      throw std::invalid_argument("bad device '" + s + "' (" + kForms + ", 1 <= N <= 4096)");
    return d;
  }
  if (s == "cuda" || s.rfind("cuda:", 0) == 0) {
    d.kind = Device::Kind::Cuda;
    if (s.size() > 4) {
      d.index = whole_number(s.substr(5), kMaxCudaIndex);
      if (d.index < 0) throw std::invalid_argument("bad device '" + s + "' (" + kForms + ")");
    }
    return d;
  }
  throw std::invalid_argument("unknown device '" + s + "' (" + kForms + ")");
}

}  // namespace elsbench
