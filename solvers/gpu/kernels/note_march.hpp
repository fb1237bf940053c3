#pragma once
// The on-chip book march: one CTA takes a note from the book's queue (longest schedule first),
// marches its whole schedule (stages, rounds, events) with the note's state in its workspace
// (shared memory when it fits, else its own slice of a global array), then takes the next. The
// body is written once, against a CTA policy (below), and run unchanged by the CUDA kernel
// (adi_cuda/note_kernel.cu) and the CPU emulator (emulator/cta_emulator.hpp). A step of a layer,
// buffer by buffer: solvers/gpu/README.md, "The on-chip book march"; the formulas are
// stage_math.hpp's, so the march agrees with the CPU `adi` to rounding.
#include "solvers/gpu/kernels/stage_blocks.hpp"
#include "solvers/problem/cell_fractions.hpp"

namespace elsbench::gpu {

// Threads of a CTA of the on-chip march, per precision (V the values', T the stages'): the most
// whose register cap (64 K registers / threads, __launch_bounds__) leaves ptxas without spills
// (tests/cuda/static_budgets.sh checks it in CUDA builds; figures in solvers/gpu/README.md).
constexpr int kNoteThreadsFp64 = 256, kNoteThreadsMixed = 384, kNoteThreadsFp32 = 384;
template <class V, class T = V>
constexpr int kNoteThreads = sizeof(T) == 8 ? kNoteThreadsFp64 : sizeof(V) == 8 ? kNoteThreadsMixed : kNoteThreadsFp32;

// A note's state in its CTA's workspace: the layers of X (values, in V), then the scratch (in T):
// A and B, and the chunk carries z and v of one layer's lines. A row (fixed i1, and i2 in 3-D:
// row r = i1 + n1 i2) is n0 values, one more when n0 is even: the lanes of a warp that solve the
// same chunk of neighbouring rows (chunk_item) then read addresses an odd stride apart, which
// fall in 32 different banks (16 bank pairs twice in fp64); along the other axes they read
// neighbouring columns, neighbouring addresses.
struct NoteLayout {
  int dim = 2, layers = 1, n0 = 0, n1 = 1, n2 = 1;
  int row = 0;         // values from one row to the next
  int rows = 1;        // n1 n2
  long long layer = 0; // values of one array
  long long carries = 0;

  ELSBENCH_HD long long at(int i0, int r) const { return static_cast<long long>(r) * row + i0; }
  ELSBENCH_HD long long x(int l) const { return layer * l; }  // in the values
  ELSBENCH_HD long long x_values() const { return layer * layers; }
  ELSBENCH_HD long long a() const { return 0; }  // in the scratch
  ELSBENCH_HD long long b() const { return layer; }
  ELSBENCH_HD long long z() const { return 2 * layer; }
  ELSBENCH_HD long long v() const { return z() + carries; }
  ELSBENCH_HD long long scratch_values() const { return v() + carries; }
  ELSBENCH_HD int size(int axis) const { return axis == 0 ? n0 : axis == 1 ? n1 : n2; }
  ELSBENCH_HD int lines(int axis) const { return axis == 0 ? rows : axis == 1 ? n0 * n2 : n0 * n1; }
  // Axis `axis`'s line li at its node j: the node's i0 and row. Lines of axes 1 and 2 take
  // neighbouring i0 for neighbouring li.
  ELSBENCH_HD void line_point(int axis, int li, int j, int& i0, int& r) const {
    if (axis == 0) {
      i0 = j;
      r = li;
    } else if (axis == 1) {
      i0 = li % n0;
      r = j + n1 * (li / n0);
    } else {
      i0 = li % n0;
      r = li / n0 + n1 * j;
    }
  }
  ELSBENCH_HD long long line_node(int axis, int li, int j) const {
    int i0, r;
    line_point(axis, li, j, i0, r);
    return at(i0, r);
  }
};

ELSBENCH_HD NoteLayout note_layout(int dim, int layers, int n0, int n1, int n2) {
  NoteLayout l;
  l.dim = dim;
  l.layers = layers;
  l.n0 = n0;
  l.n1 = n1;
  l.n2 = n2;
  l.row = n0 | 1;
  l.rows = n1 * n2;
  l.layer = static_cast<long long>(l.row) * l.rows;
  for (int axis = 0; axis < dim; ++axis) {
    const long long c = static_cast<long long>(l.lines(axis)) * chunks_of(l.size(axis));
    if (c > l.carries) l.carries = c;
  }
  return l;
}

// A mixed note's values (payoff in, final values out, laid out as the buffers) and its operators
// in V, for the first pass of each step (D0 = dt F X).
template <class V>
struct WideNote {
  V* values = nullptr;
  GridView<V> grid;
};

// Everything the on-chip march reads: each note's arguments (MarchArgs in the stages' precision:
// grid, steps, events, factor tables, per-axis fractions; unless mixed, buffers[0] holds the
// payoff in and the final values out), a mixed book's WideNote per note, and the order in which
// the queue hands the notes out.
template <class V, class T = V>
struct OnChipBook {
  const MarchArgs<T>* notes = nullptr;
  const WideNote<V>* wide = nullptr;  // mixed (V wider than T) only
  const int* order = nullptr;         // queue position -> note, longest schedule first
  int note_count = 0;
};

// f(i0, i1) for the nodes of thread tid in a node phase: consecutive threads take consecutive
// slots of the workspace's rows, the pad slot of a row left idle, so that a warp's accesses are
// contiguous (no bank conflicts) wherever it starts.
template <class Cta, class F>
ELSBENCH_HD void nodes_of(Cta& cta, const NoteLayout& L, int tid, int threads, F f) {
  for (long long slot = tid; slot < L.layer; slot += threads) {
    cta.item(slot / threads);
    const int i1 = static_cast<int>(slot / L.row), i0 = static_cast<int>(slot - static_cast<long long>(i1) * L.row);
    if (i0 < L.n0) f(i0, i1);
  }
}

// The work item of a chunk phase: line li's chunk k, neighbouring lines in neighbouring lanes
// (NoteLayout: no bank conflicts along either axis).
ELSBENCH_HD void chunk_item(int item, int lines, int& li, int& k) {
  li = item % lines;
  k = item / lines;
}

// One implicit stage along `axis` for one layer: the right-hand side rhs(i0, i1) staged in the
// scratch array at `staged`, the lines solved with the chunked method (chunked_solve.hpp), each
// node's solution handed to store(i0, i1, x) (which may write `staged` at that node). rhs may
// read `staged` at its own node only.
template <class T, class Cta, class Rhs, class Store>
ELSBENCH_HD void solve_lines_into(Cta& cta, const NoteLayout& L, int axis, const ChunkTable<T>& t, long long staged,
                                  Rhs rhs, Store store) {
  const int lines = L.lines(axis);
  const int chunks = t.chunks;
  const int items = lines * chunks;
  const int threads = cta.threads();
  cta.phase([&](int tid) { nodes_of(cta, L, tid, threads, [&](int i0, int i1) { cta.set(staged + L.at(i0, i1), rhs(i0, i1)); }); });
  cta.phase([&](int tid) {
    for (int item = tid; item < items; item += threads) {
      cta.item(item / threads);
      int li, k;
      chunk_item(item, lines, li, k);
      T z, v;
      chunk_sums(t, k, [&](int j) { return cta.get(staged + L.line_node(axis, li, j)); }, z, v);
      cta.set(L.z() + static_cast<long long>(li) * chunks + k, z);
      cta.set(L.v() + static_cast<long long>(li) * chunks + k, v);
    }
  });
  cta.warps([&](int warp, const auto& lanes) {
    for (int li = warp; li < lines; li += cta.warp_count()) {
      const long long first = static_cast<long long>(li) * chunks;
      warp_carries(cta.span(L.z() + first, chunks, warp), cta.span(L.v() + first, chunks, warp), t, lanes);
    }
  });
  cta.phase([&](int tid) {
    for (int item = tid; item < items; item += threads) {
      cta.item(item / threads);
      int li, k;
      chunk_item(item, lines, li, k);
      const long long first = static_cast<long long>(li) * chunks;
      const T before = k > 0 ? cta.get(L.z() + first + k - 1) : T(0);
      const T after = k + 1 < chunks ? cta.get(L.v() + first + k + 1) : T(0);
      chunk_solve(
          t, k, before, after, [&](int j) { return cta.get(staged + L.line_node(axis, li, j)); },
          [&](int j, T xj) {
            int i0, r;
            L.line_point(axis, li, j, i0, r);
            store(i0, r, xj);
          });
    }
  });
}

// The same, the solution written to the scratch array at `out` (which may be `staged`).
template <class T, class Cta, class Rhs>
ELSBENCH_HD void solve_lines(Cta& cta, const NoteLayout& L, int axis, const ChunkTable<T>& t, long long staged,
                             long long out, Rhs rhs) {
  solve_lines_into(cta, L, axis, t, staged, rhs, [&](int i0, int i1, T x) { cta.set(out + L.at(i0, i1), x); });
}

// The stages of a step of one layer, round by round: axis 0 stages first(round) in A and solves
// in place, each later axis but the last stages later(round, axis) in A and solves in place, and
// the last axis (1-D: axis 0) hands its solution to into_b (Yk) after the first of two rounds,
// else to out.
template <class T, class Cta, class First, class Later, class ToB, class Out>
ELSBENCH_HD void stages(Cta& cta, const MarchArgs<T>& a, const NoteLayout& L, const GpuStep& s, First first,
                        Later later, ToB into_b, Out out) {
  const long long A = L.a();
  const bool two = s.two_rounds();
  const int last = a.grid.dim - 1;
  const auto last_rhs = [&](int round) {
    return [&, round](int i0, int r) { return last == 0 ? first(round)(i0, r) : later(round, last)(i0, r); };
  };
  for (int round = 1; round <= (two ? 2 : 1); ++round) {
    if (last > 0) solve_lines(cta, L, 0, a.table(0, s), A, A, first(round));
    for (int axis = 1; axis < last; ++axis) solve_lines(cta, L, axis, a.table(axis, s), A, A, later(round, axis));
    if (round == 1 && two) {
      solve_lines_into(cta, L, last, a.table(last, s), A, last_rhs(round), into_b);
    } else {
      solve_lines_into(cta, L, last, a.table(last, s), A, last_rhs(round), out);
    }
  }
}

// Step s of layer l (stages above); X is in the values, V = T. Node (i0, r): r the row. A later
// axis stages A - theta dt F_d v; the last one's solution goes to X.
template <class T, class Cta>
ELSBENCH_HD void step_layer(Cta& cta, const MarchArgs<T>& a, const NoteLayout& L, const GpuStep& s, int l) {
  const GridView<T>& g = a.grid;
  const StageCoefs<T> c(s);
  const long long X = L.x(l), A = L.a(), B = L.b();
  const auto at_x = [&](int p, int q) { return cta.value(X + L.at(p, q)); };
  const auto at_b = [&](int p, int q) { return cta.get(B + L.at(p, q)); };
  const auto first_axis = [&](int round) {
    return [&, round](int i0, int r) { return first_axis_rhs(g, c, round, at_x, at_b, i0, r); };
  };
  const auto later_axis = [&](int round, int axis) {
    return [&, round, axis](int i0, int r) {
      const T y = cta.get(A + L.at(i0, r));
      return second_axis_uses_yk(s.w.kind, round) ? later_axis_rhs(g, c, axis, y, at_b, i0, r)
                                                  : later_axis_rhs(g, c, axis, y, at_x, i0, r);
    };
  };
  const auto into_x = [&](int i0, int r, T v) { cta.set_value(X + L.at(i0, r), v); };
  const auto into_b = [&](int i0, int r, T v) { cta.set(B + L.at(i0, r), v); };
  stages(cta, a, L, s, first_axis, later_axis, into_b, into_x);
}

// Step s of layer l of a mixed march (the CPU adi's step_increments): X stays in V and the stages
// run in T on its increment D = Y - X. D0 = dt F X from the operators in V, rounded once; round 1
// solves (I - theta dt A_d) D_d = D_{d-1}; round 2 starts from D0 + corr_mixed F_0 Dk +
// corr_full F Dk, HV's stages subtracting theta dt F_d Dk; then X += the last stage's D. A step's
// change is small beside the values, so T's rounding costs V's accuracy little.
template <class V, class T, class Cta>
ELSBENCH_HD void step_layer_increments(Cta& cta, const MarchArgs<T>& a, const GridView<V>& wide,
                                       const NoteLayout& L, const GpuStep& s, int l) {
  const GridView<T>& g = a.grid;
  const StageCoefs<T> c(s);
  const V dt = static_cast<V>(s.w.dt);
  const long long X = L.x(l), A = L.a(), B = L.b();
  // HV's round-2 stages subtract F_d Yk, here F_d Dk (second_axis_uses_yk: the fp64 march's rule).
  const bool hv = second_axis_uses_yk(s.w.kind, 2);
  const auto at_x = [&](int p, int q) { return cta.value(X + L.at(p, q)); };
  const auto at_b = [&](int p, int q) { return cta.get(B + L.at(p, q)); };
  const auto d0 = [&](int i0, int r) { return static_cast<T>(dt * node_terms(wide, at_x, i0, r).full(g.dim)); };
  const auto first_axis = [&](int round) {
    return [&, round](int i0, int r) {
      if (round == 1) return d0(i0, r);
      const NodeTerms<T> dk = node_terms(g, at_b, i0, r);
      const T d = (d0(i0, r) + c.corr_mixed * dk.mixed) + c.corr_full * dk.full(g.dim);
      return hv ? d - c.theta_dt * dk.a0 : d;
    };
  };
  const auto later_axis = [&](int round, int axis) {
    return [&, round, axis](int i0, int r) {
      const T d = cta.get(A + L.at(i0, r));
      return second_axis_uses_yk(s.w.kind, round) ? later_axis_rhs(g, c, axis, d, at_b, i0, r) : d;
    };
  };
  const auto add_to_x = [&](int i0, int r, T d) {
    const long long at = X + L.at(i0, r);
    cta.set_value(at, cta.value(at) + static_cast<V>(d));
  };
  const auto into_b = [&](int i0, int r, T d) { cta.set(B + L.at(i0, r), d); };
  stages(cta, a, L, s, first_axis, later_axis, into_b, add_to_x);
}

// phi of event e at node (i0, row r), in V, from its side's per-axis fractions, as the CPU forms it.
template <class V, class T>
ELSBENCH_HD V event_fraction(const MarchArgs<T>& a, const GpuEvent& e, int i0, int r) {
  double at[3];
  node_axes(a.grid, side_fractions(a.grid, a.fractions, e.weights), i0, r, at);
  return static_cast<V>(cell_fraction(at, a.grid.dim, e.worst_of, e.below));
}

// A centroid autocall (the step's first action: GpuEvent) on layer l: its cut cells' lifts into
// the scratch's A, then the action. It reads no other layer and comes first, so taking it a
// layer at a time before the others is the order of apply_events_at.
template <class V, class T, class Cta>
ELSBENCH_HD void autocall_at_centroid(Cta& cta, const MarchArgs<T>& a, const NoteLayout& L, const GpuEvent& e, int l) {
  const long long X = L.x(l), A = L.a();
  cta.phase([&](int tid) {
    nodes_of(cta, L, tid, cta.threads(), [&](int i0, int r) {
      const V phi = event_fraction<V>(a, e, i0, r);
      if (phi == V(0) || phi == V(1)) return;
      const long long node = L.at(i0, r);
      const double lift = lift_at(a.grid, a.fractions, e.weights, i0, r, L.row,
                                  [&](long long k) { return cta.value(X + node + k); });
      cta.set(A + node, static_cast<T>(lift));
    });
  });
  cta.phase([&](int tid) {
    nodes_of(cta, L, tid, cta.threads(), [&](int i0, int r) {
      const V phi = event_fraction<V>(a, e, i0, r);
      if (phi == V(0)) return;
      const long long node = L.at(i0, r);
      const V target = lifted_target(e, phi, static_cast<V>(e.value), [&] { return cta.get(A + node); });
      cta.set_value(X + node, moved_value(e.kind, cta.value(X + node), phi, target));
    });
  });
}

// The step's actions on the values, node by node, in the order of its event list (stage_math.hpp's
// apply_events_at, on the workspace): where phi = 0 a node is neither read nor written.
template <class V, class T, class Cta>
ELSBENCH_HD void apply_events(Cta& cta, const MarchArgs<T>& a, const NoteLayout& L, const GpuStep& s) {
  const bool lifted = a.events[s.first_event].at_centroid != 0;
  if (lifted)
    for (int l = 0; l < L.layers; ++l) autocall_at_centroid<V>(cta, a, L, a.events[s.first_event], l);
  cta.phase([&](int tid) {
    nodes_of(cta, L, tid, cta.threads(), [&](int i0, int i1) {
      const long long node = L.at(i0, i1);
      for (int k = lifted ? 1 : 0; k < s.event_count; ++k) {
        const GpuEvent& e = a.events[s.first_event + k];
        const V phi = event_fraction<V>(a, e, i0, i1);
        if (phi == V(0)) continue;
        for (int l = 0; l < L.layers; ++l) {
          if (!moves_layer(e.kind, l, L.layers)) continue;
          const V v = cta.value(L.x(l) + node);
          const int from = target_layer(e.kind, L.layers);
          const V target = from >= 0 ? cta.value(L.x(from) + node) : static_cast<V>(e.value);
          cta.set_value(L.x(l) + node, moved_value(e.kind, v, phi, target));
        }
      }
    });
  });
}

// Payoff in (values -> X), final values out (X -> values); `values` laid out as the buffers.
template <class V, class T, class Cta>
ELSBENCH_HD void copy_note(Cta& cta, const MarchArgs<T>& a, V* values, const NoteLayout& L, bool in) {
  for (int l = 0; l < L.layers; ++l)
    cta.phase([&](int tid) {
      nodes_of(cta, L, tid, cta.threads(), [&](int i0, int i1) {
        const long long there = a.grid.index(i0, i1, l);
        if (in) {
          cta.set_value(L.x(l) + L.at(i0, i1), values[there]);
        } else {
          values[there] = cta.value(L.x(l) + L.at(i0, i1));
        }
      });
    });
}

// Note k of the book: in V = T its values are buffers[0]; mixed, its WideNote's.
template <class V, class T, class Cta>
ELSBENCH_HD void march_note(Cta& cta, const OnChipBook<V, T>& book, int k) {
  const MarchArgs<T>& a = book.notes[k];
  const NoteLayout L = note_layout(a.grid.dim, a.grid.layers, a.grid.n0, a.grid.n1, a.grid.n2);
  constexpr bool mixed = sizeof(V) != sizeof(T);
  V* values = nullptr;
  if constexpr (mixed) {
    values = book.wide[k].values;
  } else {
    values = a.buffers[0];
  }
  copy_note(cta, a, values, L, true);
  for (int j = 0; j < a.step_count; ++j) {
    const GpuStep& s = a.steps[j];
    for (int l = 0; l < L.layers; ++l) {
      if constexpr (mixed) {
        step_layer_increments(cta, a, book.wide[k].grid, L, s, l);
      } else {
        step_layer(cta, a, L, s, l);
      }
    }
    if (s.event_count > 0) apply_events<V>(cta, a, L, s);
  }
  copy_note(cta, a, values, L, false);
}

// The kernel body: notes from the queue until it runs dry. The CTA policy: threads(),
// warp_count(); value(i) and set_value(i, v) on the workspace's values (V), get(i) and set(i, v)
// on its scratch (T); phase(f): f(tid) on every thread, then a barrier; warps(f): f(warp, lanes)
// on every warp, then a barrier; span(i, count, warp): scratch values a warp scans (the carries);
// item(k): the thread starts its k-th work item of the phase (the emulator matches lanes' accesses
// by it); next_note(): one queue position for all. Control flow outside phases is uniform, so every
// thread meets every barrier, and a thread keeps nothing across a barrier but what it wrote to
// the workspace.
template <class V, class T, class Cta>
ELSBENCH_HD void march_book_on_chip(const OnChipBook<V, T>& book, Cta& cta) {
  for (int q = cta.next_note(); q < book.note_count; q = cta.next_note()) march_note(cta, book, book.order[q]);
}

}  // namespace elsbench::gpu
