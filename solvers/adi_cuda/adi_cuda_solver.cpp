// Registration of adi-cuda: the ADI schemes of `adi` on the GPU with the project's kernels
// (adi_kernels.cu), fp64 and fp32, 1 or 2 underlyings.
#include "solvers/contract/solver.hpp"
#include "solvers/schemes/adi_scheme.hpp"
#include "solvers/gpu/session.hpp"

namespace elsbench {
namespace {

SolverInfo adi_cuda_info() {
  SolverInfo s;
  s.name = "adi-cuda";
  s.description = "GPU ADI, project kernels: chunked batched tridiagonal solves (coalesced in both "
                  "directions), fused explicit stages and events, march in a CUDA graph";
  s.schemes = adi_scheme_names();
  s.devices = {Device::Kind::Cuda};
  s.max_dim = 2;
  s.precisions = {Precision::FP64, Precision::FP32};
  s.unavailable_reason = gpu_unavailable_reason;
  s.price = [](const Product& p, const SolverOptions& o) { return price_on_gpu(GpuVariant::AdiCuda, p, o); };
  return s;
}

}  // namespace

ELSBENCH_REGISTER_SOLVER(adi_cuda_info);

}  // namespace elsbench
