#pragma once
// The Monte Carlo engine on a CUDA device: the CPU engine's paths (reference/pair_path.hpp, the
// same Philox numbering, path plan and block sums), so a price with the same options is the CPU
// engine's to the bit. Built only with CUDA.
#ifdef ELSBENCH_HAVE_CUDA
#include <cstdint>
#include <vector>

#include "products/product.hpp"
#include "reference/monte_carlo.hpp"

namespace elsbench {

// Throws std::runtime_error on a CUDA error (no device, out of memory), naming the call.
McResult monte_carlo_price_cuda(const Product& product, const McOptions& options, int device = 0);

// monte_carlo_pair_averages() computed on the device.
std::vector<double> monte_carlo_pair_averages_cuda(const Product& product, const McOptions& options,
                                                   std::uint64_t first_pair, int count, int device = 0);

}  // namespace elsbench
#endif
