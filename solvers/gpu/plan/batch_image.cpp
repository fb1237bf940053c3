#include "solvers/gpu/plan/batch_image.hpp"

#include <algorithm>

#include "platform/side_by_side.hpp"

namespace elsbench::gpu {
namespace {

// Where a note's arrays go: the arrays' sizes so far, which it then advances by its own.
template <class T>
typename BatchImage<T>::Offsets place(std::size_t (&end)[5], const GpuPlan& p, const MarchImageSizes& n) {
  const auto take = [&](std::size_t& at, std::size_t count) {
    const auto here = static_cast<long long>(at);
    at += count;
    return here;
  };
  typename BatchImage<T>::Offsets o;
  for (int d = 0; d < p.dim; ++d) {
    o.coefs[d] = take(end[0], n.coefs[d]);
    o.tables[d] = take(end[0], n.tables[d]);
  }
  o.weights = take(end[0], n.event_weights);
  o.fractions = take(end[1], n.fractions);
  o.values = take(end[2], n.initial);
  o.steps = take(end[3], p.steps.size());
  o.events = take(end[4], p.events.size());
  return o;
}

// A note's arrays written at its offsets, its scalars (table strides, mixed terms) kept with them.
template <class T>
void write_note(BatchImage<T>& b, typename BatchImage<T>::Offsets& o, const Problem& pb, const GpuPlan& p,
                EventWeights weights) {
  MarchImageRoom<T> at;
  for (int d = 0; d < p.dim; ++d) {
    at.coefs[d] = b.constants.data() + o.coefs[d];
    at.tables[d] = b.constants.data() + o.tables[d];
  }
  at.event_weights = b.constants.data() + o.weights;
  at.fractions = b.fractions.data() + o.fractions;
  const MarchImage<T> im = write_march_image<T>(pb, p, true, weights, at);
  for (int d = 0; d < 3; ++d) o.table_stride[d] = im.table_stride[d];
  for (int k = 0; k < 3; ++k) o.mixed[k] = im.mixed[k];
  o.has_mixed = im.has_mixed;
  std::copy(p.events.begin(), p.events.end(), b.events.begin() + static_cast<std::ptrdiff_t>(o.events));
}

}  // namespace

// The notes' arrays laid out one after another from their sizes, then each note written in place
// on the host's threads (each touching its own pages first): no note's image is formed apart and
// copied, which at 1,000 notes of n = 100 was a GB of transient arrays.
template <class T>
BatchImage<T> make_batch_image(const std::vector<const Problem*>& problems, const GpuBatchPlan& plan,
                               EventWeights weights) {
  BatchImage<T> b;
  std::size_t end[5] = {0, 0, 0, 0, 0};
  for (std::size_t k = 0; k < problems.size(); ++k)
    b.notes.push_back(
        place<T>(end, plan.notes[k], march_image_sizes(*problems[k], plan.notes[k], true, weights)));
  b.constants.resize(end[0]);
  b.fractions.resize(end[1]);
  b.value_count = end[2];
  b.step_count = end[3];
  b.events.resize(end[4]);
  side_by_side(problems.size(), [&](std::size_t k) { write_note(b, b.notes[k], *problems[k], plan.notes[k], weights); });
  return b;
}

template <class T>
BatchValues<T> batch_values(const std::vector<const Problem*>& problems, const GpuBatchPlan& plan,
                            const BatchImage<T>& image) {
  BatchValues<T> out;
  out.initial.resize(image.value_count);
  out.steps.resize(image.step_count);
  for_each_note_payoff(
      problems, plan, image,
      [&](std::size_t, long long at, const T* payoff, std::size_t count) {
        std::copy(payoff, payoff + count, out.initial.begin() + at);
      },
      [&](std::size_t, long long at, const GpuStep* steps, std::size_t count) {
        std::copy(steps, steps + count, out.steps.begin() + at);
      });
  return out;
}

template <class T, class I>
std::vector<MarchArgs<T>> batch_march_args(const GpuBatchPlan& plan, const BatchImage<I>& image,
                                           const BatchBases<T>& at) {
  const T* constants = at.constants;
  std::vector<MarchArgs<T>> out;
  for (std::size_t k = 0; k < image.notes.size(); ++k) {
    const GpuPlan& p = plan.notes[k];
    const auto& o = image.notes[k];
    MarchArgs<T> a;
    const T* const coefs[3] = {constants + o.coefs[0], p.dim >= 2 ? constants + o.coefs[1] : nullptr,
                               p.dim == 3 ? constants + o.coefs[2] : nullptr};
    const T mixed[3] = {static_cast<T>(o.mixed[0]), static_cast<T>(o.mixed[1]), static_cast<T>(o.mixed[2])};
    a.grid = make_grid_view<T>(p, coefs, mixed, o.has_mixed);
    a.steps = at.steps + o.steps;
    a.events = at.events + o.events;
    a.event_weights = constants + o.weights;
    a.fractions = at.fractions + o.fractions;
    for (int i = 0; i < 3; ++i) a.buffers[i] = at.buffers[i] + o.values;
    for (int d = 0; d < p.dim; ++d) {
      a.tables[d] = constants + o.tables[d];
      a.table_stride[d] = o.table_stride[d];
    }
    a.step_count = static_cast<int>(p.steps.size());
    out.push_back(a);
  }
  return out;
}

UninitializedVector<float> narrowed_constants(const BatchImage<double>& image) {
  constexpr std::size_t kPart = std::size_t{1} << 16;  // values a thread converts at a time
  const std::size_t count = image.constants.size();
  UninitializedVector<float> out(count);
  side_by_side((count + kPart - 1) / kPart, [&](std::size_t part) {
    const std::size_t first = part * kPart, last = std::min(count, first + kPart);
    for (std::size_t i = first; i < last; ++i) out[i] = static_cast<float>(image.constants[i]);
  });
  return out;
}

template BatchImage<double> make_batch_image<double>(const std::vector<const Problem*>&, const GpuBatchPlan&,
                                                     EventWeights);
template BatchImage<float> make_batch_image<float>(const std::vector<const Problem*>&, const GpuBatchPlan&,
                                                   EventWeights);
template BatchValues<double> batch_values<double>(const std::vector<const Problem*>&, const GpuBatchPlan&,
                                                 const BatchImage<double>&);
template BatchValues<float> batch_values<float>(const std::vector<const Problem*>&, const GpuBatchPlan&,
                                                const BatchImage<float>&);
template std::vector<MarchArgs<double>> batch_march_args<double>(const GpuBatchPlan&, const BatchImage<double>&,
                                                                 const BatchBases<double>&);
template std::vector<MarchArgs<float>> batch_march_args<float>(const GpuBatchPlan&, const BatchImage<float>&,
                                                               const BatchBases<float>&);
template std::vector<MarchArgs<float>> batch_march_args<float, double>(const GpuBatchPlan&, const BatchImage<double>&,
                                                                       const BatchBases<float>&);

}  // namespace elsbench::gpu
