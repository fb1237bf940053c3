#pragma once
// The host's side of the on-chip book march (kernels/note_march.hpp): the order in which the queue
// hands out the notes, and the workspace a CTA needs for the largest of them.
#include <cstddef>
#include <vector>

#include "solvers/gpu/kernels/note_march.hpp"
#include "solvers/gpu/plan/batch_image.hpp"
#include "solvers/gpu/plan/gpu_batch.hpp"

namespace elsbench::gpu {

// Queue position -> note: the longest schedules first (stages and events counted), so that the
// last notes a CTA takes are short and the CTAs finish together.
std::vector<int> longest_first(const GpuBatchPlan& plan);

// A CTA's workspace: room for the largest note's values (in V) and, after them, for the largest
// note's scratch (in T) (NoteLayout).
struct OnChipWorkspace {
  long long values = 0, scratch = 0;
  std::size_t bytes(std::size_t value_bytes, std::size_t scratch_bytes) const {
    return (static_cast<std::size_t>(values) * value_bytes + static_cast<std::size_t>(scratch) * scratch_bytes + 15) /
           16 * 16;
  }
};
OnChipWorkspace on_chip_workspace(const GpuBatchPlan& plan);

// Where a CTA keeps its note's state: its shared memory when the workspace fits the device's
// opt-in limit; else, where the device has clusters (sm_90), a cluster of two CTAs whose values
// lie in one CTA's shared memory and scratch in the other's (distributed shared memory), when
// each part fits; else its own slice of a global array (fp64 at n = 100: 334 KB a CTA, two
// parts of 162 and 170 KB).
enum class StateHome { Shared, Cluster, Global };
inline constexpr int kClusterCtas = 2;
StateHome state_home(const OnChipWorkspace& room, std::size_t value_bytes, std::size_t scratch_bytes,
                     std::size_t smem_limit, bool clusters);
const char* to_string(StateHome home);
// The shared memory each CTA of the launch asks for (0 on the global path).
std::size_t shared_bytes(StateHome home, const OnChipWorkspace& room, std::size_t value_bytes,
                         std::size_t scratch_bytes);

// A mixed march's kernel arguments over its fp64 batch's arrays at `at` (host or device memory;
// buffers[0]: the payoffs in, the final values out): each note's fp32 stage arguments over
// `narrow` (narrowed_constants of the image, wherever it lives), and each note's values and fp64
// operators (WideNote).
struct MixedNotes {
  std::vector<MarchArgs<float>> stages;
  std::vector<WideNote<double>> wide;
};
MixedNotes mixed_notes(const GpuBatchPlan& plan, const BatchImage<double>& image, const BatchBases<double>& at,
                       const float* narrow);

}  // namespace elsbench::gpu
