// adi-cuda: the march on the project's kernels, replayed from CUDA graphs. One graph holds
// kStepsPerGraph steps (per step the stage kernels of each round, the event kernel where there are
// events); the kernels read their step at *step_base + local, so one graph serves every group of
// steps and a last tiny kernel advances *step_base: ceil(steps / kStepsPerGraph) launches, no
// host round trip until the values are downloaded.
#include <algorithm>
#include <memory>

#include "platform/cuda/cuda_handles.hpp"
#include "solvers/adi_cuda/adi_cuda_backend.hpp"
#include "solvers/adi_cuda/adi_kernels.hpp"
#include "solvers/gpu/cuda/device_march_data.hpp"
#include "solvers/gpu/cuda/event_kernels.hpp"
#include "solvers/gpu/cuda/march_backend.hpp"
#include "solvers/gpu/cuda/march_graph.hpp"
#include "solvers/gpu/cuda/step_counter.hpp"

namespace elsbench::gpu {
namespace {

constexpr int kStepsPerGraph = 32;

template <class T>
class AdiCudaMarch final : public MarchBackend {
 public:
  AdiCudaMarch(const Problem& pb, const GpuPlan& plan, DeviceAllocator& alloc)
      : plan_(plan), data_(pb, plan, alloc, true), axis0_(stage_layout(plan, 0, sizeof(T))) {
    if (plan.dim == 2) axis1_ = stage_layout(plan, 1, sizeof(T), stage_smem_limit());
    prepare_stage_kernels<T>(axis0_, plan.dim == 2 ? &axis1_ : nullptr);
    const int steps = static_cast<int>(plan.steps.size());
    const int full = std::min(steps, kStepsPerGraph);
    whole_ = std::make_unique<CapturedGraph>(stream_.get(), [this, full] { record(full); });
    whole_launches_ = steps / full;
    const int rest = steps - whole_launches_ * full;
    if (rest > 0) rest_ = std::make_unique<CapturedGraph>(stream_.get(), [this, rest] { record(rest); });
  }

  double march() override {
    data_.reset(stream_.get());
    timer_.start(stream_.get());
    for (int i = 0; i < whole_launches_; ++i) whole_->launch(stream_.get());
    if (rest_) rest_->launch(stream_.get());
    timer_.stop(stream_.get());
    stream_.synchronize();
    return timer_.seconds();
  }

  std::vector<double> values(bool all_layers) const override {
    return data_.download(plan_.final_buffer, all_layers);
  }

 private:
  // The kernels of `count` steps, then the advance of the step counter.
  void record(int count) {
    const MarchArgs<T>& a = data_.args();
    const int* base = data_.step_base();
    const int rounds = plan_.two_rounds ? 2 : 1;
    for (int local = 0; local < count; ++local) {
      for (int round = 1; round <= rounds; ++round) {
        launch_axis0_stage(a, axis0_, base, local, round, stream_.get());
        if (plan_.dim == 2) launch_axis1_stage(a, axis1_, base, local, round, stream_.get());
      }
      if (plan_.has_lifts) launch_step_events(a, event_blocks(plan_), base, local, stream_.get(), true);
      if (plan_.has_events) launch_step_events(a, event_blocks(plan_), base, local, stream_.get());
    }
    launch_advance_steps(data_.step_base(), count, stream_.get());
  }

  const GpuPlan& plan_;
  CudaStream stream_;
  DeviceTimer timer_;
  DeviceMarchData<T> data_;
  StageLayout axis0_, axis1_;
  std::unique_ptr<CapturedGraph> whole_, rest_;
  int whole_launches_ = 0;
};

}  // namespace

template <class T>
std::unique_ptr<MarchBackend> make_adi_cuda_backend(const Problem& pb, const GpuPlan& plan,
                                                       DeviceAllocator& alloc) {
  return std::make_unique<AdiCudaMarch<T>>(pb, plan, alloc);
}

template std::unique_ptr<MarchBackend> make_adi_cuda_backend<double>(const Problem&, const GpuPlan&,
                                                                        DeviceAllocator&);
template std::unique_ptr<MarchBackend> make_adi_cuda_backend<float>(const Problem&, const GpuPlan&,
                                                                       DeviceAllocator&);

}  // namespace elsbench::gpu
