#pragma once
// The host's side of the on-chip book march (kernels/note_march.hpp): the order in which the queue
// hands out the notes, and the workspace a CTA needs for the largest of them.
#include <cstddef>
#include <vector>

#include "solvers/gpu/plan/gpu_batch.hpp"

namespace elsbench::gpu {

// Queue position -> note: the longest schedules first (stages and events counted), so that the
// last notes a CTA takes are short and the CTAs finish together.
std::vector<int> longest_first(const GpuBatchPlan& plan);

// Values of the largest note's state (NoteLayout::values).
long long on_chip_workspace_values(const GpuBatchPlan& plan);

}  // namespace elsbench::gpu
