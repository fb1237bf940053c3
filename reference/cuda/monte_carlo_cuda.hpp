#pragma once
// The Monte Carlo engine on a CUDA device: the same paths model as the CPU engine (path_plan.hpp,
// antithetic pairs, the conditional knock-in of monte_carlo.hpp), with cuRAND's Philox4_32_10
// streams keyed by the seed and the pair, so its prices agree with the CPU engine's within
// standard errors (not bit for bit: the normal transforms differ). Built only with CUDA.
#ifdef ELSBENCH_HAVE_CUDA
#include "products/product.hpp"
#include "reference/monte_carlo.hpp"

namespace elsbench {

// Throws std::runtime_error on a CUDA error (no device, out of memory), naming the call.
McResult monte_carlo_price_cuda(const Product& product, const McOptions& options, int device = 0);
std::string cuda_mc_generator_name(bool antithetic);

}  // namespace elsbench
#endif
