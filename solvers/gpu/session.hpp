#pragma once
// Running a march on a GPU from host code that does not see CUDA: the GPU variants' march, the
// GPU tests and the benchmarks go through this. In a build without CUDA every entry point throws
// SolverError(Unavailable, "built without CUDA") (session_stub.cpp).
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "platform/cuda_devices.hpp"
#include "solvers/contract/gpu_backends.hpp"
#include "solvers/contract/solver_info.hpp"
#include "solvers/gpu/plan/gpu_plan.hpp"
#include "solvers/schemes/adi_scheme.hpp"

namespace elsbench {

class GpuMarchSession {
 public:
  // Uploads `pb` (which must outlive the session) to CUDA device `device` and prepares the march
  // of `scheme` in precision `precision` on the variant's backend. Throws
  // SolverError(Unavailable) when that device does not exist, SolverError(OutOfMemory) when the
  // arrays do not fit.
  GpuMarchSession(const GpuBackends& backends, const Problem& pb, const AdiScheme& scheme, int device,
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
  // The drop of the device's free memory (cudaMemGetInfo) from before the session's first
  // allocation to its lowest, seen after set-up and after each march: counted arrays plus what
  // is not counted (library handles and workspaces, graphs). Device-wide: other processes count.
  std::size_t measured_device_bytes() const;
  const GpuInfo& device() const;
  std::vector<std::string> notes() const;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

// The march of a GPU variant: the problem built for `adi` (same steps, same damping) marched by
// a session on `backends`, the scheme and device of the options.
MarchFn march_on_gpu(GpuBackends backends);

// Empty when a CUDA device is usable, else why not (SolverInfo::unavailable_reason).
std::string gpu_unavailable_reason();

}  // namespace elsbench
