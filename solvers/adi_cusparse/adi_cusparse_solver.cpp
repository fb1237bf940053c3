// Registration of adi-cusparse (gtsv2StridedBatch) and adi-cusparse-interleaved
// (gtsvInterleavedBatch): the ADI schemes of `adi` with cuSPARSE's batched tridiagonal solvers.
#include "solvers/adi_cusparse/cusparse_backend.hpp"
#include "solvers/contract/solver.hpp"
#include "solvers/gpu/session.hpp"

namespace elsbench {
namespace {

SolverInfo cusparse_info(const char* name, const char* description, GpuBackends backends, MemoryModel memory) {
  SolverInfo s;
  s.name = name;
  s.description = description;
  s.schemes = adi_scheme_names();
  s.devices = {Device::Kind::Cuda};
  s.max_dim = 2;
  s.precisions = {Precision::FP64, Precision::FP32};
  s.memory = std::move(memory);
  s.unavailable_reason = gpu_unavailable_reason;
  s.gpu = backends;
  s.march = march_on_gpu(backends);
  return s;
}

SolverInfo strided_info() {
  return cusparse_info(
      "adi-cusparse", "GPU ADI with cuSPARSE gtsv2StridedBatch for the implicit stages (axis-1 systems transposed)",
      {gpu::make_cusparse_strided_backend<double>, gpu::make_cusparse_strided_backend<float>},
      {MemorySpace::Device, 6, 1, 0, false,
       "device, per layer: three value buffers, the full-length diagonals dl, d, du that gtsv2StridedBatch "
       "takes, its work buffer (counted as one array: its size is queried at run time), and in 2-D the "
       "transposed systems"});
}

SolverInfo interleaved_info() {
  return cusparse_info(
      "adi-cusparse-interleaved",
      "GPU ADI with cuSPARSE gtsvInterleavedBatch for the implicit stages (axis-0 systems transposed)",
      {gpu::make_cusparse_interleaved_backend<double>, gpu::make_cusparse_interleaved_backend<float>},
      {MemorySpace::Device, 8, 0, 0, false,
       "device, per layer: as adi-cusparse with the transposed systems in 1-D too (gtsvInterleavedBatch)"});
}

}  // namespace

ELSBENCH_REGISTER_SOLVER(strided_info);
ELSBENCH_REGISTER_SOLVER(interleaved_info);

}  // namespace elsbench
