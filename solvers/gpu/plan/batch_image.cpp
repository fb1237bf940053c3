#include "solvers/gpu/plan/batch_image.hpp"

#include <omp.h>

#include <algorithm>
#include <exception>

namespace elsbench::gpu {
namespace {

template <class T>
long long append(std::vector<T>& out, const std::vector<T>& in) {
  const auto at = static_cast<long long>(out.size());
  out.insert(out.end(), in.begin(), in.end());
  return at;
}

template <class T>
void append_note(BatchImage<T>& b, const GpuPlan& p, const MarchImage<T>& im) {
  typename BatchImage<T>::Offsets o;
  for (int d = 0; d < p.dim; ++d) {
    o.coefs[d] = append(b.constants, im.coefs[d]);
    o.tables[d] = append(b.constants, im.tables[d]);
    o.table_stride[d] = im.table_stride[d];
  }
  o.weights = append(b.constants, im.event_weights);
  o.fractions = append(b.fractions, im.fractions);
  o.values = append(b.initial, im.initial);
  o.steps = append(b.steps, p.steps);
  o.events = append(b.events, p.events);
  o.mixed = im.mixed;
  o.has_mixed = im.has_mixed;
  b.notes.push_back(o);
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
  std::vector<std::exception_ptr> failures(count);
  const auto n = static_cast<std::ptrdiff_t>(count);
#pragma omp parallel for schedule(dynamic, 1) if (n > 1 && omp_get_max_threads() > 1)
  for (std::ptrdiff_t i = 0; i < n; ++i) {
    const auto at = static_cast<std::size_t>(i);
    try {
      images[at] = make_march_image<T>(*problems[first + at], plan.notes[first + at], true, weights);
    } catch (...) {
      failures[at] = std::current_exception();  // an exception must not leave an OpenMP region
    }
  }
  for (const std::exception_ptr& f : failures)
    if (f) std::rethrow_exception(f);
  return images;
}

}  // namespace

template <class T>
BatchImage<T> make_batch_image(const std::vector<const Problem*>& problems, const GpuBatchPlan& plan,
                               EventWeights weights) {
  BatchImage<T> b;
  for (std::size_t first = 0; first < problems.size(); first += kImageChunk) {
    const std::size_t count = std::min(kImageChunk, problems.size() - first);
    std::vector<MarchImage<T>> images = chunk_images<T>(problems, plan, first, count, weights);
    for (std::size_t i = 0; i < count; ++i) append_note(b, plan.notes[first + i], images[i]);
    // The book's arrays reach about a GB at 1,000 notes of n = 100: sized once from the first
    // chunk rather than grown (and copied) by doubling.
    if (first == 0) reserve_for(b, static_cast<double>(problems.size()) / static_cast<double>(count));
  }
  return b;
}

template <class T>
std::vector<MarchArgs<T>> batch_march_args(const GpuBatchPlan& plan, const BatchImage<T>& image,
                                           const BatchBases<T>& at) {
  const T* constants = at.constants;
  std::vector<MarchArgs<T>> out;
  for (std::size_t k = 0; k < image.notes.size(); ++k) {
    const GpuPlan& p = plan.notes[k];
    const auto& o = image.notes[k];
    MarchArgs<T> a;
    a.grid = make_grid_view<T>(p, constants + o.coefs[0], p.dim == 2 ? constants + o.coefs[1] : nullptr, o.mixed,
                               o.has_mixed);
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

template BatchImage<double> make_batch_image<double>(const std::vector<const Problem*>&, const GpuBatchPlan&,
                                                     EventWeights);
template BatchImage<float> make_batch_image<float>(const std::vector<const Problem*>&, const GpuBatchPlan&,
                                                   EventWeights);
template std::vector<MarchArgs<double>> batch_march_args<double>(const GpuBatchPlan&, const BatchImage<double>&,
                                                                 const BatchBases<double>&);
template std::vector<MarchArgs<float>> batch_march_args<float>(const GpuBatchPlan&, const BatchImage<float>&,
                                                               const BatchBases<float>&);

}  // namespace elsbench::gpu
