#pragma once
// The arrays of a batched GPU march, prepared on the host once per batch: every note's march image
// (march_image.hpp: operators, factor tables, event weights; events) laid one after another in a
// few arrays, so that a batch is one upload whatever its size. Each note's payoff and step records
// have their place in the value buffers and the step array, but the host image holds no copy of
// them: they are written from the note's problem and plan where they go (for_each_note_payoff),
// so that the host touches each payoff once. The CUDA variant uploads the image; the CPU
// emulation uses it in place.
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
  UninitializedVector<GpuEvent> events;
  std::size_t value_count = 0;  // values a value buffer holds: every note's layers
  std::size_t step_count = 0;   // step records of all notes
  std::vector<Offsets> notes;
};

template <class T>
BatchImage<T> make_batch_image(const std::vector<const Problem*>& problems, const GpuBatchPlan& plan,
                               EventWeights weights = EventWeights::PerNode);

// Note by note, what the image leaves out: f(k, offset, payoff, count) with note k's payoff in T
// (all layers at the buffers' stride, put_payoff) for value buffer 0 at `offset`, and
// g(k, offset, records, count) with its step records for the step array. `payoff` is reused
// from one note to the next.
template <class T, class F, class G>
void for_each_note_payoff(const std::vector<const Problem*>& problems, const GpuBatchPlan& plan,
                          const BatchImage<T>& image, F f, G g) {
  std::vector<T> payoff;
  for (std::size_t k = 0; k < problems.size(); ++k) {
    const GpuPlan& p = plan.notes[k];
    payoff.resize(static_cast<std::size_t>(p.buffer_values()));
    put_payoff(*problems[k], p, payoff.data());
    f(k, image.notes[k].values, payoff.data(), payoff.size());
    g(k, image.notes[k].steps, p.steps.data(), p.steps.size());
  }
}

// The value buffer 0 and the step array of a batch on the host, as for_each_note_payoff writes
// them (the CPU emulation's).
template <class T>
struct BatchValues {
  std::vector<T> initial;
  std::vector<GpuStep> steps;
};
template <class T>
BatchValues<T> batch_values(const std::vector<const Problem*>& problems, const GpuBatchPlan& plan,
                            const BatchImage<T>& image);

// Each note's kernel arguments over the batch's arrays, wherever they live (host or device):
// `constants`, `buffers` (three value buffers of value_count values), `steps`, `events` and
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
