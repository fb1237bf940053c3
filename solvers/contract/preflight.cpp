#include "solvers/contract/preflight.hpp"

#include <sstream>

#include "platform/host_memory.hpp"
#include "platform/solver_error.hpp"
#include "solvers/contract/cost_model.hpp"

namespace elsbench {
namespace {

std::string gib(double bytes) {
  std::ostringstream s;
  s.precision(3);
  s << bytes / (1024.0 * 1024.0 * 1024.0) << " GiB";
  return s.str();
}

}  // namespace

PreflightEstimate estimate_pricing(const SolverInfo& solver, const Product& product, const SolverOptions& options,
                                   std::size_t points, double steps) {
  PreflightEstimate e;
  const GridLoad load = grid_load(product);
  if (const std::optional<MemoryModel> memory = solver.memory_for(options.scheme, options.precision)) {
    e.bytes = model_bytes(*memory, options.precision, load, static_cast<double>(points));
    if (memory->space == MemorySpace::Host) e.available = static_cast<double>(available_host_bytes());
  }
  e.work = static_cast<double>(points) * load.layers * steps;
  e.min_seconds = lower_bound_seconds(solver.name, options.precision, product.dimension(), options.device, e.work);
  return e;
}

void preflight(const SolverInfo& solver, const Product& product, const SolverOptions& options,
               std::size_t points, double steps) {
  const PreflightEstimate e = estimate_pricing(solver, product, options, points, steps);
  if (e.available > 0 && e.bytes > e.available) {
    std::ostringstream msg;
    msg << solver.name << " needs about " << gib(e.bytes) << " for " << points << " grid points (its memory model) and "
        << "this machine has " << gib(e.available) << " available; use a smaller grid";
    throw SolverError(SolverError::Kind::OutOfMemory, msg.str());
  }
  if (options.max_seconds > 0 && e.min_seconds > options.max_seconds) {
    std::ostringstream msg;
    msg.precision(3);
    msg << solver.name << ": " << static_cast<double>(points) << " points x " << steps << " march steps ("
        << e.work << " point-layer-steps) takes at least " << e.min_seconds << " s (";
    if (measured_rate(solver.name, options.precision, product.dimension()))
      msg << "its fastest measured rate on a machine " << kFasterMachine << "x faster";
    else
      msg << "not measured: a rate no device reaches";
    msg << "), beyond --max-seconds " << options.max_seconds << "; use a smaller grid or a larger --max-seconds";
    throw SolverError(SolverError::Kind::TooMuchWork, msg.str());
  }
}

}  // namespace elsbench
