#pragma once
// The work of one thread block of each adi-cuda kernel, as phases that the CUDA kernels run
// between __syncthreads() (adi_cuda/adi_kernels.cu) and the CPU emulation runs thread by thread
// (emulator/gpu_emulator.hpp): the index arithmetic in one place is what a machine without a GPU
// can test. Phases (rhs staged in shared memory, chunk sums, warp carries, chunk solves, store) and
// why each axis is laid out so: solvers/gpu/README.md, "Coalescing".
#include "solvers/gpu/kernels/stage_math.hpp"
#include "solvers/gpu/plan/gpu_plan.hpp"
#include "solvers/tridiagonal/chunked_solve.hpp"

namespace elsbench::gpu {

// Everything a stage or event kernel reads: passed by value to every kernel.
template <class T>
struct MarchArgs {
  GridView<T> grid;
  const GpuStep* steps = nullptr;
  const GpuEvent* events = nullptr;
  const T* event_weights = nullptr;  // per-node weight arrays of the events, `points` apart
  const double* fractions = nullptr; // per side, per-axis fractions then lifts (MarchImage::fractions)
  T* buffers[3] = {nullptr, nullptr, nullptr};
  const T* tables[3] = {nullptr, nullptr, nullptr};  // per axis, factor tables of every theta dt in turn
  long long table_stride[3] = {0, 0, 0};
  int step_count = 0;

  ELSBENCH_HD ChunkTable<T> table(int axis, const GpuStep& s) const {
    const int n = axis == 0 ? grid.n0 : axis == 1 ? grid.n1 : grid.n2;
    return chunk_table(tables[axis] + s.table * table_stride[axis], n);
  }
};

// Right-hand side of the stage along `axis` at node (i0, i1) of `layer`: the formulas of
// stage_math.hpp on the step's buffers.
template <class T>
ELSBENCH_HD T stage_rhs_at(const MarchArgs<T>& a, const GpuStep& s, int axis, int round, int i0, int i1,
                           int layer) {
  const GridView<T>& g = a.grid;
  const StageCoefs<T> c(s);
  if (axis == 0) {
    const T* x = a.buffers[s.x];
    const T* yk = a.buffers[s.yk];
    const auto load_x = [&](int p, int q) { return x[g.index(p, q, layer)]; };
    const auto load_y = [&](int p, int q) { return yk[g.index(p, q, layer)]; };
    return first_axis_rhs(g, c, round, load_x, load_y, i0, i1);
  }
  const T* v = a.buffers[second_axis_uses_yk(s.w.kind, round) ? s.yk : s.x];
  const auto load_v = [&](int p, int q) { return v[g.index(p, q, layer)]; };
  return second_axis_rhs(g, c, a.buffers[s.y1][g.index(i0, i1, layer)], load_v, i0, i1);
}

ELSBENCH_HD int padded(int node) { return (node / kChunk) * (kChunk + 1) + node % kChunk; }

template <class T>
struct Axis0Block {
  const MarchArgs<T>& a;
  const StageLayout& l;
  const GpuStep& s;
  int round;
  int block;
  T* smem;  // l.lines_per_block * (rhs_stride + carry_stride) values

  ELSBENCH_HD int first_line() const { return block * l.lines_per_block; }
  ELSBENCH_HD int lines_here() const { return min_int(l.lines_per_block, l.lines - first_line()); }
  ELSBENCH_HD T* rhs(int li) const { return smem + static_cast<long long>(li) * l.rhs_stride; }
  ELSBENCH_HD T* z(int li) const {
    return smem + static_cast<long long>(l.lines_per_block) * l.rhs_stride +
           static_cast<long long>(li) * l.carry_stride;
  }
  ELSBENCH_HD T* v(int li) const { return z(li) + l.carry_half; }
  ELSBENCH_HD ChunkTable<T> table() const { return a.table(0, s); }

  ELSBENCH_HD void phase_rhs(int tid) const {
    const int n0 = a.grid.n0;
    for (int idx = tid; idx < lines_here() * n0; idx += l.threads) {
      const int li = idx / n0, i0 = idx - li * n0;
      const int line = first_line() + li;
      rhs(li)[padded(i0)] = stage_rhs_at(a, s, 0, round, i0, line % a.grid.n1, line / a.grid.n1);
    }
  }

  ELSBENCH_HD void phase_sums(int tid) const {
    const ChunkTable<T> t = table();
    for (int w = tid; w < lines_here() * l.chunks; w += l.threads) {
      const int li = w / l.chunks, k = w - li * l.chunks;
      const T* r = rhs(li);
      chunk_sums(t, k, [&](int j) { return r[padded(j)]; }, z(li)[k], v(li)[k]);
    }
  }

  ELSBENCH_HD void phase_solve(int tid) const {
    const ChunkTable<T> t = table();
    for (int w = tid; w < lines_here() * l.chunks; w += l.threads) {
      const int li = w / l.chunks, k = w - li * l.chunks;
      T* r = rhs(li);
      chunk_solve(t, k, carry_before(z(li), k), carry_after(v(li), k, l.chunks),
                  [&](int j) { return r[padded(j)]; }, [&](int j, T xj) { r[padded(j)] = xj; });
    }
  }

  ELSBENCH_HD void phase_store(int tid) const {
    const int n0 = a.grid.n0;
    T* out = a.buffers[stage_target(s, 0, a.grid.dim, round)];
    for (int idx = tid; idx < lines_here() * n0; idx += l.threads) {
      const int li = idx / n0, i0 = idx - li * n0;
      const int line = first_line() + li;
      out[a.grid.index(i0, line % a.grid.n1, line / a.grid.n1)] = rhs(li)[padded(i0)];
    }
  }
};

template <class T>
struct Axis1Block {
  const MarchArgs<T>& a;
  const StageLayout& l;
  const GpuStep& s;
  int round;
  int block;
  T* smem;  // l.lines_per_block * (rhs_stride + carry_stride) values

  ELSBENCH_HD int blocks_per_layer() const { return ceil_div(a.grid.n0, l.lines_per_block); }
  ELSBENCH_HD int layer() const { return block / blocks_per_layer(); }
  ELSBENCH_HD int first_i0() const { return (block % blocks_per_layer()) * l.lines_per_block; }
  ELSBENCH_HD int lines_here() const { return min_int(l.lines_per_block, a.grid.n0 - first_i0()); }
  ELSBENCH_HD bool has_line(int li) const { return li < lines_here(); }
  ELSBENCH_HD T* rhs(int li) const { return smem + static_cast<long long>(li) * l.rhs_stride; }
  ELSBENCH_HD T* z(int li) const {
    return smem + static_cast<long long>(l.lines_per_block) * l.rhs_stride +
           static_cast<long long>(li) * l.carry_stride;
  }
  ELSBENCH_HD T* v(int li) const { return z(li) + l.carry_half; }
  ELSBENCH_HD ChunkTable<T> table() const { return a.table(1, s); }

  ELSBENCH_HD void phase_rhs(int tid) const {
    const int w = l.lines_per_block;
    for (int idx = tid; idx < w * a.grid.n1; idx += l.threads) {
      const int li = idx % w, j = idx / w;
      if (has_line(li)) rhs(li)[padded(j)] = stage_rhs_at(a, s, 1, round, first_i0() + li, j, layer());
    }
  }

  ELSBENCH_HD void phase_sums(int tid) const {
    const int li = tid % l.lines_per_block;
    if (!has_line(li)) return;
    const ChunkTable<T> t = table();
    const T* r = rhs(li);
    for (int k = tid / l.lines_per_block; k < l.chunks; k += l.chunk_threads)
      chunk_sums(t, k, [&](int j) { return r[padded(j)]; }, z(li)[k], v(li)[k]);
  }

  ELSBENCH_HD void phase_solve(int tid) const {
    const int li = tid % l.lines_per_block;
    if (!has_line(li)) return;
    const int i0 = first_i0() + li;
    const GridView<T>& g = a.grid;
    const int lay = layer();
    T* out = a.buffers[stage_target(s, 1, g.dim, round)];
    const T* r = rhs(li);
    const ChunkTable<T> t = table();
    for (int k = tid / l.lines_per_block; k < l.chunks; k += l.chunk_threads)
      chunk_solve(t, k, carry_before(z(li), k), carry_after(v(li), k, l.chunks),
                  [&](int j) { return r[padded(j)]; },
                  [&](int j, T xj) { out[g.index(i0, j, lay)] = xj; });
  }
};

// The step of launch `local` of a replayed graph (solvers/gpu/cuda/march_graph.hpp), or null past
// the end of the march.
template <class T>
ELSBENCH_HD const GpuStep* current_step(const MarchArgs<T>& a, const int* step_base, int local) {
  const int j = *step_base + local;
  return j < a.step_count ? a.steps + j : nullptr;
}

// Before a step's event actions, where the first is at_centroid: its lifts, one thread per node,
// into the step's spare buffer.
template <class T>
ELSBENCH_HD void lifts_at_node(const MarchArgs<T>& a, const GpuStep& s, long long node) {
  if (node >= a.grid.points || s.event_count == 0 || !a.events[s.first_event].at_centroid) return;
  lifts_at(a.grid, a.events[s.first_event], a.event_weights, a.fractions, a.buffers[s.out], a.buffers[s.spare()], node);
}

// The event actions of a step, one thread per node.
template <class T>
ELSBENCH_HD void events_at_node(const MarchArgs<T>& a, const GpuStep& s, long long node) {
  if (node >= a.grid.points) return;
  apply_events_at(a.events + s.first_event, s.event_count, a.event_weights, a.buffers[s.out], a.buffers[s.spare()],
                  a.grid.points, a.grid.layer_stride, a.grid.layers, node);
}

}  // namespace elsbench::gpu
