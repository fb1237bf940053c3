#pragma once
// One pricing as `elsbench price` and the Python package's price() run it: the reference looked
// up first (an `auto` one may take minutes of paths), then the price, the Greeks and the error
// estimate where asked, and against the reference a verdict.
#include <optional>

#include "harness/references/reference_policy.hpp"
#include "harness/run/price_verdict.hpp"
#include "solvers/contract/accuracy.hpp"
#include "solvers/contract/price.hpp"

namespace elsbench {

struct PriceRequest {
  SolverOptions options;
  bool greeks = false, error_estimate = false;
  GreekUnits greek_units = GreekUnits::Model;
  // Richardson's value from options.grid.n and n/2 (the default grid: solvers/contract/accuracy.hpp);
  // with error_estimate, its error bar. Not with `grid`: the values are one grid's.
  bool extrapolate = false;
  std::optional<ErrorTarget> target;         // choose the grid to meet it; implies extrapolate
  std::optional<ReferencePolicy> reference;  // empty: no reference asked for
  std::optional<ErrorTarget> tol;            // --tol: the verdict's allowance (price_verdict)
  PricedGrid* grid = nullptr;                // where given, the values and the mesh's nodes too
};

// The pricing as an outcome of the one type (case_outcome.hpp): its result; with a reference
// (none where none was asked for or none exists) judged pass or fail, else no-reference.
CaseOutcome run_price(const SolverInfo& solver, const Product& product, const PriceRequest& request);
// The march steps of run_price's pricings, planned into march_progress() before it prices (its
// total is then known: total_known). False, planning nothing, for a target: its grid is chosen
// from the prices of its pilot.
bool plan_progress(const SolverInfo& solver, const Product& product, const PriceRequest& request);

// How a pricing's grid is chosen, for the CLI's flags and the Python keywords alike: with neither
// a grid nor a target, Richardson's value on the default grid; with a target ("0.5bp", "0.01"),
// the grid that meets it. Throws InputError(source, the field named in `names`) for a target that
// cannot be read or that comes with a grid or an error estimate.
struct AccuracyFields {
  const char* target;          // "--target-error" | "target_error"
  const char* grid;            // "--n and --nt" | "n and nt"
  const char* error_estimate;  // "--error-estimate" | "error_estimate"
};
// The target of names.target, refused with a grid (the target chooses it), with an error
// estimate (its error bar is one), or unreadable.
ErrorTarget read_target(const std::string& text, bool grid_given, bool error_estimate, const std::string& source,
                        const AccuracyFields& names);
void choose_grid(PriceRequest& request, const Product& product, bool grid_given, const std::string& target_error,
                 const std::string& source, const AccuracyFields& names);

}  // namespace elsbench
