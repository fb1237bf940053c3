// The launch shape of the adi-cuda stage kernels chosen from the grid (gpu_plan.hpp's
// stage_layout) and its occupancy estimate on an H100 SXM (occupancy.hpp), at the sizes the
// benchmarks and the GPU check run: printed (the README's table comes from this output) and
// checked against what the shape promises: few idle threads in the chunk phases, enough blocks
// to occupy every SM, shared memory within the limit, at least two blocks an SM.
#include <boost/test/unit_test.hpp>

#include "products/catalog.hpp"
#include "solvers/gpu/plan/gpu_plan.hpp"
#include "solvers/gpu/plan/occupancy.hpp"
#include "solvers/problem/problem_builder.hpp"
#include "solvers/tridiagonal/chunked_solve.hpp"

namespace elsbench::gpu {
namespace {

GpuPlan plan_for(int n) {
  GridOptions g;
  g.n = n;
  g.nt = 10;
  return make_gpu_plan(build_problem(resolve_product("sample-2a-stepdown"), g), adi_scheme("hundsdorfer-verwer"));
}

void print(int n, const char* precision, const StageLayout& l, const Occupancy& o) {
  BOOST_TEST_MESSAGE("n " << n << " " << precision << " axis " << l.axis << ": " << l.blocks << " blocks x "
                          << l.threads << " threads, " << l.lines_per_block << " lines/block, " << l.chunks
                          << " chunks/line, busy " << l.busy_threads() << "/" << l.threads << ", smem "
                          << l.smem_bytes << " B, " << kStageRegisterCap << " regs -> " << o.blocks_per_sm
                          << " blocks/SM (" << o.warps_per_sm << " warps, by " << o.limited_by << "), waves "
                          << o.waves);
}

BOOST_AUTO_TEST_CASE(launch_shapes_at_benchmark_sizes) {
  const SmLimits h100;
  for (int n : {100, 200, 300, 600, 1000, 2000}) {
    const GpuPlan plan = plan_for(n);
    for (std::size_t elem : {sizeof(double), sizeof(float)}) {
      for (int axis = 0; axis < 2; ++axis) {
        const StageLayout l = stage_layout(plan, axis, elem);
        const Occupancy o = stage_occupancy(l, kStageRegisterCap, h100);
        print(n, elem == 8 ? "fp64" : "fp32", l, o);
        BOOST_TEST(l.threads % kWarp == 0);
        BOOST_TEST(l.threads <= kMaxStageThreads);
        if (axis == 1) BOOST_TEST(l.threads % l.lines_per_block == 0);  // chunk_threads per line
        // No whole warp idles in the chunk phases.
        BOOST_TEST(l.threads - l.busy_threads() < kWarp, "n " << n << " axis " << axis);
        BOOST_TEST(l.blocks * l.lines_per_block >= l.lines);
        BOOST_TEST(l.blocks >= h100.sms, "n " << n << " axis " << axis << ": " << l.blocks << " blocks");
        BOOST_TEST(l.smem_bytes <= kDefaultSmemLimit);
        BOOST_TEST(o.blocks_per_sm >= 2);
        // The register cap of the launch bounds never limits below kMinStageBlocksPerSm blocks.
        BOOST_TEST((o.limited_by != "registers" || o.blocks_per_sm >= kMinStageBlocksPerSm));
      }
    }
  }
}

// The case: at n = 200 the axis-1 kernel launched 100 blocks (fewer than an H100's 132
// SMs) of 128 threads, most idle in the chunk phases.
BOOST_AUTO_TEST_CASE(axis1_at_n_200_occupies_every_sm) {
  const StageLayout l = stage_layout(plan_for(200), 1, sizeof(double));
  BOOST_TEST(l.blocks >= 132);
  BOOST_TEST(l.busy_threads() * 4 >= l.threads * 3);
}

// Long lines: the staged axis-1 lines take the shared memory a device allows, narrower blocks
// where it allows less (a 64 KiB sm_75), and a layout that cannot fit says so by its size.
BOOST_AUTO_TEST_CASE(axis1_width_follows_the_shared_memory_limit) {
  const GpuPlan plan = plan_for(2000);
  const StageLayout wide = stage_layout(plan, 1, sizeof(double), 227 * 1024);
  const StageLayout narrow = stage_layout(plan, 1, sizeof(double), 64 * 1024);
  BOOST_TEST(wide.lines_per_block == 4);  // 32-byte runs
  BOOST_TEST(narrow.lines_per_block < wide.lines_per_block);
  BOOST_TEST(narrow.smem_bytes <= 64u * 1024u);
  // One staged line: the right-hand side (one padding value per chunk) and the carries.
  BOOST_TEST(narrow.smem_bytes == static_cast<std::size_t>(narrow.lines_per_block) *
                                      static_cast<std::size_t>(narrow.rhs_stride + narrow.carry_stride) * 8u);
}

// The >48 KiB opt-in layouts of a 2-D grid with n0 >= 5200, checked by the plan alone (the
// emulation of 2 x 29 million values a step is out of reach; the 1-D opt-in layout of a 5400-node
// line is emulated in unit.gpu_emulation). stage_layout reads only the shape of the plan.
BOOST_AUTO_TEST_CASE(opt_in_layouts_of_a_5400_grid) {
  GpuPlan plan;
  plan.dim = 2;
  plan.layers = 2;
  plan.n0 = plan.n1 = 5400;
  const StageLayout a0 = stage_layout(plan, 0, sizeof(double));
  BOOST_TEST(a0.smem_bytes > 48u * 1024u);
  BOOST_TEST(a0.lines_per_block == 1);
  BOOST_TEST(a0.threads == kMaxStageThreads);
  const StageLayout h100 = stage_layout(plan, 1, sizeof(double), 227 * 1024);
  BOOST_TEST(h100.lines_per_block == 4);
  BOOST_TEST(h100.smem_bytes <= 227u * 1024u);
  const StageLayout dflt = stage_layout(plan, 1, sizeof(double));
  BOOST_TEST(dflt.lines_per_block == 1);  // one line takes half of the default 99 KiB
  BOOST_TEST(dflt.smem_bytes > 48u * 1024u);
  BOOST_TEST(dflt.smem_bytes <= kDefaultSmemLimit);
  for (const StageLayout& l : {a0, h100, dflt}) {
    BOOST_TEST(stage_occupancy(l, kStageRegisterCap).blocks_per_sm >= 1);
    BOOST_TEST(l.blocks * l.lines_per_block >= l.lines);
  }
}

BOOST_AUTO_TEST_CASE(occupancy_limits) {
  StageLayout l;
  l.threads = 128;
  l.blocks = 1000;
  l.smem_bytes = 0;
  // 88 registers: 2816 a warp, 23 warps' worth, 5 blocks of 4 warps (the 20 warps).
  BOOST_TEST(stage_occupancy(l, 88).warps_per_sm == 20);
  BOOST_TEST(stage_occupancy(l, 88).limited_by == "registers");
  BOOST_TEST(stage_occupancy(l, 79).warps_per_sm == 24);  // 80 a thread after rounding
  BOOST_TEST(stage_occupancy(l, 64).warps_per_sm == 32);
  l.smem_bytes = 100 * 1024;  // two blocks' worth of 228 KiB with 1 KiB reserved each
  BOOST_TEST(stage_occupancy(l, 64).blocks_per_sm == 2);
  BOOST_TEST(stage_occupancy(l, 64).limited_by == "shared memory");
  l.threads = 32;
  l.smem_bytes = 0;
  BOOST_TEST(stage_occupancy(l, 32).blocks_per_sm == 32);
  BOOST_TEST(stage_occupancy(l, 32).limited_by == "blocks");
}

}  // namespace
}  // namespace elsbench::gpu
