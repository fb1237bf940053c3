#include "platform/cuda_devices.hpp"

#include <cstdio>

#ifdef ELSBENCH_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

namespace elsbench {
namespace {

// CUDA's error numbers, fixed by its ABI; checked against the headers where they are available,
// so that the classification is testable in CPU-only builds too.
constexpr int kCudaSuccess = 0;
constexpr int kCudaErrorInsufficientDriver = 35;
constexpr int kCudaErrorNoDevice = 100;
#ifdef ELSBENCH_HAVE_CUDA
static_assert(cudaSuccess == kCudaSuccess && cudaErrorInsufficientDriver == kCudaErrorInsufficientDriver &&
              cudaErrorNoDevice == kCudaErrorNoDevice);
#endif

#ifdef ELSBENCH_HAVE_CUDA
std::string uuid_string(const cudaUUID_t& u) {
  const auto* b = reinterpret_cast<const unsigned char*>(u.bytes);
  char s[64];
  std::snprintf(s, sizeof s, "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0], b[1],
                b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
  return s;
}

GpuInfo describe_device(int i, int driver, int runtime) {
  GpuInfo g;
  g.index = i;
  g.driver_version = driver;
  g.runtime_version = runtime;
  cudaDeviceProp p{};
  const cudaError_t err = cudaGetDeviceProperties(&p, i);
  if (err != cudaSuccess) {
    // Kept in the list, so that the indices stay CUDA's: cuda:i is still device i.
    g.error = std::string("cudaGetDeviceProperties failed: ") + cudaGetErrorName(err) + ": " + cudaGetErrorString(err);
    g.name = "unreadable device";
    (void)cudaGetLastError();
    return g;
  }
  g.name = p.name;
  g.uuid = uuid_string(p.uuid);
  char bus[32] = {};
  if (cudaDeviceGetPCIBusId(bus, sizeof bus, i) == cudaSuccess) g.pci_bus_id = bus;
  g.memory_bytes = p.totalGlobalMem;
  g.sm_count = p.multiProcessorCount;
  g.cc_major = p.major;
  g.cc_minor = p.minor;
  cudaDeviceGetAttribute(&g.clock_mhz, cudaDevAttrClockRate, i);
  cudaDeviceGetAttribute(&g.memory_clock_mhz, cudaDevAttrMemoryClockRate, i);
  g.clock_mhz /= 1000;
  g.memory_clock_mhz /= 1000;
  g.bus_width_bits = p.memoryBusWidth;
  return g;
}
#endif

}  // namespace

bool cuda_built() {
#ifdef ELSBENCH_HAVE_CUDA
  return true;
#else
  return false;
#endif
}

std::string cuda_version_string(int encoded) {
  if (encoded <= 0) return "none";
  return std::to_string(encoded / 1000) + "." + std::to_string((encoded % 1000) / 10);
}

CudaVersions cuda_versions() {
  CudaVersions v;
#ifdef ELSBENCH_HAVE_CUDA
  if (cudaRuntimeGetVersion(&v.runtime) != cudaSuccess) v.runtime = 0;
  if (cudaDriverGetVersion(&v.driver) != cudaSuccess) v.driver = 0;
#endif
  return v;
}

CudaPresence classify_device_count(int cuda_error, int count, int driver_version) {
  if (cuda_error == kCudaSuccess) return count > 0 ? CudaPresence::Devices : CudaPresence::NoDevice;
  if (cuda_error == kCudaErrorNoDevice) return CudaPresence::NoDevice;
  // The runtime answers "insufficient driver" both when no driver is installed (a machine without
  // a GPU) and when the installed one is too old for it (a GPU this build cannot use).
  if (cuda_error == kCudaErrorInsufficientDriver && driver_version == 0) return CudaPresence::NoDriver;
  return CudaPresence::Broken;
}

CudaProbe probe_cuda() {
  CudaProbe probe;
#ifdef ELSBENCH_HAVE_CUDA
  const CudaVersions v = cuda_versions();
  const cudaError_t err = cudaGetDeviceCount(&probe.count);
  if (err != cudaSuccess) probe.count = 0;
  probe.presence = classify_device_count(static_cast<int>(err), probe.count, v.driver);
  const std::string cuda_says =
      err == cudaSuccess ? std::string() : std::string(cudaGetErrorName(err)) + ": " + cudaGetErrorString(err);
  switch (probe.presence) {
    case CudaPresence::NoDriver: probe.reason = "no NVIDIA driver installed (" + cuda_says + ")"; break;
    case CudaPresence::NoDevice:
      probe.reason = err == cudaSuccess ? "no CUDA device found" : "no CUDA device: " + cuda_says;
      break;
    case CudaPresence::Broken:
      probe.reason = "CUDA cannot use this machine's GPU: " + cuda_says + " (driver supports CUDA " +
                     cuda_version_string(v.driver) + ", this build's runtime is CUDA " +
                     cuda_version_string(v.runtime) + (err == cudaErrorInsufficientDriver ? "; CUDA 13 needs an R580 or newer driver)" : ")");
      break;
    default: break;
  }
#else
  probe.presence = CudaPresence::NotBuilt;
  probe.reason = "built without CUDA";
#endif
  return probe;
}

std::vector<GpuInfo> cuda_devices(std::string* why_none) {
  std::vector<GpuInfo> out;
  const CudaProbe probe = probe_cuda();
  if (probe.presence != CudaPresence::Devices) {
    if (why_none) *why_none = probe.reason;
    return out;
  }
#ifdef ELSBENCH_HAVE_CUDA
  const CudaVersions v = cuda_versions();
  for (int i = 0; i < probe.count; ++i) out.push_back(describe_device(i, v.driver, v.runtime));
#endif
  return out;
}

}  // namespace elsbench
