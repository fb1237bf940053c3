#pragma once
// Where a block of a batched launch works (plan/gpu_batch.hpp): the note it belongs to, found by
// the prefix sums of the notes' blocks, and its block within that note's launch, which then runs
// the one-note block programs of stage_blocks.hpp unchanged. Shared by the CUDA kernels and the
// CPU emulation, like stage_blocks.hpp.
#include "solvers/gpu/kernels/stage_blocks.hpp"

namespace elsbench::gpu {

// Everything a batched stage or event kernel reads besides each note's MarchArgs.
template <class T>
struct BatchArgs {
  const MarchArgs<T>* notes = nullptr;
  const StageLayout* layouts[2] = {nullptr, nullptr};      // per axis, per note
  const long long* first_block[2] = {nullptr, nullptr};    // per axis, notes + 1 entries
  const long long* first_event_block = nullptr;            // notes + 1 entries
  int note_count = 0;
};

// The note whose blocks hold `block`: the last k with first[k] <= block (notes with no blocks on
// an axis are stepped over).
ELSBENCH_HD int note_of_block(const long long* first, int count, long long block) {
  int lo = 0, hi = count - 1;
  while (lo < hi) {
    const int mid = (lo + hi + 1) / 2;
    if (first[mid] <= block) {
      lo = mid;
    } else {
      hi = mid - 1;
    }
  }
  return lo;
}

// A block of a batched launch, as its note sees it; `step` is null when the note has no work in
// this launch (its march has ended: a padding no-op; or a one-round step's second round).
template <class T>
struct BatchBlock {
  const MarchArgs<T>* a = nullptr;
  const StageLayout* l = nullptr;
  const GpuStep* step = nullptr;
  int block = 0;  // within the note's launch
};

template <class T>
ELSBENCH_HD BatchBlock<T> batch_stage_block(const BatchArgs<T>& b, int axis, long long block, int j, int round) {
  BatchBlock<T> out;
  const int k = note_of_block(b.first_block[axis], b.note_count, block);
  out.a = b.notes + k;
  out.l = b.layouts[axis] + k;
  out.block = static_cast<int>(block - b.first_block[axis][k]);
  if (j < out.a->step_count && (round == 1 || out.a->steps[j].two_rounds())) out.step = out.a->steps + j;
  return out;
}

// The event actions of step j at one node of a note, one thread per node of a batched launch;
// `lifts`: instead, their lifts (lifts_at_node), a launch before.
template <class T>
ELSBENCH_HD void batch_events_at(const BatchArgs<T>& b, long long block, int thread, int j, bool lifts = false) {
  const int k = note_of_block(b.first_event_block, b.note_count, block);
  const MarchArgs<T>& a = b.notes[k];
  if (j >= a.step_count || a.steps[j].event_count == 0) return;
  const long long node = (block - b.first_event_block[k]) * kEventThreads + thread;
  if (lifts) {
    lifts_at_node(a, a.steps[j], node);
  } else {
    events_at_node(a, a.steps[j], node);
  }
}

}  // namespace elsbench::gpu
