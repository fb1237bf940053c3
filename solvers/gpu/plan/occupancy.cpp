#include "solvers/gpu/plan/occupancy.hpp"

#include <algorithm>
#include <limits>

#include "solvers/tridiagonal/chunked_solve.hpp"

namespace elsbench::gpu {

Occupancy stage_occupancy(const StageLayout& l, int registers_per_thread, const SmLimits& sm) {
  const int warps = ceil_div(l.threads, kWarp);
  const int regs_per_warp = ceil_div(registers_per_thread * kWarp, 256) * 256;
  const std::size_t smem_per_block = l.smem_bytes + sm.smem_reserved_per_block;
  const int by_threads = sm.max_threads / (warps * kWarp);
  const int by_registers = sm.registers / (regs_per_warp * warps);
  const int by_smem = static_cast<int>(std::min<std::size_t>(sm.smem / smem_per_block,
                                                             std::numeric_limits<int>::max()));
  Occupancy o;
  o.blocks_per_sm = sm.max_blocks;
  o.limited_by = "blocks";
  const auto limit = [&](int blocks, const char* by) {
    if (blocks < o.blocks_per_sm) {
      o.blocks_per_sm = blocks;
      o.limited_by = by;
    }
  };
  limit(by_threads, "threads");
  limit(by_registers, "registers");
  limit(by_smem, "shared memory");
  o.warps_per_sm = o.blocks_per_sm * warps;
  o.waves = o.blocks_per_sm > 0 ? static_cast<double>(l.blocks) / (o.blocks_per_sm * sm.sms) : 0.0;
  return o;
}

}  // namespace elsbench::gpu
