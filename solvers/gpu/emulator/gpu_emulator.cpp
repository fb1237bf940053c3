#include "solvers/gpu/emulator/gpu_emulator.hpp"

#include <array>

#include "solvers/gpu/kernels/stage_blocks.hpp"
#include "solvers/gpu/plan/march_image.hpp"
#include "solvers/tridiagonal/chunk_tables.hpp"

namespace elsbench::gpu {

template <class T>
void emulate_warp_carries(T* z, T* v, const ChunkTable<T>& t) {
  std::array<int, kWarp> lo{}, hi{};
  std::array<Affine<T>, kWarp> f{}, prev{};
  for (int lane = 0; lane < kWarp; ++lane) {
    lane_run(lane, t.chunks, lo[lane], hi[lane]);
    f[lane] = forward_run(z, t.G, lo[lane], hi[lane]);
  }
  // __shfl_up_sync steps: every lane reads the others' values of the previous step.
  for (int off = 1; off < kWarp; off *= 2) {
    prev = f;
    for (int lane = off; lane < kWarp; ++lane) f[lane] = compose(prev[lane], prev[lane - off]);
  }
  for (int lane = 0; lane < kWarp; ++lane)
    forward_apply(z, v, t.G, t.Q, lo[lane], hi[lane], lane > 0 ? f[lane - 1].b : T(0));
  for (int lane = 0; lane < kWarp; ++lane) f[lane] = backward_run(v, t.H, lo[lane], hi[lane]);
  // __shfl_down_sync steps.
  for (int off = 1; off < kWarp; off *= 2) {
    prev = f;
    for (int lane = 0; lane + off < kWarp; ++lane) f[lane] = compose(prev[lane], prev[lane + off]);
  }
  for (int lane = 0; lane < kWarp; ++lane)
    backward_apply(v, t.H, lo[lane], hi[lane], lane + 1 < kWarp ? f[lane + 1].b : T(0));
}

namespace {

template <class T>
void run_axis0(const MarchArgs<T>& a, const StageLayout& l, const GpuStep& s, int round) {
  std::vector<T> smem(l.smem_bytes / sizeof(T));
  for (int b = 0; b < l.blocks; ++b) {
    const Axis0Block<T> blk{a, l, s, round, b, smem.data()};
    for (int t = 0; t < l.threads; ++t) blk.phase_rhs(t);
    for (int t = 0; t < l.threads; ++t) blk.phase_sums(t);
    for (int li = 0; li < blk.lines_here(); ++li) emulate_warp_carries(blk.z(li), blk.v(li), blk.table());
    for (int t = 0; t < l.threads; ++t) blk.phase_solve(t);
    for (int t = 0; t < l.threads; ++t) blk.phase_store(t);
  }
}

template <class T>
void run_axis1(const MarchArgs<T>& a, const StageLayout& l, const GpuStep& s, int round) {
  std::vector<T> smem(l.smem_bytes / sizeof(T));
  for (int b = 0; b < l.blocks; ++b) {
    const Axis1Block<T> blk{a, l, s, round, b, smem.data()};
    for (int t = 0; t < l.threads; ++t) blk.phase_sums(t);
    for (int li = 0; li < l.lines_per_block; ++li)
      if (blk.has_line(li)) emulate_warp_carries(blk.z(li), blk.v(li), blk.table());
    for (int t = 0; t < l.threads; ++t) blk.phase_solve(t);
  }
}

}  // namespace

template <class T>
std::vector<double> emulate_adi_cuda(const Problem& pb, const GpuPlan& plan) {
  MarchImage<T> im = make_march_image<T>(pb, plan);
  std::vector<T> buffers[3] = {im.initial, std::vector<T>(im.initial.size()), std::vector<T>(im.initial.size())};
  MarchArgs<T> a;
  a.grid = make_grid_view<T>(plan, im.coefs[0].data(), plan.dim == 2 ? im.coefs[1].data() : nullptr,
                             im.mixed, im.has_mixed);
  a.steps = plan.steps.data();
  a.events = plan.events.data();
  a.event_weights = im.event_weights.data();
  for (int i = 0; i < 3; ++i) a.buffers[i] = buffers[i].data();
  for (int d = 0; d < plan.dim; ++d) {
    a.tables[d] = im.tables[d].data();
    a.table_stride[d] = im.table_stride[d];
  }
  a.step_count = static_cast<int>(plan.steps.size());
  const StageLayout l0 = stage_layout(plan, 0, sizeof(T));
  const StageLayout l1 = plan.dim == 2 ? stage_layout(plan, 1, sizeof(T)) : StageLayout{};
  for (const GpuStep& s : plan.steps) {
    for (int round = 1; round <= (s.two_rounds() ? 2 : 1); ++round) {
      run_axis0(a, l0, s, round);
      if (plan.dim == 2) run_axis1(a, l1, s, round);
    }
    if (s.event_count > 0)
      for (long long i = 0; i < plan.points; ++i) events_at_node(a, s, i);
  }
  const std::vector<T>& last = buffers[plan.final_buffer];
  return std::vector<double>(last.begin(), last.end());
}

void emulate_chunked_solve(const Problem& pb, int axis, double theta_dt, std::vector<double>& x) {
  const Axis& ax = pb.axes[static_cast<std::size_t>(axis)];
  const std::vector<double> values = chunk_table_values(ax.op, theta_dt);
  const int n = static_cast<int>(ax.size());
  const ChunkTable<double> t = chunk_table(values.data(), n);
  const std::size_t lines = x.size() / ax.size();
  const std::size_t line_stride = axis == 0 ? ax.size() : 1;
  std::vector<double> z(static_cast<std::size_t>(t.chunks)), v(z.size());
  for (std::size_t line = 0; line < lines; ++line) {
    // Line `line` of the axis: its first node, then nodes ax.stride apart.
    const std::size_t first = axis == 0 ? line * line_stride
                                        : (line % ax.stride) + (line / ax.stride) * ax.stride * ax.size();
    double* y = x.data() + first;
    const auto at = [&](int j) -> double& { return y[static_cast<std::size_t>(j) * ax.stride]; };
    for (int k = 0; k < t.chunks; ++k)
      chunk_sums(t, k, [&](int j) { return at(j); }, z[static_cast<std::size_t>(k)], v[static_cast<std::size_t>(k)]);
    emulate_warp_carries(z.data(), v.data(), t);
    // Chunks in any order: each reads only its own nodes.
    for (int k = t.chunks - 1; k >= 0; --k)
      chunk_solve(t, k, carry_before(z.data(), k), carry_after(v.data(), k, t.chunks),
                  [&](int j) { return at(j); }, [&](int j, double xj) { at(j) = xj; });
  }
}

template std::vector<double> emulate_adi_cuda<double>(const Problem&, const GpuPlan&);
template std::vector<double> emulate_adi_cuda<float>(const Problem&, const GpuPlan&);
template void emulate_warp_carries<double>(double*, double*, const ChunkTable<double>&);
template void emulate_warp_carries<float>(float*, float*, const ChunkTable<float>&);

}  // namespace elsbench::gpu
