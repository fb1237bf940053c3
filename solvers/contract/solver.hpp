#pragma once
// The solver registry: a variant registers its name, schemes, devices, dimensions and precisions
// with one macro, and the CLI, validation and sweeps find it here.
#include <functional>
#include <string>
#include <vector>

#include "products/product.hpp"
#include "solvers/contract/price_result.hpp"
#include "solvers/contract/options.hpp"

namespace elsbench {

struct SolverInfo {
  std::string name;
  std::string description;
  std::vector<std::string> schemes;  // first is the default; empty: no scheme choice
  std::vector<Device::Kind> devices;
  int max_dim = 2;
  std::vector<Precision> precisions{Precision::FP64};
  bool test_only = false;            // hidden from `list` and sweeps (e.g. a deliberately broken variant)
  // Empty when the variant can run here; otherwise why not (no CUDA build, no GPU, ...).
  std::function<std::string()> unavailable_reason = [] { return std::string(); };
  std::function<PriceResult(const Product&, const SolverOptions&)> price;

  std::string default_scheme() const { return schemes.empty() ? std::string() : schemes.front(); }
  bool supports(Precision p) const;
  bool supports(Device::Kind k) const;
};

class SolverRegistry {
 public:
  static SolverRegistry& instance();
  void add(SolverInfo info);
  const SolverInfo* find(const std::string& name) const;
  const SolverInfo& get(const std::string& name) const;  // throws with the list of known names
  const std::vector<SolverInfo>& all() const { return solvers_; }

 private:
  std::vector<SolverInfo> solvers_;
};

// Checks the request against the variant (dimension, precision, device, scheme), resolves
// `auto` devices, and runs it with the host-memory tracker around it.
PriceResult price_with(const SolverInfo& solver, const Product& product, SolverOptions options);

}  // namespace elsbench

#define ELSBENCH_CONCAT_INNER(a, b) a##b
#define ELSBENCH_CONCAT(a, b) ELSBENCH_CONCAT_INNER(a, b)
// ELSBENCH_REGISTER_SOLVER(make_info): make_info() returns the SolverInfo to register.
#define ELSBENCH_REGISTER_SOLVER(factory)                                          \
  static const bool ELSBENCH_CONCAT(elsbench_registered_, __LINE__) [[maybe_unused]] = \
      (::elsbench::SolverRegistry::instance().add(factory()), true)
