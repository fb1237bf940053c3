#include "reference/monte_carlo_on.hpp"

#include <stdexcept>

#ifdef ELSBENCH_HAVE_CUDA
#include "reference/cuda/monte_carlo_cuda.hpp"
#endif

namespace elsbench {

McResult monte_carlo_on(const Product& product, McOptions options, const Device& device) {
  if (device.is_auto) throw std::invalid_argument("expected cpu or cuda:N, not auto");
  if (device.is_cpu()) {
    if (device.threads > 0) options.threads = device.threads;
    return monte_carlo_price(product, options);
  }
#ifdef ELSBENCH_HAVE_CUDA
  return monte_carlo_price_cuda(product, options, device.index);
#else
  throw std::invalid_argument("this build has no CUDA; use cpu");
#endif
}

}  // namespace elsbench
