#pragma once
// One pricing as `elsbench price` and the Python package's price() run it: the reference looked
// up first (an `auto` one may take minutes of paths), then the price, the Greeks and the error
// estimate where asked, and against the reference a verdict.
#include <optional>

#include "harness/references/reference_policy.hpp"
#include "harness/run/price_verdict.hpp"
#include "solvers/contract/price.hpp"

namespace elsbench {

struct PriceRequest {
  SolverOptions options;
  bool greeks = false, error_estimate = false;
  std::optional<ReferencePolicy> reference;  // empty: no reference asked for
  PricedGrid* grid = nullptr;                // where given, the values and the mesh's nodes too
};

struct PriceRun {
  PriceResult result;
  bool reference_wanted = false;
  std::optional<ReferenceValue> reference;  // empty where none was asked for or none exists
  std::optional<PriceVerdict> verdict;      // with a reference
};

PriceRun run_price(const SolverInfo& solver, const Product& product, const PriceRequest& request);

}  // namespace elsbench
