#pragma once
// adi-cuda's march_book (SolverInfo::march_book): a book's share marched in one batch on one
// device (solvers/gpu/plan/gpu_batch.hpp), its arrays prepared on the host and uploaded once.
#include "solvers/contract/solver_info.hpp"

namespace elsbench::gpu {

std::vector<MarchResult> march_book_on_adi_cuda(const std::vector<const Problem*>& problems, const SolverOptions& opt);
// The same batch's plans and image made now, its march (uploads, launch, downloads) returned.
BookMarch prepare_book_on_adi_cuda(const std::vector<const Problem*>& problems, const SolverOptions& opt);

}  // namespace elsbench::gpu
