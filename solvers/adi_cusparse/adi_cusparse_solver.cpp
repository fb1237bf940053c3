// Registration of adi-cusparse (gtsv2StridedBatch) and adi-cusparse-interleaved
// (gtsvInterleavedBatch): the ADI schemes of `adi` with cuSPARSE's batched tridiagonal solvers.
#include "solvers/contract/solver.hpp"
#include "solvers/schemes/adi_scheme.hpp"
#include "solvers/gpu/session.hpp"

namespace elsbench {
namespace {

SolverInfo cusparse_info(GpuVariant v, const char* description) {
  SolverInfo s;
  s.name = solver_name(v);
  s.description = description;
  s.schemes = adi_scheme_names();
  s.devices = {Device::Kind::Cuda};
  s.max_dim = 2;
  s.precisions = {Precision::FP64, Precision::FP32};
  s.unavailable_reason = gpu_unavailable_reason;
  s.price = [v](const Product& p, const SolverOptions& o) { return price_on_gpu(v, p, o); };
  return s;
}

SolverInfo strided_info() {
  return cusparse_info(GpuVariant::CusparseStrided,
                       "GPU ADI with cuSPARSE gtsv2StridedBatch for the implicit stages (axis-1 systems transposed)");
}

SolverInfo interleaved_info() {
  return cusparse_info(GpuVariant::CusparseInterleaved,
                       "GPU ADI with cuSPARSE gtsvInterleavedBatch for the implicit stages (axis-0 systems transposed)");
}

}  // namespace

ELSBENCH_REGISTER_SOLVER(strided_info);
ELSBENCH_REGISTER_SOLVER(interleaved_info);

}  // namespace elsbench
