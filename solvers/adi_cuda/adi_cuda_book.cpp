// adi-cuda's book march: the batch plan and image built on the host once, uploaded at once, then
// either the on-chip march (the default: one persistent launch, each CTA marching whole notes from
// a queue, note_kernel.cu; fp64, fp32 or mixed) or the batched march (ELSBENCH_BOOK_MARCH=batched: per step one launch
// per stage and round covering every note, adi_batch_kernels.cu, and one event launch); the values
// of each note's layer 0 downloaded at the end. The first note's result carries the batch's times.
#include "solvers/adi_cuda/adi_cuda_book.hpp"

#include <chrono>
#include <cstdlib>
#include <iomanip>
#include <optional>
#include <sstream>
#include <type_traits>

#include "platform/cuda/cuda_check.hpp"
#include "platform/cuda/cuda_handles.hpp"
#include "platform/cuda/device_guard.hpp"
#include "platform/cuda/device_memory.hpp"
#include "platform/cuda_devices.hpp"
#include "platform/solver_error.hpp"
#include "platform/stopwatch.hpp"
#include "solvers/adi_cuda/adi_batch_kernels.hpp"
#include "solvers/adi_cuda/note_kernel.hpp"
#include "solvers/gpu/plan/batch_image.hpp"
#include "solvers/gpu/plan/on_chip_plan.hpp"

namespace elsbench::gpu {
namespace {

template <class X, class Alloc>
DeviceArray<X> uploaded(DeviceAllocator& alloc, const std::vector<X, Alloc>& host, const std::string& what) {
  DeviceArray<X> d(alloc, host.size(), what);
  d.upload(host, what);
  return d;
}

using Clock = std::chrono::steady_clock;

// A batch image's arrays on the device, and each note's kernel arguments over them. `scratch`:
// the two further value buffers the batched stage kernels rotate through (the on-chip march keeps
// its scratch in each CTA's workspace).
template <class T>
struct UploadedBatch {
  DeviceArray<T> constants;
  DeviceArray<T> buffers[3];
  DeviceArray<GpuStep> steps;
  DeviceArray<GpuEvent> events;
  DeviceArray<double> fractions;
  BatchBases<T> bases;  // the arrays above
  DeviceArray<MarchArgs<T>> notes;

  UploadedBatch(DeviceAllocator& alloc, const GpuBatchPlan& plan, const BatchImage<T>& im, bool scratch)
      : constants(uploaded(alloc, im.constants, "batch operators, factor tables, event weights")),
        steps(uploaded(alloc, im.steps, "batch step records")),
        events(uploaded(alloc, im.events, "batch event records")),
        fractions(uploaded(alloc, im.fractions, "batch event fractions")) {
    buffers[0] = uploaded(alloc, im.initial, "batch value buffer 0");
    if (scratch)
      for (int i = 1; i < 3; ++i)
        buffers[i] = DeviceArray<T>(alloc, im.initial.size(), "batch value buffer " + std::to_string(i));
    bases.constants = constants.data();
    for (int i = 0; i < 3; ++i) bases.buffers[i] = buffers[i].data();
    bases.steps = steps.data();
    bases.events = events.data();
    bases.fractions = fractions.data();
    notes = uploaded(alloc, batch_march_args<T>(plan, im, bases), "batch notes");
  }
};

// The host's side of a batch: the device checked, the plan and image built (timed: set-up), and
// at the end layer 0 of each note downloaded (timed) into the results, the first carrying the times.
template <class T>
struct HostBatch {
  std::string gpu_name;
  GpuBatchPlan plan;
  BatchImage<T> image;
  BatchTimes times;

  HostBatch(const std::vector<const Problem*>& problems, const AdiScheme& scheme, int device, EventWeights weights) {
    std::string why;
    const std::vector<GpuInfo> gpus = cuda_devices(&why);
    if (device < 0 || device >= static_cast<int>(gpus.size()))
      throw SolverError(SolverError::Kind::Unavailable, "CUDA device cuda:" + std::to_string(device) +
                                                            " is not usable (" + std::to_string(gpus.size()) +
                                                            " device(s)" + (why.empty() ? "" : ": " + why) + ")");
    gpu_name = gpus[static_cast<std::size_t>(device)].name;
    const Clock::time_point t = Clock::now();
    plan = make_gpu_batch_plan(problems, scheme, sizeof(T));
    image = make_batch_image<T>(problems, plan, weights);
    times.setup = seconds_since(t);
  }

  // `note` describes the march; the values are in buffer 0 or in each note's final buffer.
  std::vector<MarchResult> results(const UploadedBatch<T>& dev, bool final_in_buffer_0, const AdiScheme& scheme,
                                   std::size_t peak_device_bytes, const std::string& note) {
    const Clock::time_point t = Clock::now();
    std::vector<MarchResult> out;
    for (int k = 0; k < plan.size(); ++k) {
      const GpuPlan& p = plan.notes[static_cast<std::size_t>(k)];
      std::vector<T> layer0(static_cast<std::size_t>(p.points));
      const T* from = dev.buffers[final_in_buffer_0 ? 0 : p.final_buffer].data();
      copy_to_host(layer0.data(), from + image.notes[static_cast<std::size_t>(k)].values, layer0.size() * sizeof(T),
                   "cudaMemcpy (download a note of the batch)");
      MarchResult m;
      m.values.assign(layer0.begin(), layer0.end());
      m.scheme = scheme.name();
      m.peak_device_bytes = peak_device_bytes;
      m.notes.push_back(note);
      out.push_back(std::move(m));
    }
    times.download = seconds_since(t);
    out.front().batch_times = times;
    return out;
  }
};

// Per step, one launch per stage and round covering every note, and one event launch.
template <class T>
std::vector<MarchResult> march_batch(const std::vector<const Problem*>& problems, const AdiScheme& scheme,
                                     int device) {
  for (const Problem* pb : problems)
    if (pb->dim > 2)
      throw SolverError(SolverError::Kind::Unsupported,
                        "adi-cuda's batched book march (ELSBENCH_BOOK_MARCH=batched) takes 1 or 2 underlyings; three "
                        "run in the on-chip march (the default)");
  HostBatch<T> host(problems, scheme, device, EventWeights::PerNode);
  const GpuBatchPlan& plan = host.plan;
  const DeviceGuard on(device);
  Clock::time_point t = Clock::now();
  DeviceAllocator alloc;
  const UploadedBatch<T> dev(alloc, plan, host.image, true);
  DeviceArray<StageLayout> layouts[2];
  DeviceArray<long long> first_block[2];
  BatchArgs<T> b;
  b.notes = dev.notes.data();
  b.note_count = plan.size();
  for (int d = 0; d < 2; ++d) {
    layouts[d] = uploaded(alloc, plan.layouts[d], "batch stage layouts");
    first_block[d] = uploaded(alloc, plan.first_block[d], "batch block offsets");
    b.layouts[d] = layouts[d].data();
    b.first_block[d] = first_block[d].data();
  }
  const DeviceArray<long long> first_event_block = uploaded(alloc, plan.first_event_block, "batch event offsets");
  b.first_event_block = first_event_block.data();
  host.times.upload = seconds_since(t);

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
  host.times.march = timer.seconds();

  std::ostringstream note;
  note << std::fixed << std::setprecision(3) << "batched device march of " << plan.size() << " notes, "
       << plan.max_steps << " launches per stage: " << host.times.march * 1e3 << " ms (CUDA events, "
       << host.gpu_name << "); device memory " << alloc.peak() << " bytes counted for the batch";
  return host.results(dev, false, scheme, alloc.peak(), note.str());
}

// A mixed march's stages over an uploaded fp64 batch: its constants rounded to fp32, each note's
// fp32 arguments over them, and each note's values and fp64 operators (WideNote).
struct NarrowStages {
  DeviceArray<float> constants;
  DeviceArray<MarchArgs<float>> notes;
  DeviceArray<WideNote<double>> wide;

  NarrowStages(DeviceAllocator& alloc, const GpuBatchPlan& plan, const BatchImage<double>& im,
               const UploadedBatch<double>& dev, double& setup) {
    const Clock::time_point t = Clock::now();
    const UninitializedVector<float> narrow = narrowed_constants(im);
    setup += seconds_since(t);
    constants = uploaded(alloc, narrow, "batch operators and factor tables in fp32");
    const MixedNotes m = mixed_notes(plan, im, dev.bases, constants.data());
    notes = uploaded(alloc, m.stages, "batch notes in fp32");
    wide = uploaded(alloc, m.wide, "batch notes' values in fp64");
  }
};

// One persistent launch: each CTA marches whole notes from the queue (kernels/note_march.hpp),
// values in V, stages in T.
template <class V, class T>
std::vector<MarchResult> march_on_chip(const std::vector<const Problem*>& problems, const AdiScheme& scheme,
                                       int device) {
  HostBatch<V> host(problems, scheme, device, EventWeights::PerAxis);
  const GpuBatchPlan& plan = host.plan;
  Clock::time_point t = Clock::now();
  const std::vector<int> order = longest_first(plan);
  host.times.setup += seconds_since(t);
  const DeviceGuard on(device);
  const OnChipWorkspace room = on_chip_workspace(plan);
  const OnChipLaunch launch = on_chip_launch<V, T>(room);
  t = Clock::now();
  DeviceAllocator alloc;
  const UploadedBatch<V> dev(alloc, plan, host.image, false);
  OnChipBook<V, T> book;
  std::optional<NarrowStages> narrow;
  if constexpr (std::is_same_v<V, T>) {
    book.notes = dev.notes.data();
  } else {
    narrow.emplace(alloc, plan, host.image, dev, host.times.setup);
    book.notes = narrow->notes.data();
    book.wide = narrow->wide.data();
  }
  const DeviceArray<int> queue_order = uploaded(alloc, order, "on-chip queue order");
  const DeviceArray<int> queue = uploaded(alloc, std::vector<int>{0}, "on-chip queue position");
  DeviceArray<unsigned char> workspaces;
  if (!launch.in_shared)
    workspaces = DeviceArray<unsigned char>(alloc, static_cast<std::size_t>(launch.ctas) * launch.workspace_bytes,
                                            "on-chip march workspaces (global path)");
  host.times.upload = seconds_since(t);

  book.order = queue_order.data();
  book.note_count = plan.size();
  CudaStream stream;
  DeviceTimer timer;
  timer.start(stream.get());
  launch_book_on_chip(book, queue.data(), workspaces.data(), room, launch, stream.get());
  timer.stop(stream.get());
  stream.synchronize();
  host.times.march = timer.seconds();

  std::ostringstream note;
  note << std::fixed << std::setprecision(3) << "on-chip device march of " << plan.size() << " notes on "
       << launch.ctas << " CTAs of " << kNoteThreads<V, T> << " threads, state in "
       << (launch.in_shared ? "shared memory" : "global memory") << " (" << launch.workspace_bytes
       << " bytes a CTA): " << host.times.march * 1e3 << " ms (CUDA events, " << host.gpu_name
       << "); device memory " << alloc.peak() << " bytes counted for the batch";
  return host.results(dev, true, scheme, alloc.peak(), note.str());
}

// ELSBENCH_BOOK_MARCH=batched selects the per-step batched launches instead of the on-chip march.
bool on_chip_march() {
  const char* choice = std::getenv("ELSBENCH_BOOK_MARCH");
  if (!choice || std::string(choice).empty() || std::string(choice) == "on-chip") return true;
  if (std::string(choice) == "batched") return false;
  throw SolverError(SolverError::Kind::Unsupported,
                    std::string("ELSBENCH_BOOK_MARCH is '") + choice + "': it takes on-chip or batched");
}

template <class T>
std::vector<MarchResult> march_book(const std::vector<const Problem*>& problems, const AdiScheme& scheme, int device) {
  return on_chip_march() ? march_on_chip<T, T>(problems, scheme, device) : march_batch<T>(problems, scheme, device);
}

// Mixed precision (fp64 values, fp32 increments) is the on-chip march's only.
std::vector<MarchResult> march_book_mixed(const std::vector<const Problem*>& problems, const AdiScheme& scheme,
                                          int device) {
  if (!on_chip_march())
    throw SolverError(SolverError::Kind::Unsupported,
                      "adi-cuda's batched book march (ELSBENCH_BOOK_MARCH=batched) takes fp64 or fp32; mixed "
                      "precision runs in the on-chip march (the default)");
  return march_on_chip<double, float>(problems, scheme, device);
}

std::vector<MarchResult> march_book_in(const std::vector<const Problem*>& problems, const AdiScheme& scheme,
                                       const SolverOptions& opt) {
  switch (opt.precision) {
    case Precision::FP64: return march_book<double>(problems, scheme, opt.device.index);
    case Precision::FP32: return march_book<float>(problems, scheme, opt.device.index);
    case Precision::Mixed: break;
  }
  return march_book_mixed(problems, scheme, opt.device.index);
}

}  // namespace

// Notes of one or two underlyings and notes of three march in launches of their own: a CTA's
// workspace is sized for the launch's largest note, and a three-asset note's (megabytes) would
// send every smaller note of its launch to the global path.
std::vector<MarchResult> march_book_on_adi_cuda(const std::vector<const Problem*>& problems, const SolverOptions& opt) {
  const AdiScheme scheme = adi_scheme(opt.scheme.empty() ? adi_scheme_names().front() : opt.scheme);
  std::vector<std::size_t> groups[2];
  for (std::size_t k = 0; k < problems.size(); ++k) groups[problems[k]->dim == 3 ? 1 : 0].push_back(k);
  std::vector<MarchResult> out(problems.size());
  for (const std::vector<std::size_t>& group : groups) {
    if (group.empty()) continue;
    std::vector<const Problem*> part;
    for (std::size_t k : group) part.push_back(problems[k]);
    std::vector<MarchResult> marched = march_book_in(part, scheme, opt);
    for (std::size_t i = 0; i < group.size(); ++i) out[group[i]] = std::move(marched[i]);
  }
  return out;
}

}  // namespace elsbench::gpu
