#pragma once
// A book's notes judged against their references (`book price --reference stored|auto`): each priced
// note gets its reference from the policy every command shares (closed forms, reference/values/,
// and with auto the reference store, computed there when missing) and a pass or fail by the
// validation rule |price - reference| <= k * stderr + tol. A note that cannot get a reference is
// recorded as no-reference with the reason, and the book goes on.
#include <nlohmann/json.hpp>
#include <string>

#include "harness/references/reference_policy.hpp"
#include "harness/run/tolerance.hpp"
#include "products/product.hpp"
#include "solvers/contract/solver_info.hpp"

namespace elsbench {

struct BookReferences {
  ReferencePolicy policy;
  ToleranceRule tolerance;  // the validation rule's allowance (the default: validate's)
  double k = 3.0;           // reference standard errors allowed
};

// Sets on every entry of a priced note (results schema): reference, reference_stderr,
// reference_source, error (price - reference), tol, allowance, status ("pass" | "fail" |
// "no-reference", with no_reference_reason saying why none) and judged = true. Never throws.
void judge_note(nlohmann::json& entries, const Product& note, const SolverInfo& solver, const SolverOptions& options,
                const BookReferences& references);

// {"mode", "pass", "fail", "no_reference"} over the judged notes of a book's entries.
nlohmann::json validation_summary(const nlohmann::json& entries, const BookReferences& references);

}  // namespace elsbench
