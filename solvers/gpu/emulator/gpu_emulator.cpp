#include "solvers/gpu/emulator/gpu_emulator.hpp"

#include <algorithm>
#include <limits>
#include <type_traits>

#include "solvers/gpu/emulator/lockstep.hpp"
#include "solvers/gpu/kernels/batch_blocks.hpp"
#include "solvers/gpu/kernels/note_march.hpp"
#include "solvers/gpu/kernels/stage_blocks.hpp"
#include "solvers/gpu/plan/batch_image.hpp"
#include "solvers/gpu/plan/march_image.hpp"
#include "solvers/gpu/plan/on_chip_plan.hpp"
#include "solvers/tridiagonal/chunk_tables.hpp"

namespace elsbench::gpu {

namespace {

// Shared memory as a kernel finds it: whatever was there. NaN makes a read before a write show.
template <class T>
void fill_garbage(std::vector<T>& smem) {
  std::fill(smem.begin(), smem.end(), std::numeric_limits<T>::quiet_NaN());
}

template <class Phase>
void each_thread(int threads, Phase phase) {
  for (int t : random_order(threads)) phase(t);
}

}  // namespace

template <class T>
void emulate_warp_carries(T* z, T* v, const ChunkTable<T>& t) {
  warp_carries(z, v, t, LockstepWarp{});
}

namespace {

// Block b of a stage kernel, its shared memory `smem` as the block finds it.
template <class T>
void run_axis0_block(const MarchArgs<T>& a, const StageLayout& l, const GpuStep& s, int round, int b,
                     std::vector<T>& smem) {
  fill_garbage(smem);
  const Axis0Block<T> blk{a, l, s, round, b, smem.data()};
  each_thread(l.threads, [&](int t) { blk.phase_rhs(t); });
  each_thread(l.threads, [&](int t) { blk.phase_sums(t); });
  for (int li : random_order(blk.lines_here())) emulate_warp_carries(blk.z(li), blk.v(li), blk.table());
  each_thread(l.threads, [&](int t) { blk.phase_solve(t); });
  each_thread(l.threads, [&](int t) { blk.phase_store(t); });
}

template <class T>
void run_axis1_block(const MarchArgs<T>& a, const StageLayout& l, const GpuStep& s, int round, int b,
                     std::vector<T>& smem) {
  fill_garbage(smem);
  const Axis1Block<T> blk{a, l, s, round, b, smem.data()};
  each_thread(l.threads, [&](int t) { blk.phase_rhs(t); });
  each_thread(l.threads, [&](int t) { blk.phase_sums(t); });
  for (int li : random_order(blk.lines_here())) emulate_warp_carries(blk.z(li), blk.v(li), blk.table());
  each_thread(l.threads, [&](int t) { blk.phase_solve(t); });
}

template <class T>
void run_axis0(const MarchArgs<T>& a, const StageLayout& l, const GpuStep& s, int round) {
  std::vector<T> smem(l.smem_bytes / sizeof(T));
  for (int b : random_order(l.blocks)) run_axis0_block(a, l, s, round, b, smem);
}

template <class T>
void run_axis1(const MarchArgs<T>& a, const StageLayout& l, const GpuStep& s, int round) {
  std::vector<T> smem(l.smem_bytes / sizeof(T));
  for (int b : random_order(l.blocks)) run_axis1_block(a, l, s, round, b, smem);
}

// One batched stage launch: every block of every note, in a random order, each located by the
// batch's prefix sums as the batched kernel locates it; a note without work in it returns.
template <class T>
void run_batched_stage(const BatchArgs<T>& b, const GpuBatchPlan& plan, int axis, int j, int round) {
  std::vector<T> smem(plan.smem_bytes[axis] / sizeof(T));
  const long long blocks = plan.blocks(axis);
  for (int g : random_order(static_cast<int>(blocks))) {
    const BatchBlock<T> at = batch_stage_block(b, axis, g, j, round);
    if (!at.step) continue;
    if (axis == 0) {
      run_axis0_block(*at.a, *at.l, *at.step, round, at.block, smem);
    } else {
      run_axis1_block(*at.a, *at.l, *at.step, round, at.block, smem);
    }
  }
}

}  // namespace

template <class T>
std::vector<double> emulate_adi_cuda(const Problem& pb, const GpuPlan& plan) {
  MarchImage<T> im = make_march_image<T>(pb, plan);
  // The other two buffers hold garbage, as cudaMalloc leaves them: NaN shows any read before a write.
  std::vector<T> buffers[3] = {im.initial, std::vector<T>(im.initial.size(), std::numeric_limits<T>::quiet_NaN()),
                               std::vector<T>(im.initial.size(), std::numeric_limits<T>::quiet_NaN())};
  MarchArgs<T> a;
  const T* const coefs[3] = {im.coefs[0].data(), plan.dim == 2 ? im.coefs[1].data() : nullptr, nullptr};
  a.grid = make_grid_view<T>(plan, coefs, im.mixed, im.has_mixed);
  a.steps = plan.steps.data();
  a.events = plan.events.data();
  a.event_weights = im.event_weights.data();
  a.fractions = im.fractions.data();
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
    if (plan.has_lifts)
      for (long long i = 0; i < plan.points; ++i) lifts_at_node(a, s, i);
    if (s.event_count > 0)
      for (long long i = 0; i < plan.points; ++i) events_at_node(a, s, i);
  }
  return unpadded_layers(plan, buffers[plan.final_buffer], plan.layers);
}

template <class T>
std::vector<std::vector<double>> emulate_adi_cuda_batch(const std::vector<const Problem*>& problems,
                                                        const GpuBatchPlan& plan) {
  const BatchImage<T> im = make_batch_image<T>(problems, plan);
  BatchValues<T> at = batch_values(problems, plan, im);
  const T nan = std::numeric_limits<T>::quiet_NaN();
  std::vector<T> buffers[3] = {std::move(at.initial), std::vector<T>(im.value_count, nan),
                               std::vector<T>(im.value_count, nan)};
  BatchBases<T> bases;
  bases.constants = im.constants.data();
  for (int i = 0; i < 3; ++i) bases.buffers[i] = buffers[i].data();
  bases.steps = at.steps.data();
  bases.events = im.events.data();
  bases.fractions = im.fractions.data();
  const std::vector<MarchArgs<T>> notes = batch_march_args<T>(plan, im, bases);
  BatchArgs<T> b;
  b.notes = notes.data();
  b.note_count = plan.size();
  for (int d = 0; d < 2; ++d) {
    b.layouts[d] = plan.layouts[d].data();
    b.first_block[d] = plan.first_block[d].data();
  }
  b.first_event_block = plan.first_event_block.data();
  for (int j = 0; j < plan.max_steps; ++j) {
    for (int round = 1; round <= (plan.two_rounds ? 2 : 1); ++round)
      for (int axis = 0; axis < 2; ++axis)
        if (plan.blocks(axis) > 0) run_batched_stage(b, plan, axis, j, round);
    if (plan.has_lifts)
      for (int g : random_order(static_cast<int>(plan.event_blocks())))
        for (int t = 0; t < kEventThreads; ++t) batch_events_at(b, g, t, j, true);
    if (plan.has_events)
      for (int g : random_order(static_cast<int>(plan.event_blocks())))
        for (int t = 0; t < kEventThreads; ++t) batch_events_at(b, g, t, j);
  }
  std::vector<std::vector<double>> out;
  for (int k = 0; k < plan.size(); ++k) {
    const GpuPlan& note = plan.notes[static_cast<std::size_t>(k)];
    const auto first = buffers[note.final_buffer].begin() + im.notes[static_cast<std::size_t>(k)].values;
    out.push_back(unpadded_layers(note, std::vector<T>(first, first + note.buffer_values()), note.layers));
  }
  return out;
}

template <class V, class T>
OnChipEmulation emulate_book_on_chip(const std::vector<const Problem*>& problems, const GpuBatchPlan& plan,
                                     bool checked, int ctas) {
  const BatchImage<V> im = make_batch_image<V>(problems, plan, EventWeights::PerAxis);
  BatchValues<V> at = batch_values(problems, plan, im);
  std::vector<V>& values = at.initial;  // payoffs in, final values out
  BatchBases<V> bases;
  bases.constants = im.constants.data();
  bases.buffers[0] = values.data();
  bases.steps = at.steps.data();
  bases.events = im.events.data();
  bases.fractions = im.fractions.data();
  OnChipBook<V, T> book;
  std::vector<MarchArgs<V>> notes;
  MixedNotes mixed;
  UninitializedVector<float> narrow;
  if constexpr (std::is_same_v<V, T>) {
    notes = batch_march_args<V>(plan, im, bases);
    book.notes = notes.data();
  } else {
    narrow = narrowed_constants(im);
    mixed = mixed_notes(plan, im, bases, narrow.data());
    book.notes = mixed.stages.data();
    book.wide = mixed.wide.data();
  }
  const std::vector<int> order = longest_first(plan);
  book.order = order.data();
  book.note_count = plan.size();
  int queue = 0;
  const OnChipWorkspace room = on_chip_workspace(plan);
  EmulatedCta<V, T> cta(ctas * kNoteThreads<V, T>, static_cast<std::size_t>(room.scratch), queue, checked,
                        static_cast<std::size_t>(room.values));
  march_book_on_chip(book, cta);
  OnChipEmulation out;
  for (int k = 0; k < plan.size(); ++k) {
    const GpuPlan& note = plan.notes[static_cast<std::size_t>(k)];
    const auto first = values.begin() + im.notes[static_cast<std::size_t>(k)].values;
    out.values.push_back(unpadded_layers(note, std::vector<V>(first, first + note.buffer_values()), note.layers));
  }
  out.findings = cta.findings();
  return out;
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
template std::vector<std::vector<double>> emulate_adi_cuda_batch<double>(const std::vector<const Problem*>&,
                                                                         const GpuBatchPlan&);
template std::vector<std::vector<double>> emulate_adi_cuda_batch<float>(const std::vector<const Problem*>&,
                                                                        const GpuBatchPlan&);
template OnChipEmulation emulate_book_on_chip<double>(const std::vector<const Problem*>&, const GpuBatchPlan&, bool,
                                                      int);
template OnChipEmulation emulate_book_on_chip<float>(const std::vector<const Problem*>&, const GpuBatchPlan&, bool,
                                                     int);
template OnChipEmulation emulate_book_on_chip<double, float>(const std::vector<const Problem*>&, const GpuBatchPlan&,
                                                             bool, int);
template void emulate_warp_carries<double>(double*, double*, const ChunkTable<double>&);
template void emulate_warp_carries<float>(float*, float*, const ChunkTable<float>&);

}  // namespace elsbench::gpu
