#include "platform/cuda_devices.hpp"

#ifdef ELSBENCH_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

namespace elsbench {

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

std::vector<GpuInfo> cuda_devices(std::string* why_none) {
  std::vector<GpuInfo> out;
#ifdef ELSBENCH_HAVE_CUDA
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) {
    if (why_none) *why_none = std::string("no CUDA device: ") + cudaGetErrorString(err);
    return out;
  }
  int driver = 0, runtime = 0;
  cudaDriverGetVersion(&driver);
  cudaRuntimeGetVersion(&runtime);
  for (int i = 0; i < count; ++i) {
    cudaDeviceProp p{};
    if (cudaGetDeviceProperties(&p, i) != cudaSuccess) continue;
    GpuInfo g;
    g.index = i;
    g.name = p.name;
    g.memory_bytes = p.totalGlobalMem;
    g.sm_count = p.multiProcessorCount;
    g.cc_major = p.major;
    g.cc_minor = p.minor;
    cudaDeviceGetAttribute(&g.clock_mhz, cudaDevAttrClockRate, i);
    cudaDeviceGetAttribute(&g.memory_clock_mhz, cudaDevAttrMemoryClockRate, i);
    g.clock_mhz /= 1000;
    g.memory_clock_mhz /= 1000;
    g.bus_width_bits = p.memoryBusWidth;
    g.driver_version = driver;
    g.runtime_version = runtime;
    out.push_back(g);
  }
  if (out.empty() && why_none) *why_none = "no CUDA device found";
#else
  if (why_none) *why_none = "built without CUDA";
#endif
  return out;
}

}  // namespace elsbench
