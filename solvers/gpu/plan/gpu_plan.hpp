#pragma once
// The host-side plan of a GPU march: one GpuStep record per time step (dt, scheme, buffer roles,
// factor table, events), the distinct theta dt values whose factor tables are uploaded, the launch
// geometry of each stage kernel, and the memory-traffic model used to report bandwidth. Built from
// the same Problem and time grid as the CPU `adi` solver, so that both march the same steps.
#include <cstddef>
#include <vector>

#include "platform/hd.hpp"
#include "solvers/gpu/plan/gpu_step.hpp"
#include "solvers/problem/problem.hpp"
#include "solvers/schemes/adi_scheme.hpp"

namespace elsbench::gpu {

struct GpuPlan {
  int dim = 2, layers = 1;
  int n0 = 0, n1 = 1, n2 = 1;        // n1 = 1 in 1-D, n2 = 1 below 3-D
  long long points = 0, values = 0;  // nodes per layer; all layers
  // Values from one layer's first node to the next's in the device buffers: points rounded up to
  // kLayerAlignValues, so that every layer starts 128-byte aligned (the buffers themselves are
  // 256-byte aligned by cudaMalloc): coalesced rows in every layer, aligned per-layer pointers
  // for the library calls of the cuSPARSE variants. The padding is never read.
  long long layer_stride = 0;
  long long buffer_values() const { return layer_stride * layers; }
  std::vector<GpuStep> steps;
  std::vector<double> theta_dts;     // factor table t is for theta_dts[t]
  std::vector<GpuEvent> events;
  bool two_rounds = false;           // some step runs a second round (CS, MCS, HV)
  bool has_events = false;           // some step has an action
  bool has_lifts = false;            // some step's first action is at_centroid (GpuEvent)
  int weight_arrays = 0;             // per-node event weight arrays (Problem::event_weights)
  int final_buffer = 0;              // where the values are after the last step
};

// 32 values: 128 bytes of fp32, 256 of fp64.
constexpr int kLayerAlignValues = 32;

// Steps whose theta dt agree to this relative tolerance share one factor table: time grids
// repeat the same dt up to rounding (1e-16 relative), and a 1e-12 change of theta dt moves the
// solution by far less than the 1e-9 agreement required with the CPU.
constexpr double kSameThetaDt = 1e-12;

// `pb` must carry its time grid (set_time_grid); `scheme` is the undamped scheme. Three
// underlyings are the on-chip book march's only: their plan has no buffer roles for the stage
// kernels, which refuse it.
GpuPlan make_gpu_plan(const Problem& pb, const AdiScheme& scheme);

// Launch geometry of a stage kernel along `axis` (0 or 1), chosen from the grid: a block takes
// `lines_per_block` lines (axis 0: whole contiguous lines; axis 1: neighbouring strided lines, so
// a warp's loads at one node are contiguous, `chunk_threads` threads a line) and stages their
// right-hand sides in shared memory, each input read once from global memory. Threads: one per
// chunk of the block's lines, rounded up to a warp, at most kMaxStageThreads (__launch_bounds__).
struct StageLayout {
  int axis = 0;
  int lines = 0;               // lines of the axis, all layers
  int lines_per_block = 1;
  int chunk_threads = 1;       // threads per line (axis 1)
  int threads = 128;
  int blocks = 0;
  int chunks = 0;              // chunks per line
  int rhs_stride = 0;          // shared values per line of staged right-hand side
  int carry_stride = 0;        // shared values per line of carries: z then v, each `carry_half`
  int carry_half = 0;
  std::size_t smem_bytes = 0;
  // Threads with a chunk in the chunk phases (sums, solve) of a full block.
  int busy_threads() const { return min_int(threads, lines_per_block * chunks); }
};

// The kernels' launch bounds: at most this many threads a block, and registers capped so that
// kMinStageBlocksPerSm such blocks fit an SM's 64 K registers (64 a thread: 32 warps an SM).
constexpr int kMaxStageThreads = 256;
constexpr int kMinStageBlocksPerSm = 4;
// Shared memory a stage block may use by default: 99 KiB, what an sm_86/sm_89 GPU allows a block
// when the kernel opts in (sm_80: 163 KiB, sm_90: 227 KiB, sm_75: 64 KiB); the CUDA march passes
// its device's own limit. A layout needing more than 48 KiB opts in (adi_kernels.cu).
constexpr std::size_t kDefaultSmemLimit = 99 * 1024;
StageLayout stage_layout(const GpuPlan& plan, int axis, std::size_t element_bytes,
                         std::size_t smem_limit = kDefaultSmemLimit);

// Launch geometry of the event kernel: one thread per node of a layer.
constexpr int kEventThreads = 256;
int event_blocks(const GpuPlan& plan);
// Whether step s's actions start with a centroid autocall, whose lifts a launch before them writes
// (GpuEvent::at_centroid): for a march that knows its steps on the host.
inline bool step_lifts(const GpuPlan& plan, const GpuStep& s) {
  return s.event_count > 0 && plan.events[static_cast<std::size_t>(s.first_event)].at_centroid != 0;
}

// Memory-traffic model: the bytes a step moves between the GPU and its memory with the fused
// kernels, each array a stage reads or writes counted once (values of all layers): Douglas and
// damped steps 5 arrays, CS/MCS/HV 11 (2-D; 1-D 2 and 5), each event its weight array; the values
// an event changes are not counted. The stages read each array once (solvers/gpu/README.md,
// "Bytes per value per step", has the stage-by-stage count).
double step_bytes(const GpuPlan& plan, const GpuStep& step, std::size_t element_bytes);
double march_bytes(const GpuPlan& plan, std::size_t element_bytes);
// The bandwidth floor: 64 bytes per value per step in fp64 (8 arrays), 32 in fp32.
double floor_bytes_per_value(std::size_t element_bytes);

}  // namespace elsbench::gpu
