// adi-cuda's book march: the batch plan and image made on the host before the march (on the
// book's builder thread, while the previous batch marches: prepare_book_on_adi_cuda) and, for
// the on-chip march, uploaded there too; then either the on-chip march (the default: one persistent launch, each CTA marching whole
// notes from a queue, note_kernel.cu; fp64, fp32 or mixed) or the batched march
// (ELSBENCH_BOOK_MARCH=batched: per step one launch per stage and round covering every note,
// adi_batch_kernels.cu, and one event launch); the values of each note's layer 0 downloaded at the
// end. The first note's result carries the batch's times.
#include "solvers/adi_cuda/adi_cuda_book.hpp"

#include <chrono>
#include <cstdlib>
#include <iomanip>
#include <memory>
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

// Uploads into arrays that `alloc` counts: on `stream` when `on_stream` (a batch's own stream, while
// the book's previous batch may march; synchronised before this batch marches), else copies that
// synchronise the device.
struct Uploads {
  DeviceAllocator& alloc;
  cudaStream_t stream = nullptr;
  bool on_stream = false;

  template <class X, class Alloc>
  DeviceArray<X> operator()(const std::vector<X, Alloc>& host, const std::string& what) const {
    DeviceArray<X> d(alloc, host.size(), what);
    if (on_stream) d.upload_on(stream, host, what);
    else d.upload(host, what);
    return d;
  }

  // `count` values from `host` into `d` at `offset`. From pageable memory a copy returns once
  // its source is staged, so the source may be reused at once. Off the stream the device is
  // synchronised once, by settle(), not after each part.
  template <class X>
  void part(const DeviceArray<X>& d, long long offset, const X* host, std::size_t count,
            const std::string& what) const {
    if (count == 0) return;
    if (offset < 0 || static_cast<std::size_t>(offset) + count > d.size())
      throw std::logic_error("upload of " + what + ": part out of range");
    X* at = d.data() + offset;
    if (on_stream) copy_to_device_on(stream, at, host, count * sizeof(X), "cudaMemcpyAsync (upload " + what + ")");
    else copy_to_device_unsynchronised(at, host, count * sizeof(X), "cudaMemcpy (upload " + what + ")");
  }
  void settle() const {
    if (!on_stream) cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize after the batch's uploads");
  }
};

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

  UploadedBatch(const Uploads& up, const std::vector<const Problem*>& problems, const GpuBatchPlan& plan,
                const BatchImage<T>& im, bool scratch)
      : constants(up(im.constants, "batch operators, factor tables, event weights")),
        steps(up.alloc, im.step_count, "batch step records"),
        events(up(im.events, "batch event records")),
        fractions(up(im.fractions, "batch event fractions")) {
    for (int i = 0; i < (scratch ? 3 : 1); ++i)
      buffers[i] = DeviceArray<T>(up.alloc, im.value_count, "batch value buffer " + std::to_string(i));
    for_each_note_payoff(
        problems, plan, im,
        [&](std::size_t, long long at, const T* payoff, std::size_t count) {
          up.part(buffers[0], at, payoff, count, "a note's payoff");
        },
        [&](std::size_t, long long at, const GpuStep* records, std::size_t count) {
          up.part(steps, at, records, count, "a note's step records");
        });
    up.settle();
    bases.constants = constants.data();
    for (int i = 0; i < 3; ++i) bases.buffers[i] = buffers[i].data();
    bases.steps = steps.data();
    bases.events = events.data();
    bases.fractions = fractions.data();
    notes = up(batch_march_args<T>(plan, im, bases), "batch notes");
  }
};

// A launch group's host side, made before its march: the notes' plans and batch image with
// values in V, and what else the march needs of the host (the on-chip queue's order; a mixed
// march's constants rounded to fp32). `seconds`: the time it took (the batch's set-up).
template <class V>
struct HostSide {
  std::vector<const Problem*> problems;  // the book keeps a chunk's problems until its prices are read
  GpuBatchPlan plan;
  BatchImage<V> image;
  std::vector<int> order;
  UninitializedVector<float> narrow;
  double seconds = 0;

  HostSide(const std::vector<const Problem*>& notes, const AdiScheme& scheme, bool on_chip, bool mixed)
      : problems(notes) {
    const Clock::time_point t = Clock::now();
    plan = make_gpu_batch_plan(problems, scheme, sizeof(V));
    image = make_batch_image<V>(problems, plan, on_chip ? EventWeights::PerAxis : EventWeights::PerNode);
    if (on_chip) order = longest_first(plan);
    if constexpr (std::is_same_v<V, double>)
      if (mixed) narrow = narrowed_constants(image);
    seconds = seconds_since(t);
  }

  // Once uploaded, only the plan and the notes' offsets are read (the downloads): the arrays' host
  // memory (hundreds of MB a batch) is returned while the batch waits for its march.
  void drop_arrays() {
    const auto release = [](auto& v) { v = std::decay_t<decltype(v)>(); };
    release(image.constants);
    release(image.fractions);
    release(image.events);
    release(narrow);
  }
};

// The name of CUDA device `device`; refused (Unavailable) when there is none such.
std::string usable_gpu(int device) {
  std::string why;
  const std::vector<GpuInfo> gpus = cuda_devices(&why);
  if (device < 0 || device >= static_cast<int>(gpus.size()))
    throw SolverError(SolverError::Kind::Unavailable, "CUDA device cuda:" + std::to_string(device) +
                                                          " is not usable (" + std::to_string(gpus.size()) +
                                                          " device(s)" + (why.empty() ? "" : ": " + why) + ")");
  return gpus[static_cast<std::size_t>(device)].name;
}

// Layer 0 of each note downloaded (timed) into the results, the first carrying the batch's times;
// `note` describes the march; the values are in buffer 0 or in each note's final buffer.
template <class V>
std::vector<MarchResult> downloaded(const HostSide<V>& host, const UploadedBatch<V>& dev, bool final_in_buffer_0,
                                    BatchTimes times, const AdiScheme& scheme, std::size_t peak_device_bytes,
                                    const std::string& note) {
  const Clock::time_point t = Clock::now();
  std::vector<MarchResult> out;
  for (int k = 0; k < host.plan.size(); ++k) {
    const GpuPlan& p = host.plan.notes[static_cast<std::size_t>(k)];
    std::vector<V> layer0(static_cast<std::size_t>(p.points));
    const V* from = dev.buffers[final_in_buffer_0 ? 0 : p.final_buffer].data();
    copy_to_host(layer0.data(), from + host.image.notes[static_cast<std::size_t>(k)].values,
                 layer0.size() * sizeof(V), "cudaMemcpy (download a note of the batch)");
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

// Per step, one launch per stage and round covering every note, and one event launch.
template <class T>
std::vector<MarchResult> march_batch(const HostSide<T>& host, const AdiScheme& scheme, int device) {
  const std::string gpu_name = usable_gpu(device);
  const GpuBatchPlan& plan = host.plan;
  BatchTimes times;
  times.setup = host.seconds;
  const DeviceGuard on(device);
  Clock::time_point t = Clock::now();
  DeviceAllocator alloc;
  const Uploads up{alloc};
  const UploadedBatch<T> dev(up, host.problems, plan, host.image, true);
  DeviceArray<StageLayout> layouts[2];
  DeviceArray<long long> first_block[2];
  BatchArgs<T> b;
  b.notes = dev.notes.data();
  b.note_count = plan.size();
  for (int d = 0; d < 2; ++d) {
    layouts[d] = up(plan.layouts[d], "batch stage layouts");
    first_block[d] = up(plan.first_block[d], "batch block offsets");
    b.layouts[d] = layouts[d].data();
    b.first_block[d] = first_block[d].data();
  }
  const DeviceArray<long long> first_event_block = up(plan.first_event_block, "batch event offsets");
  b.first_event_block = first_event_block.data();
  times.upload = seconds_since(t);

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
    if (plan.has_lifts) launch_batch_events(b, plan.event_blocks(), j, stream.get(), true);
    if (plan.has_events) launch_batch_events(b, plan.event_blocks(), j, stream.get());
  }
  timer.stop(stream.get());
  stream.synchronize();
  times.march = timer.seconds();

  std::ostringstream note;
  note << std::fixed << std::setprecision(3) << "batched device march of " << plan.size() << " notes, "
       << plan.max_steps << " launches per stage: " << times.march * 1e3 << " ms (CUDA events, " << gpu_name
       << "); device memory " << alloc.peak() << " bytes counted for the batch";
  return downloaded(host, dev, false, times, scheme, alloc.peak(), note.str());
}

// A mixed march's stages over an uploaded fp64 batch: its constants rounded to fp32, each note's
// fp32 arguments over them, and each note's values and fp64 operators (WideNote).
struct NarrowStages {
  DeviceArray<float> constants;
  DeviceArray<MarchArgs<float>> notes;
  DeviceArray<WideNote<double>> wide;

  NarrowStages(const Uploads& up, const HostSide<double>& host, const UploadedBatch<double>& dev) {
    constants = up(host.narrow, "batch operators and factor tables in fp32");
    const MixedNotes m = mixed_notes(host.plan, host.image, dev.bases, constants.data());
    notes = up(m.stages, "batch notes in fp32");
    wide = up(m.wide, "batch notes' values in fp64");
  }
};

// One persistent launch: each CTA marches whole notes from the queue (kernels/note_march.hpp),
// values in V, stages in T. The batch is uploaded by the thread that prepares it (the book's
// builder, while the previous batch marches) on a stream of its own, synchronised before the
// constructor returns; march() launches, waits and downloads on the book's thread.
template <class V, class T>
class OnChipBatch {
 public:
  OnChipBatch(HostSide<V> host, int device) : host_(std::move(host)), device_(device), gpu_name_(usable_gpu(device)) {
    try {
      upload();
    } catch (...) {
      release();
      throw;
    }
    host_.drop_arrays();
  }

  // The device's arrays are freed on their own device, whichever thread drops the batch.
  ~OnChipBatch() { release(); }
  OnChipBatch(const OnChipBatch&) = delete;
  OnChipBatch& operator=(const OnChipBatch&) = delete;

  std::vector<MarchResult> march(const AdiScheme& scheme) {
    const DeviceGuard on(device_);
    CudaStream stream;
    DeviceTimer timer;
    timer.start(stream.get());
    launch_book_on_chip(book_, queue_.data(), workspaces_.data(), room_, launch_, stream.get());
    timer.stop(stream.get());
    stream.synchronize();
    times_.march = timer.seconds();
    std::ostringstream note;
    note << std::fixed << std::setprecision(3) << "on-chip device march of " << host_.plan.size() << " notes on "
         << launch_.ctas << " CTAs of " << kNoteThreads<V, T> << " threads, state in " << to_string(launch_.home)
         << " (" << launch_.workspace_bytes << " bytes a CTA): " << times_.march * 1e3 << " ms (CUDA events, "
         << gpu_name_ << "); device memory " << alloc_.peak() << " bytes counted for the batch";
    return downloaded(host_, *dev_, true, times_, scheme, alloc_.peak(), note.str());
  }

 private:
  // On a stream of the batch's own, synchronised before the batch is handed back.
  void upload() {
    const DeviceGuard on(device_);
    room_ = on_chip_workspace(host_.plan);
    launch_ = on_chip_launch<V, T>(room_);
    const Clock::time_point t = Clock::now();
    const CudaStream stream;
    const Uploads up{alloc_, stream.get(), true};
    dev_.emplace(up, host_.problems, host_.plan, host_.image, false);
    if constexpr (std::is_same_v<V, T>) {
      book_.notes = dev_->notes.data();
    } else {
      narrow_.emplace(up, host_, *dev_);
      book_.notes = narrow_->notes.data();
      book_.wide = narrow_->wide.data();
    }
    queue_order_ = up(host_.order, "on-chip queue order");
    queue_ = up(std::vector<int>{0}, "on-chip queue position");
    if (launch_.home == StateHome::Global)
      workspaces_ = DeviceArray<unsigned char>(alloc_, static_cast<std::size_t>(launch_.ctas) * launch_.workspace_bytes,
                                               "on-chip march workspaces (global path)");
    stream.synchronize();
    times_.setup = host_.seconds;
    times_.upload = seconds_since(t);
    book_.order = queue_order_.data();
    book_.note_count = host_.plan.size();
  }

  void release() noexcept {
    try {
      const DeviceGuard on(device_);
      drop_device_arrays();
    } catch (...) {
      drop_device_arrays();
    }
  }

  void drop_device_arrays() noexcept {
    workspaces_ = DeviceArray<unsigned char>();
    queue_ = DeviceArray<int>();
    queue_order_ = DeviceArray<int>();
    narrow_.reset();
    dev_.reset();
  }

  HostSide<V> host_;
  int device_;
  std::string gpu_name_;
  OnChipWorkspace room_;
  OnChipLaunch launch_;
  BatchTimes times_;
  DeviceAllocator alloc_;  // before the arrays it counts, which release into it
  std::optional<UploadedBatch<V>> dev_;
  std::optional<NarrowStages> narrow_;
  DeviceArray<int> queue_order_, queue_;
  DeviceArray<unsigned char> workspaces_;
  OnChipBook<V, T> book_;
};

// The on-chip march of a group whose host side is made: its batch uploaded now, marched later.
template <class V, class T>
BookMarch uploaded_on_chip(HostSide<V> host, const AdiScheme& scheme, int device) {
  auto batch = std::make_shared<OnChipBatch<V, T>>(std::move(host), device);
  return [batch, scheme] { return batch->march(scheme); };
}

// ELSBENCH_BOOK_MARCH=batched selects the per-step batched launches instead of the on-chip march.
bool on_chip_march() {
  const char* choice = std::getenv("ELSBENCH_BOOK_MARCH");
  if (!choice || std::string(choice).empty() || std::string(choice) == "on-chip") return true;
  if (std::string(choice) == "batched") return false;
  throw SolverError(SolverError::Kind::Unsupported,
                    std::string("ELSBENCH_BOOK_MARCH is '") + choice + "': it takes on-chip or batched");
}

// A launch group's march, its host side made now (and for the on-chip march its upload): values
// and stages in T.
template <class T>
BookMarch prepared_march(const std::vector<const Problem*>& problems, const AdiScheme& scheme, int device) {
  const bool on_chip = on_chip_march();
  if (!on_chip)
    for (const Problem* pb : problems)
      if (pb->dim > 2)
        throw SolverError(SolverError::Kind::Unsupported,
                          "adi-cuda's batched book march (ELSBENCH_BOOK_MARCH=batched) takes 1 or 2 underlyings; "
                          "three run in the on-chip march (the default)");
  HostSide<T> host(problems, scheme, on_chip, false);
  if (on_chip) return uploaded_on_chip<T, T>(std::move(host), scheme, device);
  auto shared = std::make_shared<const HostSide<T>>(std::move(host));
  return [shared, scheme, device] { return march_batch<T>(*shared, scheme, device); };
}

// Mixed precision (fp64 values, fp32 increments) is the on-chip march's only.
BookMarch prepared_mixed_march(const std::vector<const Problem*>& problems, const AdiScheme& scheme, int device) {
  if (!on_chip_march())
    throw SolverError(SolverError::Kind::Unsupported,
                      "adi-cuda's batched book march (ELSBENCH_BOOK_MARCH=batched) takes fp64 or fp32; mixed "
                      "precision runs in the on-chip march (the default)");
  return uploaded_on_chip<double, float>(HostSide<double>(problems, scheme, true, true), scheme, device);
}

BookMarch prepared_group(const std::vector<const Problem*>& problems, const AdiScheme& scheme,
                         const SolverOptions& opt) {
  switch (opt.precision) {
    case Precision::FP64: return prepared_march<double>(problems, scheme, opt.device.index);
    case Precision::FP32: return prepared_march<float>(problems, scheme, opt.device.index);
    case Precision::Mixed: break;
  }
  return prepared_mixed_march(problems, scheme, opt.device.index);
}

}  // namespace

// Notes of one or two underlyings and notes of three march in launches of their own: a CTA's
// workspace is sized for the launch's largest note, and a three-asset note's (megabytes) would
// send every smaller note of its launch to the global path.
BookMarch prepare_book_on_adi_cuda(const std::vector<const Problem*>& problems, const SolverOptions& opt) {
  const AdiScheme scheme = adi_scheme(opt.scheme.empty() ? adi_scheme_names().front() : opt.scheme);
  std::vector<std::vector<std::size_t>> groups(2);
  for (std::size_t k = 0; k < problems.size(); ++k) groups[problems[k]->dim == 3 ? 1 : 0].push_back(k);
  std::erase_if(groups, [](const std::vector<std::size_t>& g) { return g.empty(); });
  std::vector<BookMarch> marches;
  for (const std::vector<std::size_t>& group : groups) {
    std::vector<const Problem*> part;
    for (std::size_t k : group) part.push_back(problems[k]);
    marches.push_back(prepared_group(part, scheme, opt));
  }
  return [groups, marches, count = problems.size()] {
    std::vector<MarchResult> out(count);
    for (std::size_t g = 0; g < groups.size(); ++g) {
      std::vector<MarchResult> marched = marches[g]();
      for (std::size_t i = 0; i < groups[g].size(); ++i) out[groups[g][i]] = std::move(marched[i]);
    }
    return out;
  };
}

std::vector<MarchResult> march_book_on_adi_cuda(const std::vector<const Problem*>& problems, const SolverOptions& opt) {
  return prepare_book_on_adi_cuda(problems, opt)();
}

}  // namespace elsbench::gpu
