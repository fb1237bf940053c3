#include "harness/sweep/validation_run.hpp"

#include <algorithm>
#include <filesystem>
#include <iomanip>
#include <optional>
#include <sstream>

#include "harness/results/case_record.hpp"
#include "harness/results/results_file.hpp"
#include "harness/runner/case_loop.hpp"
#include "harness/runner/run_file.hpp"
#include "platform/file_io.hpp"
#include "platform/input_error.hpp"

namespace elsbench {
namespace {

using nlohmann::json;

const char* const kValidationPreset = "validation";

// Every setting that changes a case's verdict: a --resume under another one is refused, naming it.
json run_settings(const ValidationPlan& plan, const ValidationRun& run) {
  return {{"source", plan.source},
          {"k", plan.settings.k},
          {"tolerance", to_json(plan.settings.tolerance)},
          {"error_estimate", plan.settings.error_estimate},
          {"target_error", run.target_error.empty() ? json() : json(run.target_error)},
          {"references", to_json(plan.references)}};
}

// The cases a --resume keeps (by id, those of the plan) and the file's context; none when the
// file does not exist yet.
struct Kept {
  std::map<std::string, json> cases;
  json elsbench;
};

Kept kept_cases(const std::vector<SweepCase>& cases, const ValidationRun& run, const json& settings) {
  Kept kept;
  std::error_code ec;
  if (!run.resume || !std::filesystem::exists(run.path, ec)) return kept;
  const ResultsFile file = read_results_file(run.path);
  const json& els = file.elsbench();
  if (els.value("preset", "") != kValidationPreset || !els.contains("validation") || !els["validation"].is_object())
    throw InputError(run.path, "context.elsbench.validation", "missing: not the results file of a validation");
  check_resumable(file, run.path);
  refuse_other_settings(run.path, "context.elsbench.validation", els["validation"], settings,
                        "validate into another --out");
  kept.elsbench = els;
  std::vector<std::string> ids;
  for (const SweepCase& c : cases) ids.push_back(c.id());
  for (const json& e : file.benchmarks) {
    const std::string id = e.at("case_id").get<std::string>();
    if (std::find(ids.begin(), ids.end(), id) == ids.end()) continue;
    json& entries = kept.cases[id];
    if (entries.is_null()) entries = json::array();
    entries.push_back(e);
  }
  return kept;
}

// A validation case is priced once, untimed: its entries carry that pricing's seconds.
json validation_entries(const ValidationPlan& plan, const SweepCase& c, CaseOutcome out) {
  if (out.result && out.timings.empty()) out.timings = single_pricing_timings(c.id(), out.result->seconds);
  json entries = case_entries(c, plan_product(plan, c.product), out);
  if (const std::string source = tol_source(plan.settings.tolerance); !source.empty() && out.reference)
    for (auto& e : entries) e["tol_source"] = source;
  return entries;
}

std::string number_or_dash(const json& v, bool scientific) {
  if (!v.is_number()) return "-";
  std::ostringstream s;
  if (scientific) s << std::scientific << std::setprecision(2); else s << std::fixed << std::setprecision(6);
  s << v.get<double>();
  return s.str();
}

std::string solver_text(const json& e) {
  const std::string scheme = e.value("scheme", json()).is_string() ? e["scheme"].get<std::string>() : "";
  const std::string precision = e.value("precision", "fp64");
  return e.value("solver", "") + (scheme.empty() ? "" : ":" + scheme) + (precision == "fp64" ? "" : "/" + precision);
}

std::string grid_text(const json& e) {
  const json steps = e.value("time_steps", json()).is_number() ? e["time_steps"] : e.value("nt", json());
  return "n=" + e.value("n", json()).dump() + " nt=" + (steps.is_number() ? steps.dump() : "auto");
}

std::string why_text(const json& e) {
  std::string why = e.value("skip_reason", "");
  const std::optional<CaseStatus> status = entry_status(e);
  if (why.empty() && status == CaseStatus::NoReference)
    why = "no closed form and no stored reference for " + e.value("product", "") + "; --reference auto computes one";
  if (e.value("estimated_error", json()).is_number()) {
    const std::string estimate = "estimated error " + number_or_dash(e["estimated_error"], true) +
                                 (status == CaseStatus::Unconverged ? " > " : ", tol ") +
                                 number_or_dash(e.value("tol", json()), true);
    why = why.empty() ? estimate : why + "; " + estimate;
  }
  return why;
}

}  // namespace

std::string validation_table(const json& benchmarks) {
  std::ostringstream s;
  s << std::left << std::setw(20) << "product" << std::setw(32) << "solver" << std::setw(18) << "grid"
    << std::right << std::setw(13) << "price" << std::setw(13) << "reference" << std::setw(11) << "error"
    << std::setw(11) << "allowance" << "  status\n";
  for (const json& e : benchmarks) {
    if (e.value("run_type", "") != "aggregate") continue;  // one line a case: its median
    const bool judged = e.value("price", json()).is_number() && e.value("reference", json()).is_number();
    const std::string why = why_text(e);
    s << std::left << std::setw(20) << e.value("product", "") << std::setw(32) << solver_text(e) << std::setw(18)
      << grid_text(e) << std::right << std::setw(13) << number_or_dash(e.value("price", json()), false)
      << std::setw(13) << number_or_dash(e.value("reference", json()), false) << std::setw(11)
      << (judged ? number_or_dash(e.value("error", json()), true) : "-") << std::setw(11)
      << (judged ? number_or_dash(e.value("allowance", json()), true) : "-") << "  " << e.value("status", "")
      << (why.empty() ? "" : " (" + why + ")") << '\n';
  }
  return s.str();
}

ValidationSummary run_validation(const ValidationPlan& plan, const ValidationRun& run) {
  const RunFile writer(run.path, {}, run.formats);
  const json settings = run_settings(plan, run);
  ResultsFile file = fresh_results(kValidationPreset, run.command, plan.cases.size(), "");
  file.elsbench()["validation"] = settings;
  file.elsbench()["references"] = to_json(plan.references);
  const std::vector<SweepCase>& cases = plan.cases;
  Kept kept = kept_cases(cases, run, settings);
  if (!kept.elsbench.is_null()) record_resume(file, kept.elsbench, run.command, "");
  std::vector<std::string> order;
  std::vector<LoopItem> items;
  for (const SweepCase& c : cases) {
    order.push_back(c.id());
    const bool done = kept.cases.count(c.id()) > 0;
    if (done) file.put_case(c.id(), kept.cases[c.id()]);
    items.push_back({c.id(), done ? 0.0 : case_work(c, plan_product(plan, c.product).dimension(), 0), done});
  }
  file.sort_cases(order);
  const auto save = [&] { writer.save(file); };
  save();

  LoopSettings loop_settings;
  loop_settings.what = "validation";
  loop_settings.results = run.path;
  loop_settings.read_deaths = run.resume;
  loop_settings.progress = run.progress;
  if (run.handle_signals)
    loop_settings.stop_message = "\nelsbench validate: stopped; partial results in " + run.path +
                                 "\n  continue with: elsbench validate --resume --out " + run.path + " (and the same flags)\n";
  ValidationSummary summary;
  if (run.after_case) loop_settings.after_item = [&] { run.after_case(summary.ran); };
  CaseLoop loop(std::move(items), loop_settings, save);
  summary.cases = plan.cases.size();
  summary.kept = kept.cases.size();
  const auto record = [&](std::size_t i, const CaseOutcome& out) {
    file.put_case(order[i], validation_entries(plan, cases[i], out));
    file.sort_cases(order);
    ++summary.ran;
  };
  const auto price = [&](std::size_t i) { return validate_case(plan, cases[i]); };
  loop.run_serially(price, record, "validate again without --resume to retry it");
  mark_complete(file);
  save();
  loop.close({});  // every case is in the file: no death is left to remember
  for (const json& e : file.benchmarks)
    summary.passed += e.value("run_type", "") == "aggregate" && entry_status(e) == CaseStatus::Pass;
  summary.table = validation_table(file.benchmarks);
  return summary;
}

}  // namespace elsbench
