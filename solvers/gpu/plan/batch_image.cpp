#include "solvers/gpu/plan/batch_image.hpp"

#include <algorithm>

#include "platform/side_by_side.hpp"

namespace elsbench::gpu {
namespace {

// Where a note's arrays go: the arrays' sizes so far, which it then advances by its own.
template <class T>
typename BatchImage<T>::Offsets place(std::size_t (&end)[5], const GpuPlan& p,
                                      const MarchImage<T>& im) {
  const auto take = [&](std::size_t& at, std::size_t count) {
    const auto here = static_cast<long long>(at);
    at += count;
    return here;
  };
  typename BatchImage<T>::Offsets o;
  for (int d = 0; d < p.dim; ++d) {
    o.coefs[d] = take(end[0], im.coefs[d].size());
    o.tables[d] = take(end[0], im.tables[d].size());
    o.table_stride[d] = im.table_stride[d];
  }
  o.weights = take(end[0], im.event_weights.size());
  o.fractions = take(end[1], im.fractions.size());
  o.values = take(end[2], im.initial.size());
  o.steps = take(end[3], p.steps.size());
  o.events = take(end[4], p.events.size());
  for (int k = 0; k < 3; ++k) o.mixed[k] = im.mixed[k];
  o.has_mixed = im.has_mixed;
  return o;
}

// A note's arrays copied to its offsets: notes side by side, each thread touching its own pages.
template <class T>
void copy_note(BatchImage<T>& b, const typename BatchImage<T>::Offsets& o, const GpuPlan& p, const MarchImage<T>& im) {
  const auto put = [](auto& out, long long at, const auto& in) {
    std::copy(in.begin(), in.end(), out.begin() + static_cast<std::ptrdiff_t>(at));
  };
  for (int d = 0; d < p.dim; ++d) {
    put(b.constants, o.coefs[d], im.coefs[d]);
    put(b.constants, o.tables[d], im.tables[d]);
  }
  put(b.constants, o.weights, im.event_weights);
  put(b.fractions, o.fractions, im.fractions);
  put(b.initial, o.values, im.initial);
  put(b.steps, o.steps, p.steps);
  put(b.events, o.events, p.events);
}

// Room for `scale` times what the arrays hold now, and a twentieth more.
template <class T>
void reserve_for(BatchImage<T>& b, double scale) {
  const auto room = [&](auto& v) { v.reserve(static_cast<std::size_t>(1.05 * scale * static_cast<double>(v.size()))); };
  room(b.constants);
  room(b.fractions);
  room(b.initial);
  room(b.steps);
  room(b.events);
  room(b.notes);
}

// Notes whose march images are made side by side before they are appended: the images of a
// chunk live at once (a few MB a note at n = 100), not the whole book's.
constexpr std::size_t kImageChunk = 64;

template <class T>
std::vector<MarchImage<T>> chunk_images(const std::vector<const Problem*>& problems, const GpuBatchPlan& plan,
                                        std::size_t first, std::size_t count, EventWeights weights) {
  std::vector<MarchImage<T>> images(count);
  side_by_side(count, [&](std::size_t i) {
    images[i] = make_march_image<T>(*problems[first + i], plan.notes[first + i], true, weights);
  });
  return images;
}

}  // namespace

template <class T>
BatchImage<T> make_batch_image(const std::vector<const Problem*>& problems, const GpuBatchPlan& plan,
                               EventWeights weights) {
  BatchImage<T> b;
  for (std::size_t first = 0; first < problems.size(); first += kImageChunk) {
    const std::size_t count = std::min(kImageChunk, problems.size() - first);
    const std::vector<MarchImage<T>> images = chunk_images<T>(problems, plan, first, count, weights);
    std::size_t end[5] = {b.constants.size(), b.fractions.size(), b.initial.size(), b.steps.size(), b.events.size()};
    for (std::size_t i = 0; i < count; ++i) b.notes.push_back(place<T>(end, plan.notes[first + i], images[i]));
    b.constants.resize(end[0]);
    b.fractions.resize(end[1]);
    b.initial.resize(end[2]);
    b.steps.resize(end[3]);
    b.events.resize(end[4]);
    side_by_side(count, [&](std::size_t i) { copy_note(b, b.notes[first + i], plan.notes[first + i], images[i]); });
    // The book's arrays reach about a GB at 1,000 notes of n = 100: sized once from the first
    // chunk rather than grown (and copied) by doubling.
    if (first == 0) reserve_for(b, static_cast<double>(problems.size()) / static_cast<double>(count));
  }
  return b;
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
template std::vector<MarchArgs<double>> batch_march_args<double>(const GpuBatchPlan&, const BatchImage<double>&,
                                                                 const BatchBases<double>&);
template std::vector<MarchArgs<float>> batch_march_args<float>(const GpuBatchPlan&, const BatchImage<float>&,
                                                               const BatchBases<float>&);
template std::vector<MarchArgs<float>> batch_march_args<float, double>(const GpuBatchPlan&, const BatchImage<double>&,
                                                                       const BatchBases<float>&);

}  // namespace elsbench::gpu
