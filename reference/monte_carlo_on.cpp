#include "reference/monte_carlo_on.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "platform/cuda_devices.hpp"
#include "platform/solver_error.hpp"

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
  // No usable device is the device's unavailability, as for a pricing, not a CUDA error.
  std::string why;
  const auto gpus = cuda_devices(&why);
  if (std::none_of(gpus.begin(), gpus.end(), [&](const GpuInfo& g) { return g.index == device.index; }))
    throw SolverError(SolverError::Kind::Unavailable,
                      "CUDA device cuda:" + std::to_string(device.index) + " is not usable" +
                          (why.empty() ? std::string() : " (" + why + ")") + "; use cpu");
  return monte_carlo_price_cuda(product, options, device.index);
#else
  throw std::invalid_argument("this build has no CUDA; use cpu");
#endif
}

}  // namespace elsbench
