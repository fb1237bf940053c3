// adi-cuda's batched book march: the batch plan and image built on the host once, uploaded at once,
// then per step one launch per stage and round covering every note (adi_batch_kernels.cu) and one
// event launch; the values of each note's layer 0 downloaded at the end. Launched eagerly (no
// graph): a step's launches are a few, and the batch's blocks keep the device busy.
#include "solvers/adi_cuda/adi_cuda_book.hpp"

#include <iomanip>
#include <sstream>

#include "platform/cuda/cuda_check.hpp"
#include "platform/cuda/cuda_handles.hpp"
#include "platform/cuda/device_guard.hpp"
#include "platform/cuda/device_memory.hpp"
#include "platform/cuda_devices.hpp"
#include "platform/solver_error.hpp"
#include "solvers/adi_cuda/adi_batch_kernels.hpp"
#include "solvers/gpu/plan/batch_image.hpp"

namespace elsbench::gpu {
namespace {

template <class X>
DeviceArray<X> uploaded(DeviceAllocator& alloc, const std::vector<X>& host, const std::string& what) {
  DeviceArray<X> d(alloc, host.size(), what);
  d.upload(host, what);
  return d;
}

template <class T>
std::vector<MarchResult> march_batch(const std::vector<const Problem*>& problems, const AdiScheme& scheme,
                                     int device) {
  std::string why;
  const std::vector<GpuInfo> gpus = cuda_devices(&why);
  if (device < 0 || device >= static_cast<int>(gpus.size()))
    throw SolverError(SolverError::Kind::Unavailable, "CUDA device cuda:" + std::to_string(device) +
                                                          " is not usable (" + std::to_string(gpus.size()) +
                                                          " device(s)" + (why.empty() ? "" : ": " + why) + ")");
  const DeviceGuard on(device);
  const GpuBatchPlan plan = make_gpu_batch_plan(problems, scheme, sizeof(T));
  const BatchImage<T> im = make_batch_image<T>(problems, plan);

  DeviceAllocator alloc;
  const DeviceArray<T> constants = uploaded(alloc, im.constants, "batch operators, factor tables, event weights");
  DeviceArray<T> buffers[3] = {uploaded(alloc, im.initial, "batch value buffer 0"),
                               DeviceArray<T>(alloc, im.initial.size(), "batch value buffer 1"),
                               DeviceArray<T>(alloc, im.initial.size(), "batch value buffer 2")};
  const DeviceArray<GpuStep> steps = uploaded(alloc, im.steps, "batch step records");
  const DeviceArray<GpuEvent> events = uploaded(alloc, im.events, "batch event records");
  T* const bases[3] = {buffers[0].data(), buffers[1].data(), buffers[2].data()};
  const DeviceArray<MarchArgs<T>> notes = uploaded(
      alloc, batch_march_args<T>(plan, im, constants.data(), bases, steps.data(), events.data()), "batch notes");
  DeviceArray<StageLayout> layouts[2];
  DeviceArray<long long> first_block[2];
  BatchArgs<T> b;
  b.notes = notes.data();
  b.note_count = plan.size();
  for (int d = 0; d < 2; ++d) {
    layouts[d] = uploaded(alloc, plan.layouts[d], "batch stage layouts");
    first_block[d] = uploaded(alloc, plan.first_block[d], "batch block offsets");
    b.layouts[d] = layouts[d].data();
    b.first_block[d] = first_block[d].data();
  }
  const DeviceArray<long long> first_event_block = uploaded(alloc, plan.first_event_block, "batch event offsets");
  b.first_event_block = first_event_block.data();

  prepare_batch_kernels<T>(plan.smem_bytes[0], plan.blocks(1) > 0 ? plan.smem_bytes[1] : 0);
  CudaStream stream;
  DeviceTimer timer;
  timer.start(stream.get());
  for (int j = 0; j < plan.max_steps; ++j) {
    for (int round = 1; round <= (plan.two_rounds ? 2 : 1); ++round)
      for (int axis = 0; axis < 2; ++axis)
        if (plan.blocks(axis) > 0)
          launch_batch_stage(b, axis, plan.blocks(axis), plan.threads[axis], plan.smem_bytes[axis], j, round,
                             stream.get());
    if (plan.has_events) launch_batch_events(b, plan.event_blocks(), j, stream.get());
  }
  timer.stop(stream.get());
  stream.synchronize();
  const double seconds = timer.seconds();

  std::ostringstream note;
  note << std::fixed << std::setprecision(3) << "batched device march of " << plan.size() << " notes, "
       << plan.max_steps << " launches per stage: " << seconds * 1e3 << " ms (CUDA events, "
       << gpus[static_cast<std::size_t>(device)].name << "); device memory " << alloc.peak()
       << " bytes counted for the batch";
  std::vector<MarchResult> out;
  for (int k = 0; k < plan.size(); ++k) {
    const GpuPlan& p = plan.notes[static_cast<std::size_t>(k)];
    std::vector<T> layer0(static_cast<std::size_t>(p.points));
    copy_to_host(layer0.data(), buffers[p.final_buffer].data() + im.notes[static_cast<std::size_t>(k)].values,
                 layer0.size() * sizeof(T), "cudaMemcpy (download a note of the batch)");
    MarchResult m;
    m.values.assign(layer0.begin(), layer0.end());
    m.scheme = scheme.name();
    m.peak_device_bytes = alloc.peak();
    m.notes.push_back(note.str());
    out.push_back(std::move(m));
  }
  return out;
}

}  // namespace

std::vector<MarchResult> march_book_on_adi_cuda(const std::vector<const Problem*>& problems, const SolverOptions& opt) {
  const AdiScheme scheme = adi_scheme(opt.scheme.empty() ? adi_scheme_names().front() : opt.scheme);
  return opt.precision == Precision::FP64 ? march_batch<double>(problems, scheme, opt.device.index)
                                          : march_batch<float>(problems, scheme, opt.device.index);
}

}  // namespace elsbench::gpu
