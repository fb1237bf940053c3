#pragma once
// The adi-cuda kernels run on the CPU: block by block, each phase for every thread of the block
// before the next phase (what __syncthreads() guarantees on the GPU), the warp-level carry scan
// lane by lane in the same steps as the shuffles. It executes the index arithmetic and the
// arithmetic of solvers/gpu/kernels/stage_blocks.hpp exactly as the kernels do, so a machine without a GPU can
// check them against the CPU `adi` solver. Slow: for tests.
#include <vector>

#include "solvers/gpu/emulator/cta_emulator.hpp"
#include "solvers/gpu/plan/gpu_batch.hpp"
#include "solvers/gpu/plan/gpu_plan.hpp"
#include "solvers/problem/problem.hpp"
#include "solvers/tridiagonal/chunked_solve.hpp"

namespace elsbench::gpu {

// Final values (all layers) of the march of `plan` on `pb`, computed in precision T (double or
// float) by the kernels' code.
template <class T>
std::vector<double> emulate_adi_cuda(const Problem& pb, const GpuPlan& plan);

// Final values (all layers) of each note of a batched march (plan/gpu_batch.hpp): the batched
// launches of the kernels, each block located in its note as the batched kernels locate it, in
// one random order over the blocks of every note.
template <class T>
std::vector<std::vector<double>> emulate_adi_cuda_batch(const std::vector<const Problem*>& problems,
                                                        const GpuBatchPlan& plan);

// The on-chip book march (kernels/note_march.hpp) of a batch's notes, its kernel body run by one
// emulated CTA (cta_emulator.hpp) through the whole queue; `checked` looks for races and counts
// bank wavefronts on the way (slower). V the values' precision, T the stages' (mixed: double, float).
// ctas = kClusterCtas runs it as a cluster does: one CTA of the cluster's threads.
struct OnChipEmulation {
  std::vector<std::vector<double>> values;  // per note, its final values (all layers)
  CtaFindings findings;
};
template <class V, class T = V>
OnChipEmulation emulate_book_on_chip(const std::vector<const Problem*>& problems, const GpuBatchPlan& plan,
                                     bool checked, int ctas = 1);

// Step 2 of the chunked solve for one line, as one warp runs it (chunked_solve.hpp).
template <class T>
void emulate_warp_carries(T* z, T* v, const ChunkTable<T>& t);

// A whole batched solve along `axis` of `x` (values of all layers, in place) with the chunked
// method, through the axis's stage layout; `theta_dt` names the factors. For unit tests.
void emulate_chunked_solve(const Problem& pb, int axis, double theta_dt, std::vector<double>& x);

}  // namespace elsbench::gpu
