#pragma once
// Launcher of the on-chip book march (note_kernel.cu): one persistent launch of `ctas` CTAs of
// kNoteThreads<V, T> threads, each running kernels/note_march.hpp's body on notes from the queue.
#include <cuda_runtime_api.h>

#include <cstddef>

#include "solvers/gpu/kernels/note_march.hpp"
#include "solvers/gpu/plan/on_chip_plan.hpp"

namespace elsbench::gpu {

// Where the CTAs keep their notes' state: in shared memory when the largest note's workspace fits
// the device's opt-in limit, else each CTA in its slice of a global array (L2-resident when the
// slices of the resident CTAs fit the cache).
struct OnChipLaunch {
  bool in_shared = false;
  std::size_t workspace_bytes = 0;  // a CTA's
  int ctas = 0;                     // resident CTAs: SMs x CTAs an SM
};

// The launch for workspaces of `room` (values in V, scratch in T) on the current device.
template <class V, class T>
OnChipLaunch on_chip_launch(const OnChipWorkspace& room);

// queue: a device int set to 0; global_work: ctas x workspace_bytes when !in_shared.
template <class V, class T>
void launch_book_on_chip(const OnChipBook<V, T>& book, int* queue, void* global_work, const OnChipWorkspace& room,
                         const OnChipLaunch& launch, cudaStream_t stream);

}  // namespace elsbench::gpu
