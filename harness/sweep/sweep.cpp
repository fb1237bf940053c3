#include "harness/sweep/sweep.hpp"

#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <sstream>

#include "harness/machine/machine.hpp"
#include "harness/results/case_record.hpp"
#include "harness/results/results_file.hpp"
#include "harness/run/case_run.hpp"
#include "harness/run/timing.hpp"
#include "harness/runner/progress.hpp"
#include "harness/runner/run_attempts.hpp"
#include "harness/runner/run_file.hpp"
#include "harness/runner/signals.hpp"
#include "harness/sweep/gpu_health.hpp"
#include "harness/sweep/plan.hpp"
#include "platform/file_io.hpp"
#include "platform/file_lock.hpp"
#include "platform/input_error.hpp"
#include "platform/solver_error.hpp"
#include "platform/stop_request.hpp"

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

std::string outcome_line(const CaseOutcome& out) {
  std::ostringstream s;
  s << to_string(out.status);
  if (!out.result) {
    s << " (" << out.skip_reason << ")";
    return s.str();
  }
  s.precision(6);
  s << ", price " << out.result->price;
  if (out.reference) s << ", error " << out.verdict.error << " (allowed " << out.verdict.allowance << ")";
  for (const auto& e : out.timings)
    if (e.value("aggregate_name", "") == "median") s << ", median " << e.value("real_time", 0.0) << " ms";
  return s.str();
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
  std::vector<double> work;
  std::vector<bool> done;
  std::map<std::string, bool> present;
  for (const auto& id : file.case_ids()) present[id] = true;
  for (const auto& c : plan.cases) {
    order.push_back(c.id());
    work.push_back(case_work(c, plan.products.at(c.product).dimension(), spec.repetitions));
    done.push_back(present.count(c.id()) > 0);
  }
  file.elsbench()["cases_total"] = plan.cases.size();

  // Deaths of earlier runs are read unless the skipped cases are to run again.
  RunAttempts attempts(run.path, resuming && !run.retry_skipped);
  std::unique_ptr<RunSignalGuard> guard;
  if (run.handle_signals) {
    guard = std::make_unique<RunSignalGuard>("\nelsbench sweep: stopped; partial results in " + run.path +
                                               "\n  continue with: elsbench sweep --resume " + run.path + "\n");
    attempts.mark_stops();
  }
  const auto save = [&] { writer.save(file); };
  file.elsbench().erase("running");  // a file of an older elsbench kept its running case here
  save();

  RunProgress progress(run.progress, work, done);
  SweepSummary summary;
  summary.cases = plan.cases.size();
  GpuHealth gpu;
  for (std::size_t i = 0; i < plan.cases.size(); ++i) {
    if (done[i]) continue;
    const SweepCase& c = plan.cases[i];
    const Product& product = plan.products.at(c.product);
    progress.start(i, order[i]);
    const auto died = attempts.deaths().find(order[i]);
    CaseOutcome out;
    if (died != attempts.deaths().end() && died->second >= kDeathsToFail) {
      out.skip_reason = "error: the sweep process died " + std::to_string(kDeathsToFail) +
                        " times while running this case (killed, e.g. by the system out of memory); skipped "
                        "on resume (--resume FILE --retry-skipped runs it again)";
    } else if (const std::string lost = gpu.skip_for(c); !lost.empty()) {
      out.skip_reason = lost;
    } else {
      attempts.started(order[i]);
      out = run_case(c, product, settings, refs.at(c.product));
      attempts.ended(order[i]);
      if (stop_requested())  // the case was stopped mid-march: not recorded
        throw SolverError(SolverError::Kind::Interrupted,
                          "sweep stopped on request; the results file holds the cases run before the stop");
      gpu.record(c, out);
    }
    file.put_case(order[i], case_entries(c, product, out));
    file.sort_cases(order);
    save();
    ++summary.ran;
    progress.finish(i, outcome_line(out));
    if (run.after_case) run.after_case(summary.ran);
  }
  file.elsbench()["complete"] = true;
  file.elsbench()["finished"] = utc_timestamp();
  save();
  attempts.settle({});  // every case is in the file: no death is left to remember
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
