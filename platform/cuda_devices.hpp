#pragma once
// CUDA devices visible to this process (none in a CPU-only build or on a machine without a GPU).
// Devices are numbered as the CUDA runtime numbers them (cuda:i is cudaSetDevice(i)); that order
// is CUDA_DEVICE_ORDER's (fastest first unless PCI_BUS_ID is set), not necessarily nvidia-smi's,
// so each device also carries its UUID and PCI bus id, which name it unambiguously.
#include <cstddef>
#include <string>
#include <vector>

namespace elsbench {

struct GpuInfo {
  int index = 0;
  std::string name;
  std::string uuid;        // "GPU-xxxxxxxx-...", as nvidia-smi -L prints it
  std::string pci_bus_id;  // "0000:3b:00.0", as nvidia-smi prints it
  std::string error;       // non-empty when the device exists but its properties could not be read
  std::size_t memory_bytes = 0;
  int sm_count = 0;
  int cc_major = 0, cc_minor = 0;
  int clock_mhz = 0, memory_clock_mhz = 0, bus_width_bits = 0;
  int driver_version = 0, runtime_version = 0;  // CUDA's encoding, e.g. 12040
};

// What cudaGetDeviceCount says about this machine. Only NotBuilt, NoDriver and NoDevice mean
// "there is no GPU here"; Broken means there is one (or a driver) that this build cannot use,
// e.g. a driver older than the toolkit (CUDA 13 needs an R580 or newer driver).
enum class CudaPresence { NotBuilt, NoDriver, NoDevice, Devices, Broken };

struct CudaProbe {
  CudaPresence presence = CudaPresence::NotBuilt;
  int count = 0;
  std::string reason;  // why there is no usable device; empty with Devices
};

// The presence that cudaGetDeviceCount's result means, in CUDA's error numbering (0 success,
// 100 cudaErrorNoDevice, 35 cudaErrorInsufficientDriver), given the installed driver's CUDA
// version (cudaDriverGetVersion: 0 when no driver is installed at all).
CudaPresence classify_device_count(int cuda_error, int count, int driver_version);
CudaProbe probe_cuda();

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
