#pragma once
// The one case runner, for sweeps and validation alike: a first pricing (untimed: the warm-up,
// and the run whose price is judged), then, when asked, the timed repetitions through Google
// Benchmark. A case that cannot run is skipped with its reason; nothing here throws for a
// solver's failure. One status vocabulary everywhere: pass, fail, no-reference, unconverged, skipped.
// With an error estimate asked for, a case whose estimated discretisation error exceeds its
// allowance `tol` is "unconverged" whatever the reference says: its grid is too coarse to judge
// the solver (a pass there is luck, a fail says nothing about the solver).
#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "harness/placement/case_outcome.hpp"
#include "harness/run/case.hpp"
#include "harness/run/timing.hpp"
#include "harness/run/tolerance.hpp"
#include "products/product.hpp"
#include "reference/reference_value.hpp"
#include "solvers/contract/accuracy.hpp"
#include "solvers/contract/price_result.hpp"

namespace elsbench {

// What every case of a run shares.
struct CaseSettings {
  GridOptions grid;          // mesh settings (each case brings its n and nt)
  ToleranceRule tolerance;
  double k = 3.0;            // standard errors of the reference allowed
  int repetitions = 0;       // timed repetitions after the first pricing; 0: untimed (validate)
  bool error_estimate = false;  // estimate the first pricing's discretisation error (coarser grids)
  TimingRule timing;         // more repetitions while the median is noisy; min_repetitions = repetitions
  // --target-error: each case priced to it (price_to_target chooses the grid; the case's n is not
  // used), judged with its error bar as the allowance, and timed whole: what that accuracy costs.
  std::optional<ErrorTarget> target;
};

// `reference` is reference_for(product), looked up once per product by the caller.
CaseOutcome run_case(const SweepCase& c, const Product& product, const CaseSettings& settings,
                     const std::optional<ReferenceValue>& reference);

}  // namespace elsbench
