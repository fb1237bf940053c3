#include "solvers/gpu/cuda/device_march_data.hpp"

#include "platform/cuda/cuda_check.hpp"
#include "solvers/gpu/plan/march_image.hpp"

namespace elsbench::gpu {

template <class T>
DeviceMarchData<T>::DeviceMarchData(const Problem& pb, const GpuPlan& plan, DeviceAllocator& alloc,
                                    bool factor_tables)
    : plan_(plan) {
  MarchImage<T> im = make_march_image<T>(pb, plan, factor_tables);
  const std::size_t values = static_cast<std::size_t>(plan.buffer_values());
  for (int i = 0; i < 3; ++i) buffers_[i] = DeviceArray<T>(alloc, values, "value buffer " + std::to_string(i));
  for (int d = 0; d < plan.dim; ++d) {
    coefs_[d] = DeviceArray<T>(alloc, im.coefs[d].size(), "1-D operators");
    coefs_[d].upload(im.coefs[d], "1-D operators");
    if (factor_tables) {
      tables_[d] = DeviceArray<T>(alloc, im.tables[d].size(), "factor tables");
      tables_[d].upload(im.tables[d], "factor tables");
    }
  }
  weights_ = DeviceArray<T>(alloc, im.event_weights.size(), "event weights");
  weights_.upload(im.event_weights, "event weights");
  fractions_ = DeviceArray<double>(alloc, im.fractions.size(), "event fractions");
  fractions_.upload(im.fractions, "event fractions");
  steps_ = DeviceArray<GpuStep>(alloc, plan.steps.size(), "step records");
  steps_.upload(plan.steps, "step records");
  events_ = DeviceArray<GpuEvent>(alloc, plan.events.size(), "event records");
  events_.upload(plan.events, "event records");
  step_base_ = DeviceArray<int>(alloc, 1, "step counter");
  initial_ = std::move(im.initial);

  const T* const coefs[3] = {coefs_[0].data(), plan.dim == 2 ? coefs_[1].data() : nullptr, nullptr};
  args_.grid = make_grid_view<T>(plan, coefs, im.mixed, im.has_mixed);
  args_.steps = steps_.data();
  args_.events = events_.data();
  args_.event_weights = weights_.data();
  args_.fractions = fractions_.data();
  for (int i = 0; i < 3; ++i) args_.buffers[i] = buffers_[i].data();
  for (int d = 0; d < plan.dim; ++d) {
    args_.tables[d] = tables_[d].data();
    args_.table_stride[d] = im.table_stride[d];
  }
  args_.step_count = static_cast<int>(plan.steps.size());
}

template <class T>
void DeviceMarchData<T>::reset(cudaStream_t stream) {
  cuda_check(cudaMemcpyAsync(buffers_[0].data(), initial_.data(), initial_.size() * sizeof(T),
                             cudaMemcpyHostToDevice, stream),
             "cudaMemcpyAsync (payoff)");
  cuda_check(cudaMemsetAsync(step_base_.data(), 0, sizeof(int), stream), "cudaMemsetAsync (step counter)");
}

template <class T>
std::vector<double> DeviceMarchData<T>::download(int i, bool all_layers) const {
  const int layers = all_layers ? plan_.layers : 1;
  const std::vector<T> v = buffers_[i].download(static_cast<std::size_t>(plan_.layer_stride * layers));
  return unpadded_layers(plan_, v, layers);
}

template class DeviceMarchData<double>;
template class DeviceMarchData<float>;

}  // namespace elsbench::gpu
