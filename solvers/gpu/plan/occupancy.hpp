#pragma once
// How many blocks of a stage kernel an SM holds at once, from the launch geometry (gpu_plan.hpp)
// and the kernels' register cap, with the limits of a CUDA occupancy calculator: threads, blocks,
// registers (allocated per warp in units of 256) and shared memory (1 KiB reserved per block).
// An estimate for planning and for the README's figures; the device's own figure
// (cudaOccupancyMaxActiveBlocksPerMultiprocessor) is what a GPU run reports.
#include <cstddef>
#include <string>

#include "solvers/gpu/plan/gpu_plan.hpp"

namespace elsbench::gpu {

// One SM's resources; the defaults are an H100 SXM's (sm_90, 132 SMs).
struct SmLimits {
  int sms = 132;
  int max_threads = 2048;
  int max_blocks = 32;
  int registers = 64 * 1024;
  std::size_t smem = 228 * 1024;
  std::size_t smem_reserved_per_block = 1024;
};

// Registers a stage kernel's thread may use under its __launch_bounds__ (64 on sm_90).
constexpr int kStageRegisterCap = 64 * 1024 / (kMaxStageThreads * kMinStageBlocksPerSm);

struct Occupancy {
  int blocks_per_sm = 0;
  int warps_per_sm = 0;
  std::string limited_by;  // "threads", "blocks", "registers" or "shared memory"
  double waves = 0;        // blocks / (blocks_per_sm x sms): under 1, some SMs idle
};

Occupancy stage_occupancy(const StageLayout& l, int registers_per_thread, const SmLimits& sm = {});

}  // namespace elsbench::gpu
