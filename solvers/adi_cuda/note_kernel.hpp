#pragma once
// Launcher of the on-chip book march (note_kernel.cu): one persistent launch of `ctas` CTAs of
// kNoteThreads<V, T> threads, each (or each cluster of two) running kernels/note_march.hpp's body
// on notes from the queue. ELSBENCH_ON_CHIP_CLUSTERS=off keeps notes that need clusters on the
// global path (to compare the two on a device).
#include <cuda_runtime_api.h>

#include <cstddef>

#include "solvers/gpu/kernels/note_march.hpp"
#include "solvers/gpu/plan/on_chip_plan.hpp"

namespace elsbench::gpu {

// Where the CTAs keep their notes' state (state_home: shared memory, a cluster's, or each CTA's
// slice of a global array, L2-resident when the slices of the resident CTAs fit the cache).
struct OnChipLaunch {
  StateHome home = StateHome::Global;
  std::size_t workspace_bytes = 0;  // a CTA's dynamic shared memory, or its global slice
  int ctas = 0;                     // resident CTAs: SMs x CTAs an SM (clusters x 2 in clusters)
};

// The launch for workspaces of `room` (values in V, scratch in T) on the current device.
template <class V, class T>
OnChipLaunch on_chip_launch(const OnChipWorkspace& room);

// queue: a device int set to 0; global_work: ctas x workspace_bytes on the global path.
template <class V, class T>
void launch_book_on_chip(const OnChipBook<V, T>& book, int* queue, void* global_work, const OnChipWorkspace& room,
                         const OnChipLaunch& launch, cudaStream_t stream);

}  // namespace elsbench::gpu
