#pragma once
// CUDA devices visible to this process (none in a CPU-only build or on a machine without a GPU).
#include <cstddef>
#include <string>
#include <vector>

namespace elsbench {

struct GpuInfo {
  int index = 0;
  std::string name;
  std::size_t memory_bytes = 0;
  int sm_count = 0;
  int cc_major = 0, cc_minor = 0;
  int clock_mhz = 0, memory_clock_mhz = 0, bus_width_bits = 0;
  int driver_version = 0, runtime_version = 0;  // CUDA's encoding, e.g. 12040
};

bool cuda_built();
// Devices found; `why_none` says why the list is empty (not built with CUDA, no driver, ...).
std::vector<GpuInfo> cuda_devices(std::string* why_none = nullptr);
std::string cuda_version_string(int encoded);  // 12040 -> "12.4"
// The CUDA runtime this binary links and the driver installed, in CUDA's encoding; 0 where there
// is none (a CPU-only build; no driver), whether or not a device is present.
struct CudaVersions {
  int runtime = 0, driver = 0;
};
CudaVersions cuda_versions();

}  // namespace elsbench
