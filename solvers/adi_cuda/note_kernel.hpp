#pragma once
// Launcher of the on-chip book march (note_kernel.cu): one persistent launch of `ctas` CTAs of
// kNoteThreads<T> threads, each running kernels/note_march.hpp's body on notes from the queue.
#include <cuda_runtime_api.h>

#include <cstddef>

#include "solvers/gpu/kernels/note_march.hpp"

namespace elsbench::gpu {

// Where the CTAs keep their notes' state: in shared memory when the largest note's workspace fits
// the device's opt-in limit, else each CTA in its slice of a global array (L2-resident when the
// slices of the resident CTAs fit the cache).
struct OnChipLaunch {
  bool in_shared = false;
  std::size_t workspace_bytes = 0;  // a CTA's
  int ctas = 0;                     // resident CTAs: SMs x CTAs an SM
};

// The launch for workspaces of `workspace_values` values of T on the current device.
template <class T>
OnChipLaunch on_chip_launch(long long workspace_values);

// queue: a device int set to 0; global_work: ctas x workspace values when !in_shared.
template <class T>
void launch_book_on_chip(const OnChipBook<T>& book, int* queue, T* global_work, const OnChipLaunch& launch,
                         cudaStream_t stream);

}  // namespace elsbench::gpu
