#include "solvers/gpu/plan/batch_image.hpp"

namespace elsbench::gpu {
namespace {

template <class T>
long long append(std::vector<T>& out, const std::vector<T>& in) {
  const auto at = static_cast<long long>(out.size());
  out.insert(out.end(), in.begin(), in.end());
  return at;
}

}  // namespace

template <class T>
BatchImage<T> make_batch_image(const std::vector<const Problem*>& problems, const GpuBatchPlan& plan) {
  BatchImage<T> b;
  for (std::size_t k = 0; k < problems.size(); ++k) {
    const GpuPlan& p = plan.notes[k];
    MarchImage<T> im = make_march_image<T>(*problems[k], p);
    typename BatchImage<T>::Offsets o;
    for (int d = 0; d < p.dim; ++d) {
      o.coefs[d] = append(b.constants, im.coefs[d]);
      o.tables[d] = append(b.constants, im.tables[d]);
      o.table_stride[d] = im.table_stride[d];
    }
    o.weights = append(b.constants, im.event_weights);
    o.values = append(b.initial, im.initial);
    o.steps = append(b.steps, p.steps);
    o.events = append(b.events, p.events);
    o.mixed = im.mixed;
    o.has_mixed = im.has_mixed;
    b.notes.push_back(o);
  }
  return b;
}

template <class T>
std::vector<MarchArgs<T>> batch_march_args(const GpuBatchPlan& plan, const BatchImage<T>& image, const T* constants,
                                           T* const buffers[3], const GpuStep* steps, const GpuEvent* events) {
  std::vector<MarchArgs<T>> out;
  for (std::size_t k = 0; k < image.notes.size(); ++k) {
    const GpuPlan& p = plan.notes[k];
    const auto& o = image.notes[k];
    MarchArgs<T> a;
    a.grid = make_grid_view<T>(p, constants + o.coefs[0], p.dim == 2 ? constants + o.coefs[1] : nullptr, o.mixed,
                               o.has_mixed);
    a.steps = steps + o.steps;
    a.events = events + o.events;
    a.event_weights = constants + o.weights;
    for (int i = 0; i < 3; ++i) a.buffers[i] = buffers[i] + o.values;
    for (int d = 0; d < p.dim; ++d) {
      a.tables[d] = constants + o.tables[d];
      a.table_stride[d] = o.table_stride[d];
    }
    a.step_count = static_cast<int>(p.steps.size());
    out.push_back(a);
  }
  return out;
}

template BatchImage<double> make_batch_image<double>(const std::vector<const Problem*>&, const GpuBatchPlan&);
template BatchImage<float> make_batch_image<float>(const std::vector<const Problem*>&, const GpuBatchPlan&);
template std::vector<MarchArgs<double>> batch_march_args<double>(const GpuBatchPlan&, const BatchImage<double>&,
                                                                 const double*, double* const[3], const GpuStep*,
                                                                 const GpuEvent*);
template std::vector<MarchArgs<float>> batch_march_args<float>(const GpuBatchPlan&, const BatchImage<float>&,
                                                               const float*, float* const[3], const GpuStep*,
                                                               const GpuEvent*);

}  // namespace elsbench::gpu
