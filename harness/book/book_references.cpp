#include "harness/book/book_references.hpp"

#include <exception>
#include <optional>

#include "reference/reference_value.hpp"

namespace elsbench {

void judge_note(nlohmann::json& entry, const Product& note, const SolverInfo& solver, const SolverOptions& options,
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
  if (!ref) {
    entry["validation"] = "no-reference";
    entry["no_reference_reason"] = why;
    return;
  }
  const double price = entry.at("price").get<double>();
  const double tol = references.tolerance.tol(note.id, solver.name, solver.tolerance_c, to_string(options.precision),
                                              options.grid.n, ref->price, note.notional);
  const Verdict v = judge(price, *ref, tol, references.k);
  entry["reference"] = ref->price;
  entry["reference_stderr"] = ref->std_error;
  entry["reference_source"] = ref->source;
  entry["price_error"] = v.error;
  entry["tol"] = tol;
  entry["allowance"] = v.allowance;
  entry["validation"] = v.pass ? "pass" : "fail";
}

nlohmann::json validation_summary(const nlohmann::json& notes, const BookReferences& references) {
  int pass = 0, fail = 0, none = 0;
  for (const auto& n : notes) {
    const std::string v = n.value("validation", "");
    pass += v == "pass";
    fail += v == "fail";
    none += v == "no-reference";
  }
  return {{"mode", references.policy.mode_name()}, {"pass", pass}, {"fail", fail}, {"no_reference", none}};
}

}  // namespace elsbench
