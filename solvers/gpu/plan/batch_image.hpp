#pragma once
// The arrays of a batched GPU march, prepared on the host once per batch: every note's march image
// (march_image.hpp: operators, factor tables, event weights; payoff; step records and events) laid
// one after another in a few arrays, so that a batch is one upload whatever its size. The CUDA
// variant copies them to the device; the CPU emulation uses them in place.
#include <vector>

#include "platform/uninitialized.hpp"

#include "solvers/gpu/kernels/stage_blocks.hpp"
#include "solvers/gpu/plan/gpu_batch.hpp"
#include "solvers/gpu/plan/march_image.hpp"

namespace elsbench::gpu {

template <class T>
struct BatchImage {
  // Where note k's arrays start: in `constants` (coefficients per axis, factor tables per axis,
  // event weights), in the value buffers (`initial` and the other two, all of one size), in
  // `steps` and in `events`.
  struct Offsets {
    long long coefs[3] = {0, 0, 0}, tables[3] = {0, 0, 0}, table_stride[3] = {0, 0, 0};
    long long weights = 0, fractions = 0, values = 0, steps = 0, events = 0;
    T mixed[3] = {0, 0, 0};
    int has_mixed = 0;
  };
  UninitializedVector<T> constants;
  UninitializedVector<double> fractions;  // every note's per-axis event fractions (MarchImage::fractions)
  UninitializedVector<T> initial;  // every note's payoff, all layers
  UninitializedVector<GpuStep> steps;
  UninitializedVector<GpuEvent> events;
  std::vector<Offsets> notes;
};

template <class T>
BatchImage<T> make_batch_image(const std::vector<const Problem*>& problems, const GpuBatchPlan& plan,
                               EventWeights weights = EventWeights::PerNode);

// Each note's kernel arguments over the batch's arrays, wherever they live (host or device):
// `constants`, `buffers` (three value buffers of initial.size() values), `steps`, `events` and
// `fractions` are the bases of the arrays of `image`.
template <class T>
struct BatchBases {
  const T* constants = nullptr;
  T* buffers[3] = {nullptr, nullptr, nullptr};
  const GpuStep* steps = nullptr;
  const GpuEvent* events = nullptr;
  const double* fractions = nullptr;
};
// The arguments in T over an image in I: a mixed march's fp32 stages over its fp64 image's
// offsets, their constants narrowed_constants(image).
template <class T, class I = T>
std::vector<MarchArgs<T>> batch_march_args(const GpuBatchPlan& plan, const BatchImage<I>& image,
                                           const BatchBases<T>& at);

// An fp64 image's constants rounded to fp32, at the same offsets: what make_batch_image<float>
// would hold (it computes coefficients and factors in fp64, then rounds them).
UninitializedVector<float> narrowed_constants(const BatchImage<double>& image);

}  // namespace elsbench::gpu
