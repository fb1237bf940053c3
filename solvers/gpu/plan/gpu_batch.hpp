#pragma once
// The host-side plan of a batched GPU march: several notes of a book, each with its own plan, the
// stage launches of a step covering the blocks of every note. A block finds its note by the prefix
// sums of the notes' blocks (kernels/batch_blocks.hpp) and runs the one-note block programs, so a
// note's arithmetic is the same, bit for bit, as when it is marched alone; a note with fewer steps
// idles after its last (its blocks return). The set-up is once a batch: one image, one upload.
#include <cstddef>
#include <vector>

#include "solvers/gpu/plan/gpu_plan.hpp"
#include "solvers/problem/problem.hpp"
#include "solvers/schemes/adi_scheme.hpp"

namespace elsbench::gpu {

struct GpuBatchPlan {
  std::vector<GpuPlan> notes;
  // Per axis: each note's launch geometry (as for the note alone; a 1-D note has no axis-1 blocks)
  // and where its blocks start in the batched launch (notes + 1 entries, the last the total).
  std::vector<StageLayout> layouts[2];
  std::vector<long long> first_block[2];
  std::vector<long long> first_event_block;  // event launch: kEventThreads nodes of a note a block
  int max_steps = 0;                         // launches per round; shorter notes idle after theirs
  int threads[2] = {0, 0};                   // per axis: the most threads any note's block needs
  std::size_t smem_bytes[2] = {0, 0};        // per axis: the most shared memory any note's block needs
  bool two_rounds = false, has_events = false, has_lifts = false;

  int size() const { return static_cast<int>(notes.size()); }
  long long blocks(int axis) const { return first_block[axis].back(); }
  long long event_blocks() const { return first_event_block.back(); }
};

// Each problem must carry its time grid; `scheme` is the undamped scheme of every note.
GpuBatchPlan make_gpu_batch_plan(const std::vector<const Problem*>& problems, const AdiScheme& scheme,
                                 std::size_t element_bytes);

}  // namespace elsbench::gpu
