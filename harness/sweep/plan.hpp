#pragma once
// Planning a sweep: every group's axes expanded into cases, the product of the declared axes
// (harness/sweep/axis.hpp) in a fixed order (groups, then the axes by their order: products,
// solvers, schemes, n, time-step rules, devices, precisions, book sizes, ...), duplicates dropped.
// Everything a sweep needs is checked here, before the first case runs: an unknown solver,
// scheme or product is an error; a case the solver cannot take is kept, to be recorded as skipped.
#include <map>
#include <string>
#include <vector>

#include "harness/run/case.hpp"
#include "harness/sweep/axes.hpp"
#include "products/product.hpp"

namespace elsbench {

struct SweepPlan {
  std::vector<SweepCase> cases;
  std::map<std::string, Product> products;  // by id
};

SweepPlan plan_sweep(const SweepSpec& spec);

}  // namespace elsbench
