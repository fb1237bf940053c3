#pragma once
// The Monte Carlo engine on a named device: the CPU engine (its threads from the device or the
// options), or the CUDA engine where this build has one. One dispatch for `elsbench reference`
// and for references computed on demand.
#include "platform/device.hpp"
#include "products/product.hpp"
#include "reference/monte_carlo.hpp"

namespace elsbench {

// Throws std::invalid_argument for `auto` (the caller decides) and for CUDA in a CPU-only build.
McResult monte_carlo_on(const Product& product, McOptions options, const Device& device);

}  // namespace elsbench
