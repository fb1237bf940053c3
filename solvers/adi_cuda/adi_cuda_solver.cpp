// Registration of adi-cuda: the ADI schemes of `adi` on the GPU with the project's kernels
// (adi_kernels.cu), fp64 and fp32, 1 or 2 underlyings; its on-chip book march also mixed precision
// and three underlyings.
#include "solvers/adi_cuda/adi_cuda_backend.hpp"
#include "solvers/adi_cuda/adi_cuda_book.hpp"
#include "solvers/contract/solver.hpp"
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
  s.max_dim = 3;  // three in a book only (the single-note march refuses them)
  s.precisions = {Precision::FP64, Precision::FP32, Precision::Mixed};
  s.memory = MemoryModel{MemorySpace::Device, 3, 0, 0, false,
                         "device, per layer: three value buffers (stages rotate through them); factor tables and "
                         "1-D operators are O(n)"};
  s.unavailable_reason = gpu_unavailable_reason;
  s.gpu = {gpu::make_adi_cuda_backend<double>, gpu::make_adi_cuda_backend<float>};
  s.march = march_on_gpu(s.gpu);
  s.march_book = gpu::march_book_on_adi_cuda;
  s.prepare_book = gpu::prepare_book_on_adi_cuda;
  return s;
}

}  // namespace

ELSBENCH_REGISTER_SOLVER(adi_cuda_info);

}  // namespace elsbench
