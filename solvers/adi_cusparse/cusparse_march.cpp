// adi-cusparse and adi-cusparse-interleaved: the march of adi-cuda with the implicit stages
// solved by cuSPARSE. Per stage: one kernel writes the right-hand side and the three diagonals in
// the library's layout (cusparse_kernels.cu), the library solves, and where the layout was
// transposed one kernel brings the solution back. The explicit parts, buffer roles and events are
// adi-cuda's (same step records, same kernels).
#include <algorithm>
#include <map>
#include <memory>
#include <sstream>
#include <utility>
#include <vector>

#include "platform/cuda/cuda_handles.hpp"
#include "solvers/adi_cusparse/cusparse_backend.hpp"
#include "solvers/adi_cusparse/cusparse_calls.hpp"
#include "solvers/adi_cusparse/cusparse_kernels.hpp"
#include "solvers/gpu/cuda/device_march_data.hpp"
#include "solvers/gpu/cuda/event_kernels.hpp"
#include "solvers/gpu/cuda/march_backend.hpp"
#include "solvers/gpu/cuda/march_graph.hpp"
#include "solvers/gpu/cuda/step_counter.hpp"

namespace elsbench::gpu {
namespace {

// The steps are captured in CUDA graphs like adi-cuda's (march_graph.hpp), each group of
// kStepsPerGraph steps replayed from one. The kernels read their step at *step_base + local, but the
// library calls take fixed pointers (the buffer a stage solves in rotates with the steps' buffer
// roles) and cannot return early on a damped step, so groups share a graph only when their steps
// have the same rounds, events and buffer roles (GroupKey): a 1000-step march needs a few graphs. If
// a capture fails (a library call this CUDA version cannot capture), the march runs eagerly on one
// stream and its note says why.
constexpr int kStepsPerGraph = 32;

// What the launches of a group of steps depend on, per step: rounds, events (and their lifts),
// buffer roles.
using GroupKey = std::vector<int>;

GroupKey group_key(const GpuPlan& plan, int first, int count) {
  GroupKey key;
  for (int j = first; j < first + count; ++j) {
    const GpuStep& s = plan.steps[static_cast<std::size_t>(j)];
    key.insert(key.end(), {s.two_rounds() ? 2 : 1, s.event_count > 0 ? 1 : 0, step_lifts(plan, s) ? 1 : 0, s.x,
                           s.y1, s.yk, s.out});
  }
  return key;
}

template <class T>
class CusparseMarch final : public MarchBackend {
 public:
  // Device arrays beyond adi-cuda's three value buffers, all counted in peak_device_bytes: dl, d, du
  // at full length (the library takes a matrix per system), one scratch array for transposed
  // systems, and the library's work buffer, sized by its own *_bufferSizeExt queries.
  CusparseMarch(const Problem& pb, const GpuPlan& plan, DeviceAllocator& alloc, bool interleaved)
      : plan_(plan), interleaved_(interleaved), data_(pb, plan, alloc, false), handle_(stream_.get()) {
    const auto values = static_cast<std::size_t>(plan.buffer_values());
    dl_ = DeviceArray<T>(alloc, values, "cuSPARSE lower diagonals");
    d_ = DeviceArray<T>(alloc, values, "cuSPARSE diagonals");
    du_ = DeviceArray<T>(alloc, values, "cuSPARSE upper diagonals");
    if (interleaved || plan.dim == 2) work_ = DeviceArray<T>(alloc, values, "transposed systems");
    buffer_bytes_ = library_buffer_bytes();
    buffer_ = DeviceArray<unsigned char>(alloc, buffer_bytes_, "cuSPARSE work buffer");
    capture_graphs();
  }

  double march() override {
    data_.reset(stream_.get());
    timer_.start(stream_.get());
    const int steps = static_cast<int>(plan_.steps.size());
    for (int j = 0; j < steps; j += kStepsPerGraph) {
      const int count = std::min(kStepsPerGraph, steps - j);
      if (!capture_failure_.empty()) {
        record(j, count);
      } else {
        graphs_.at(group_key(plan_, j, count))->launch(stream_.get());
      }
    }
    timer_.stop(stream_.get());
    stream_.synchronize();
    return timer_.seconds();
  }

  std::vector<double> values(bool all_layers) const override {
    return data_.download(plan_.final_buffer, all_layers);
  }

  std::vector<std::string> notes() const override {
    std::ostringstream n;
    n << (interleaved_ ? "cusparse<t>gtsvInterleavedBatch (algo 0)" : "cusparse<t>gtsv2StridedBatch")
      << " for the implicit stages; work buffer " << buffer_bytes_ << " bytes; "
      << (capture_failure_.empty() ? std::to_string(graphs_.size()) + " CUDA graphs"
                                   : "eager launches (graph capture failed: " + capture_failure_ + ")");
    return {n.str()};
  }

 private:
  int n0() const { return plan_.n0; }
  int n1() const { return plan_.n1; }
  int layers() const { return plan_.layers; }
  long long layer_stride() const { return plan_.layer_stride; }
  SolveLayout natural() const { return natural_layout(n0(), layer_stride()); }

  // The largest work buffer over the solves this march makes, asked of the library.
  std::size_t library_buffer_bytes() const {
    const cusparseHandle_t h = handle_.get();
    const T* x = data_.buffer(0);
    std::size_t bytes = 0;
    if (!interleaved_) {
      bytes = strided_buffer_bytes(h, n0(), dl_.data(), d_.data(), du_.data(), x, n1(), n0());
      if (plan_.dim == 2)
        bytes = std::max(bytes, strided_buffer_bytes(h, n1(), dl_.data(), d_.data(), du_.data(), work_.data(),
                                                     n0() * layers(), n1()));
    } else {
      bytes = interleaved_buffer_bytes(h, n0(), dl_.data(), d_.data(), du_.data(), work_.data(), n1() * layers());
      if (plan_.dim == 2)
        bytes = std::max(bytes, interleaved_buffer_bytes(h, n1(), dl_.data(), d_.data(), du_.data(), x, n0()));
    }
    return bytes;
  }

  // Steps first .. first + count - 1 (their kernels read them at *step_base + local; the host
  // takes their rounds, events and buffer roles), then the counter's advance.
  void record(int first, int count) {
    const int* base = data_.step_base();
    for (int local = 0; local < count; ++local) {
      const GpuStep& s = plan_.steps[static_cast<std::size_t>(first + local)];
      for (int round = 1; round <= (s.two_rounds() ? 2 : 1); ++round)
        for (int axis = 0; axis < plan_.dim; ++axis) stage(base, local, s, axis, round);
      if (step_lifts(plan_, s)) launch_step_events(data_.args(), event_blocks(plan_), base, local, stream_.get(), true);
      if (s.event_count > 0) launch_step_events(data_.args(), event_blocks(plan_), base, local, stream_.get());
    }
    launch_advance_steps(data_.step_base(), count, stream_.get());
  }

  void capture_graphs() {
    const int steps = static_cast<int>(plan_.steps.size());
    try {
      for (int j = 0; j < steps; j += kStepsPerGraph) {
        const int count = std::min(kStepsPerGraph, steps - j);
        GroupKey key = group_key(plan_, j, count);
        if (graphs_.count(key)) continue;
        graphs_.emplace(std::move(key),
                        std::make_unique<CapturedGraph>(stream_.get(), [this, j, count] { record(j, count); }));
      }
    } catch (const std::exception& e) {
      graphs_.clear();
      capture_failure_ = e.what();
    }
  }

  SystemArrays<T> system(T* rhs, SolveLayout layout, bool natural) const {
    return {rhs, dl_.data(), d_.data(), du_.data(), layout, natural};
  }

  void stage(const int* base, int local, const GpuStep& s, int axis, int round) {
    T* dest = data_.buffer(stage_target(s, axis, plan_.dim, round));
    if (interleaved_) {
      interleaved_stage(base, local, axis, round, dest);
    } else {
      strided_stage(base, local, axis, round, dest);
    }
  }

  // Axis 0: our rows are the strided systems, solved in place in the stage's target buffer, one
  // call per layer (the layers' aligned offsets break the one stride of a single batch).
  // Axis 1: systems transposed into `work`, solved, transposed back.
  void strided_stage(const int* base, int local, int axis, int round, T* dest) {
    const cudaStream_t st = stream_.get();
    const cusparseHandle_t h = handle_.get();
    if (axis == 0) {
      launch_store_system(data_.args(), base, local, 0, round, system(dest, natural(), true), st);
      for (int l = 0; l < layers(); ++l) {
        const long long off = l * layer_stride();
        strided_solve(h, n0(), dl_.data() + off, d_.data() + off, du_.data() + off, dest + off, n1(), n0(),
                      buffer_.data());
      }
      return;
    }
    const SolveLayout lay = strided_axis1_layout(n0(), n1());
    launch_store_system(data_.args(), base, local, 1, round, system(work_.data(), lay, false), st);
    strided_solve(h, n1(), dl_.data(), d_.data(), du_.data(), work_.data(), n0() * layers(), n1(), buffer_.data());
    launch_untile(data_.args().grid, work_.data(), lay, dest, st);
  }

  // Axis 0: systems transposed into `work` (interleaved), solved, transposed back.
  // Axis 1: each layer's columns are already interleaved systems, solved in place.
  void interleaved_stage(const int* base, int local, int axis, int round, T* dest) {
    const cudaStream_t st = stream_.get();
    const cusparseHandle_t h = handle_.get();
    if (axis == 0) {
      const SolveLayout lay = interleaved_axis0_layout(n1(), layers());
      launch_store_system(data_.args(), base, local, 0, round, system(work_.data(), lay, false), st);
      interleaved_solve(h, n0(), dl_.data(), d_.data(), du_.data(), work_.data(), n1() * layers(), buffer_.data());
      launch_untile(data_.args().grid, work_.data(), lay, dest, st);
      return;
    }
    launch_store_system(data_.args(), base, local, 1, round, system(dest, natural(), true), st);
    for (int l = 0; l < layers(); ++l) {
      const long long off = l * layer_stride();
      interleaved_solve(h, n1(), dl_.data() + off, d_.data() + off, du_.data() + off, dest + off, n0(),
                        buffer_.data());
    }
  }

  const GpuPlan& plan_;
  bool interleaved_;
  CudaStream stream_;
  DeviceTimer timer_;
  DeviceMarchData<T> data_;
  CusparseHandle handle_;
  DeviceArray<T> dl_, d_, du_, work_;
  std::size_t buffer_bytes_ = 0;
  DeviceArray<unsigned char> buffer_;
  std::map<GroupKey, std::unique_ptr<CapturedGraph>> graphs_;
  std::string capture_failure_;  // non-empty: eager launches
};

}  // namespace

template <class T>
std::unique_ptr<MarchBackend> make_cusparse_strided_backend(const Problem& pb, const GpuPlan& plan,
                                                            DeviceAllocator& alloc) {
  return std::make_unique<CusparseMarch<T>>(pb, plan, alloc, false);
}

template <class T>
std::unique_ptr<MarchBackend> make_cusparse_interleaved_backend(const Problem& pb, const GpuPlan& plan,
                                                                DeviceAllocator& alloc) {
  return std::make_unique<CusparseMarch<T>>(pb, plan, alloc, true);
}

#define ELSBENCH_INSTANTIATE(T)                                                                          \
  template std::unique_ptr<MarchBackend> make_cusparse_strided_backend<T>(const Problem&, const GpuPlan&,     \
                                                                          DeviceAllocator&);                 \
  template std::unique_ptr<MarchBackend> make_cusparse_interleaved_backend<T>(const Problem&, const GpuPlan&, \
                                                                              DeviceAllocator&);
ELSBENCH_INSTANTIATE(double)
ELSBENCH_INSTANTIATE(float)
#undef ELSBENCH_INSTANTIATE

}  // namespace elsbench::gpu
