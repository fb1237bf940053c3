#include "harness/book/book_references.hpp"

#include <exception>
#include <optional>

#include "harness/results/results_file.hpp"
#include "reference/reference_value.hpp"

namespace elsbench {

void judge_note(nlohmann::json& entries, const Product& note, const SolverInfo& solver, const SolverOptions& options,
                const BookReferences& references) {
  std::optional<ReferenceValue> ref;
  std::string why = references.policy.mode == ReferencePolicy::Mode::Auto
                        ? "no reference could be computed"
                        : "no closed form or stored value (--reference auto computes one)";
  try {
    ref = reference_for(note, references.policy);
  } catch (const std::exception& e) {
    why = e.what();
  }
  nlohmann::json verdict = {{"judged", true}};
  if (!ref) {
    verdict.update({{"status", to_string(CaseStatus::NoReference)}, {"no_reference_reason", why}});
  } else {
    const double price = entries.at(0).at("price").get<double>();
    const double tol = fixed_tol(references.tolerance, note)
                           .value_or(references.tolerance.tol(note.id, solver.name, solver.tolerance_c,
                                                              to_string(options.precision), options.grid.n,
                                                              ref->price, note.notional));
    const Verdict v = judge(price, *ref, tol, references.k);
    verdict.update({{"reference", ref->price},
                    {"reference_stderr", ref->std_error},
                    {"reference_source", ref->source},
                    {"error", v.error},
                    {"tol", tol},
                    {"allowance", v.allowance},
                    {"status", to_string(v.pass ? CaseStatus::Pass : CaseStatus::Fail)}});
    if (references.tolerance.fixed) verdict["tol_source"] = tol_source(references.tolerance);
  }
  for (auto& e : entries) e.update(verdict);
}

nlohmann::json validation_summary(const nlohmann::json& entries, const BookReferences& references) {
  int pass = 0, fail = 0, none = 0;
  for (const auto& e : entries) {
    if (e.value("run_type", "") != "aggregate" || !e.value("judged", false)) continue;
    const std::optional<CaseStatus> v = entry_status(e);
    pass += v == CaseStatus::Pass;
    fail += v == CaseStatus::Fail;
    none += v == CaseStatus::NoReference;
  }
  return {{"mode", references.policy.mode_name()}, {"pass", pass}, {"fail", fail}, {"no_reference", none}};
}

}  // namespace elsbench
