#include "solvers/gpu/plan/gpu_plan.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "platform/solver_error.hpp"
#include "solvers/tridiagonal/chunked_solve.hpp"

namespace elsbench::gpu {
namespace {

// The step record of one step: the scheme's weights (adi_scheme.hpp's step_weights, as the CPU
// stepper reads them), then buffers, table and events.
GpuStep step_record(const AdiScheme& s, double dt) {
  GpuStep st;
  st.w = step_weights(s, dt);
  return st;
}

// Buffer roles from the buffer `cur` that holds X: Y1 and Yk take the other two; `out` is a
// buffer that the step's last stage does not read (gpu_step.hpp).
void assign_buffers(GpuStep& st, int dim, int cur) {
  st.x = cur;
  st.y1 = (cur + 1) % 3;
  st.yk = (cur + 2) % 3;
  if (dim == 1) {
    st.out = st.y1;  // the only stage reads X (and Yk): Y1 is free
  } else if (st.w.kind == SchemeKind::HundsdorferVerwer) {
    st.out = st.x;   // HV's last stage reads Y1 and Yk only
  } else {
    st.out = st.yk;  // Douglas: Yk unused; CS/MCS: last read of Yk was the axis-0 stage
  }
}

int table_index(std::vector<double>& keys, double theta_dt) {
  for (std::size_t t = 0; t < keys.size(); ++t)
    if (std::abs(keys[t] - theta_dt) <= kSameThetaDt * std::abs(theta_dt)) return static_cast<int>(t);
  keys.push_back(theta_dt);
  return static_cast<int>(keys.size() - 1);
}

GpuEvent to_gpu(const Problem& pb, const EventAction& e) {
  GpuEvent g;
  g.kind = e.kind;
  g.weights = static_cast<int>(e.weights);
  g.value = e.value;
  const CellFractions& side = pb.event_fractions.at(e.weights);
  g.worst_of = side.worst_of;
  g.below = side.below;
  g.at_centroid = e.at_centroid ? 1 : 0;
  return g;
}

// The actions after step j, in march.hpp's order: the events at node j + 1 (walked with the same
// cursor as the CPU march), then the continuous knock-in projection.
void add_events(GpuPlan& plan, GpuStep& st, const Problem& pb, std::size_t node, std::size_t& next) {
  st.first_event = static_cast<int>(plan.events.size());
  for (; next < pb.events.size() && pb.events[next].at_node == node; ++next) {
    plan.events.push_back(to_gpu(pb, pb.events[next]));
    if (pb.events[next].at_centroid) plan.has_lifts = true;
  }
  if (pb.continuous_knock_in) {
    EventAction knock_in;
    knock_in.kind = EventAction::Kind::KnockIn;
    knock_in.weights = pb.knock_in_weights;
    plan.events.push_back(to_gpu(pb, knock_in));
  }
  st.event_count = static_cast<int>(plan.events.size()) - st.first_event;
  if (st.event_count > 0) plan.has_events = true;
}

}  // namespace

GpuPlan make_gpu_plan(const Problem& pb, const AdiScheme& scheme) {
  if (pb.dim < 1 || pb.dim > 3)
    throw std::invalid_argument("the GPU variants handle 1 to 3 underlyings, not " + std::to_string(pb.dim));
  if (pb.time.tau.size() < 2) throw std::logic_error("make_gpu_plan: the problem has no time grid");
  // The kernels' workspaces and launch shapes are sized for two layers (alive, knocked in).
  if (pb.layers > 2)
    throw SolverError(SolverError::Kind::Unsupported,
                      "a lizard note marches three value layers (alive, lizard broken, knocked in); the GPU marches "
                      "hold two: price it with adi");
  GpuPlan plan;
  plan.dim = pb.dim;
  plan.layers = pb.layers;
  plan.n0 = static_cast<int>(pb.axes[0].size());
  plan.n1 = pb.dim >= 2 ? static_cast<int>(pb.axes[1].size()) : 1;
  plan.n2 = pb.dim == 3 ? static_cast<int>(pb.axes[2].size()) : 1;
  plan.points = static_cast<long long>(pb.points);
  plan.values = static_cast<long long>(pb.values());
  plan.layer_stride = (plan.points + kLayerAlignValues - 1) / kLayerAlignValues * kLayerAlignValues;
  plan.weight_arrays = static_cast<int>(pb.event_fractions.size());
  const AdiScheme damped = damping_scheme();
  int cur = 0;
  std::size_t next_event = 0;
  plan.steps.reserve(pb.time.steps());
  plan.events.reserve(pb.events.size() + (pb.continuous_knock_in ? pb.time.steps() : 0));
  for (std::size_t j = 0; j < pb.time.steps(); ++j) {
    const AdiScheme& s = pb.time.damped[j] ? damped : scheme;
    GpuStep st = step_record(s, pb.time.dt(j));
    assign_buffers(st, std::min(pb.dim, 2), cur);
    cur = st.out;
    st.table = table_index(plan.theta_dts, st.w.theta_dt);
    add_events(plan, st, pb, j + 1, next_event);
    if (st.two_rounds()) plan.two_rounds = true;
    plan.steps.push_back(st);
  }
  plan.final_buffer = cur;
  return plan;
}

namespace {

// Shared memory every GPU gives a block without opting in; a layout prefers to stay under it.
constexpr std::size_t kSmemNoOptIn = 48 * 1024;
// Lines per axis-0 block are chosen so that a block of this many threads has a chunk each.
constexpr int kStageThreads = 128;
// Small grids are latency-bound: spreading a stage over at least this many blocks (two per SM of
// the largest GPUs) shortens it more than fuller blocks would. Large grids reach it anyway.
constexpr int kTargetBlocks = 256;
// Fewer blocks than SMs leaves SMs idle (132 on an H100 SXM): narrower axis-1 blocks are then
// worth runs shorter than a memory sector.
constexpr int kMinBlocks = 132;

// One thread per chunk of the block's lines, in whole warps, within the launch bounds.
int threads_for(int chunk_work) {
  const int warps = ceil_div(std::max(chunk_work, 1), kWarp);
  return std::min(warps * kWarp, kMaxStageThreads);
}

// A line's right-hand side in shared memory: one padding value after each chunk, so that thread k
// reading chunk k (stride kChunk + 1) and the 32 threads of a warp fall in distinct banks.
int staged_line(int chunks) { return chunks * (kChunk + 1); }

StageLayout axis0_layout(const GpuPlan& plan, std::size_t elem) {
  StageLayout l;
  l.axis = 0;
  l.lines = plan.n1 * plan.layers;
  l.chunks = chunks_of(plan.n0);
  // Enough lines per block that kStageThreads threads have a chunk each, unless that leaves too
  // few blocks.
  l.lines_per_block = std::clamp(std::min(kStageThreads / l.chunks, l.lines / kTargetBlocks), 1, l.lines);
  l.threads = threads_for(l.lines_per_block * l.chunks);
  l.chunk_threads = l.threads;
  l.rhs_stride = staged_line(l.chunks);
  l.carry_half = l.chunks;
  l.carry_stride = 2 * l.chunks;
  l.blocks = (l.lines + l.lines_per_block - 1) / l.lines_per_block;
  l.smem_bytes = static_cast<std::size_t>(l.lines_per_block) *
                 static_cast<std::size_t>(l.rhs_stride + l.carry_stride) * elem;
  return l;
}

StageLayout axis1_layout(const GpuPlan& plan, std::size_t elem, std::size_t smem_limit) {
  StageLayout l;
  l.axis = 1;
  l.lines = plan.n0 * plan.layers;
  l.chunks = chunks_of(plan.n1);
  l.rhs_stride = staged_line(l.chunks) | 1;  // odd: neighbouring lines start in different banks
  l.carry_half = l.chunks | 1;
  l.carry_stride = 2 * l.carry_half;
  const auto smem = [&](int lines) {
    return static_cast<std::size_t>(lines) * static_cast<std::size_t>(l.rhs_stride + l.carry_stride) * elem;
  };
  const auto blocks = [&](int lines) { return (plan.n0 + lines - 1) / lines * plan.layers; };
  // 32 neighbouring lines make a warp's loads one 256-byte run (fp64); fewer when the grid would
  // give too few blocks or the staged lines would need opting in to more shared memory, down to
  // 32-byte runs (whole memory sectors: 4 lines in fp64, 8 in fp32); fewer still only when the
  // lines would not fit the shared memory at all or leave SMs idle.
  const int min_w = std::max(1, static_cast<int>(32 / elem));
  int w = 32;
  while (w > min_w && (smem(w) > kSmemNoOptIn || w / 2 >= plan.n0 || blocks(w) < kTargetBlocks)) w /= 2;
  while (w > 1 && (smem(w) > smem_limit || blocks(w) < kMinBlocks)) w /= 2;
  l.lines_per_block = w;
  l.threads = threads_for(w * l.chunks);
  l.chunk_threads = l.threads / w;
  l.blocks = blocks(w);
  l.smem_bytes = smem(w);
  return l;
}

}  // namespace

StageLayout stage_layout(const GpuPlan& plan, int axis, std::size_t element_bytes, std::size_t smem_limit) {
  if (axis == 0) return axis0_layout(plan, element_bytes);
  if (axis == 1 && plan.dim == 2) return axis1_layout(plan, element_bytes, smem_limit);
  throw std::invalid_argument("stage_layout: no axis " + std::to_string(axis));
}

int event_blocks(const GpuPlan& plan) {
  return static_cast<int>((plan.points + kEventThreads - 1) / kEventThreads);
}

double step_bytes(const GpuPlan& plan, const GpuStep& step, std::size_t element_bytes) {
  const int arrays = plan.dim == 2 ? (step.two_rounds() ? 11 : 5) : (step.two_rounds() ? 5 : 2);
  double bytes = static_cast<double>(arrays) * static_cast<double>(element_bytes) *
                 static_cast<double>(plan.values);
  bytes += static_cast<double>(step.event_count) * static_cast<double>(element_bytes) *
           static_cast<double>(plan.points);
  return bytes;
}

double march_bytes(const GpuPlan& plan, std::size_t element_bytes) {
  double total = 0;
  for (const GpuStep& s : plan.steps) total += step_bytes(plan, s, element_bytes);
  return total;
}

double floor_bytes_per_value(std::size_t element_bytes) { return 8.0 * static_cast<double>(element_bytes); }

}  // namespace elsbench::gpu
