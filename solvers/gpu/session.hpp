#pragma once
// Running a march on a GPU from host code that does not see CUDA: the solver glue, the GPU tests
// and the benchmarks go through this. In a build without CUDA every entry point throws
// SolverError(Unavailable, "built without CUDA") (gpu_session_stub.cpp).
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "platform/cuda_devices.hpp"
#include "products/product.hpp"
#include "solvers/schemes/adi_scheme.hpp"
#include "solvers/gpu/plan/gpu_plan.hpp"
#include "solvers/contract/price_result.hpp"
#include "solvers/problem/problem.hpp"
#include "solvers/contract/options.hpp"

namespace elsbench {

enum class GpuVariant {
  AdiCuda,              // adi-cuda: the project's kernels, the march captured in a CUDA graph
  CusparseStrided,      // adi-cusparse: cusparse<t>gtsv2StridedBatch for the implicit stages
  CusparseInterleaved,  // adi-cusparse-interleaved: cusparse<t>gtsvInterleavedBatch
};
const char* solver_name(GpuVariant v);

class GpuMarchSession {
 public:
  // Uploads `pb` (which must carry its time grid and outlive the session) to CUDA device
  // `device` and prepares the march of `scheme` in precision `precision`. Throws
  // SolverError(Unavailable) when that device does not exist, SolverError(OutOfMemory) when the
  // arrays do not fit.
  GpuMarchSession(GpuVariant variant, const Problem& pb, const AdiScheme& scheme, int device,
                  Precision precision);
  ~GpuMarchSession();
  GpuMarchSession(const GpuMarchSession&) = delete;
  GpuMarchSession& operator=(const GpuMarchSession&) = delete;

  // Marches from the payoff to the last step; returns the device time (CUDA events) in seconds.
  // Can be called again (benchmarks): each call starts from the payoff.
  double march();
  // After march(): the final values of layer 0 (what the price needs) or of every layer.
  std::vector<double> values(bool all_layers) const;

  const gpu::GpuPlan& plan() const;
  std::size_t peak_device_bytes() const;  // every cudaMalloc of the session, library buffers included
  const GpuInfo& device() const;
  std::vector<std::string> notes() const;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

// The registry's entry point: the problem and time grid of the `adi` solver (same steps, same
// damping), marched on the GPU, priced with spot_values as the CPU does.
PriceResult price_on_gpu(GpuVariant variant, const Product& product, const SolverOptions& options);

// Empty when a CUDA device is usable, else why not (SolverInfo::unavailable_reason).
std::string gpu_unavailable_reason();

}  // namespace elsbench
