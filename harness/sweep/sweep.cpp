#include "harness/sweep/sweep.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <optional>

#include "harness/machine/machine.hpp"
#include "harness/results/case_record.hpp"
#include "harness/results/results_file.hpp"
#include "harness/run/case_run.hpp"
#include "harness/run/timing.hpp"
#include "harness/runner/case_loop.hpp"
#include "harness/runner/run_file.hpp"
#include "harness/sweep/gpu_health.hpp"
#include "harness/sweep/plan.hpp"
#include "platform/file_io.hpp"
#include "platform/file_lock.hpp"
#include "platform/input_error.hpp"

namespace elsbench {
namespace {

ResultsFile fresh_file(const SweepSpec& spec, const SweepRun& run, std::size_t cases) {
  ResultsFile f = fresh_results(run.preset_label.empty() ? spec.preset : run.preset_label, run.command, cases,
                                run.instance);
  f.elsbench()["sweep"] = to_json(spec);
  f.elsbench()["references"] = to_json(run.references);
  return f;
}

// Every product's reference, looked up before the first case runs: a broken stored value is
// an error of the sweep, not of one case.
std::map<std::string, std::optional<ReferenceValue>> references(const SweepPlan& plan, const ReferencePolicy& policy) {
  std::map<std::string, std::optional<ReferenceValue>> out;
  for (const auto& [id, product] : plan.products) out.emplace(id, reference_for(product, policy));
  return out;
}

void count(const ResultsFile& file, SweepSummary& summary) {
  std::map<std::string, std::optional<CaseStatus>> status;
  for (const auto& e : file.benchmarks) status.emplace(e.value("case_id", ""), entry_status(e));
  for (const auto& [id, s] : status) {
    summary.pass += s == CaseStatus::Pass;
    summary.fail += s == CaseStatus::Fail;
    summary.no_reference += s == CaseStatus::NoReference;
    summary.unconverged += s == CaseStatus::Unconverged;
    summary.skipped += s == CaseStatus::Skipped;
  }
}

SweepSummary execute(const SweepSpec& spec, const SweepPlan& plan, ResultsFile& file, const SweepRun& run,
                     const RunFile& writer, bool resuming) {
  const auto started = std::chrono::steady_clock::now();
  const auto refs = references(plan, run.references);
  const CaseSettings settings{spec.grid,           spec.tolerance, 3.0, spec.repetitions, spec.error_estimate,
                              spec.timing,         spec.target};
  std::vector<std::string> order;
  std::vector<LoopItem> items;
  const std::vector<std::string> present = file.case_ids();
  for (const auto& c : plan.cases) {
    order.push_back(c.id());
    items.push_back({c.id(), case_work(c, plan.products.at(c.product).dimension(), spec.repetitions),
                     std::find(present.begin(), present.end(), c.id()) != present.end()});
  }
  file.elsbench()["cases_total"] = plan.cases.size();
  file.elsbench().erase("running");  // a file of an older elsbench kept its running case here
  const auto save = [&] { writer.save(file); };
  save();

  LoopSettings loop_settings;
  loop_settings.what = "sweep";
  loop_settings.results = run.path;
  loop_settings.read_deaths = resuming && !run.retry_skipped;  // skipped cases to run again: no deaths
  loop_settings.progress = run.progress;
  if (run.handle_signals)
    loop_settings.stop_message = "\nelsbench sweep: stopped; partial results in " + run.path +
                                 "\n  continue with: elsbench sweep --resume " + run.path + "\n";
  SweepSummary summary;
  if (run.after_case) loop_settings.after_item = [&] { run.after_case(summary.ran); };
  CaseLoop loop(std::move(items), loop_settings, save);
  summary.cases = plan.cases.size();
  const auto record = [&](std::size_t i, const CaseOutcome& out) {
    const SweepCase& c = plan.cases[i];
    file.put_case(order[i], case_entries(c, plan.products.at(c.product), out));
    file.sort_cases(order);
    ++summary.ran;
  };
  GpuHealth gpu;
  const auto price = [&](std::size_t i) {
    const SweepCase& c = plan.cases[i];
    CaseOutcome out;
    if (const std::string lost = gpu.skip_for(c); !lost.empty()) {
      out.skip_reason = lost;
      return out;
    }
    out = run_case(c, plan.products.at(c.product), settings, refs.at(c.product));
    gpu.record(c, out);
    return out;
  };
  loop.run_serially(price, record, "--resume FILE --retry-skipped runs it again");
  mark_complete(file);
  save();
  loop.close({});  // every case is in the file: no death is left to remember
  count(file, summary);
  summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return summary;
}

}  // namespace

SweepSummary run_sweep(const SweepSpec& spec, const SweepRun& run) {
  const RunFile out(run.path, {}, run.formats);
  const SweepPlan plan = plan_sweep(spec);
  ResultsFile file = fresh_file(spec, run, plan.cases.size());
  return execute(spec, plan, file, run, out, false);
}

SweepSummary resume_sweep(const std::string& from, SweepRun run) {
  if (run.path.empty()) run.path = from;
  // Locked before it is read: two resumes of one file would each run the missing cases.
  const RunFile out(run.path, {}, run.formats);
  std::optional<FileLock> from_lock;
  if (run.path != from) {
    from_lock.emplace(from);
    // The deaths recorded beside `from` go with its cases.
    std::error_code ignored;
    std::filesystem::copy_file(from + ".attempts", run.path + ".attempts",
                               std::filesystem::copy_options::overwrite_existing, ignored);
  }
  ResultsFile file = read_results_file(from);
  check_resumable(file, from);
  if (!file.elsbench().contains("sweep") || file.elsbench()["sweep"].is_null())
    throw InputError(from, "context.elsbench.sweep", "missing: nothing to resume from");
  const SweepSpec spec = sweep_spec_from_json(file.elsbench()["sweep"], from + " (context.elsbench.sweep)");
  const SweepPlan plan = plan_sweep(spec);
  read_recorded_policy(file.elsbench().value("references", nlohmann::json()), run.references, from);
  const MachineInfo here = describe_machine(file.elsbench().value("machine", nlohmann::json::object()).value("instance", ""));
  const auto& there = file.elsbench().value("machine", nlohmann::json::object());
  if (run.progress && (there.value("hostname", "") != here.hostname || there.value("git_commit", "") != here.git_commit))
    *run.progress << "elsbench sweep: note: " << from << " was started on " << there.value("hostname", "?")
                  << " at commit " << there.value("git_commit", "?") << "; continuing on " << here.hostname
                  << " at commit " << here.git_commit << " (recorded in context.elsbench.resumed)\n";
  if (run.retry_skipped) {
    nlohmann::json kept = nlohmann::json::array();
    for (const auto& e : file.benchmarks)
      if (entry_status(e) != CaseStatus::Skipped) kept.push_back(e);
    file.benchmarks = kept;
  }
  file.elsbench()["complete"] = false;
  file.elsbench()["finished"] = nullptr;
  const nlohmann::json then = file.elsbench();
  record_resume(file, then, run.command, there.value("instance", ""));
  return execute(spec, plan, file, run, out, true);
}

}  // namespace elsbench
