#pragma once
// The solver registry: a variant registers its SolverInfo with one macro from its own folder, and
// the CLI, validation, sweeps and books find it here. Adding a variant edits nothing else
// (docs/adding-a-solver.md).
#include <string>
#include <vector>

#include "solvers/contract/solver_info.hpp"

namespace elsbench {

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

}  // namespace elsbench

#define ELSBENCH_CONCAT_INNER(a, b) a##b
#define ELSBENCH_CONCAT(a, b) ELSBENCH_CONCAT_INNER(a, b)
// ELSBENCH_REGISTER_SOLVER(make_info): make_info() returns the SolverInfo to register.
#define ELSBENCH_REGISTER_SOLVER(factory)                                          \
  static const bool ELSBENCH_CONCAT(elsbench_registered_, __LINE__) [[maybe_unused]] = \
      (::elsbench::SolverRegistry::instance().add(factory()), true)
