#pragma once
// The kernels around the cuSPARSE solves: a stage's right-hand side and the diagonals of
// I - theta dt A_d written in the layout the library takes, and the solution brought back to our
// layout. The right-hand side formulas are adi-cuda's (stage_blocks.hpp's stage_rhs_at).
#include <cuda_runtime_api.h>

#include "solvers/gpu/kernels/library_layout.hpp"
#include "solvers/gpu/kernels/stage_blocks.hpp"

namespace elsbench::gpu {

// Where a stage's system goes: right-hand side (solved in place) and diagonals, all in `layout`.
template <class T>
struct SystemArrays {
  T* rhs = nullptr;
  T* dl = nullptr;
  T* d = nullptr;
  T* du = nullptr;
  SolveLayout layout;
  bool natural = true;  // layout is ours: one thread per node; otherwise tiled transpose
};

// Right-hand side of the stage (axis, round) of step steps[*step_base + local] and the diagonals
// of its matrix (nothing past the last step).
template <class T>
void launch_store_system(const MarchArgs<T>& a, const int* step_base, int local, int axis, int round,
                         const SystemArrays<T>& out, cudaStream_t stream);
// dest (our layout) <- src (in `layout`), all layers.
template <class T>
void launch_untile(const GridView<T>& g, const T* src, SolveLayout layout, T* dest, cudaStream_t stream);

}  // namespace elsbench::gpu
