#pragma once
// A sweep: every case of a plan priced, validated, timed and measured, into one results file
// that is rewritten (atomically) after each case, so it is valid at every moment. A case that
// cannot run is recorded as skipped with its reason and the sweep goes on.
#include <cstddef>
#include <functional>
#include <ostream>
#include <string>

#include "harness/references/reference_policy.hpp"
#include "harness/results/reporter.hpp"
#include "harness/sweep/axes.hpp"

namespace elsbench {

struct SweepRun {
  std::string path;          // the results file (the other formats' files go beside it)
  std::vector<std::string> formats = default_out_formats();  // written at each save (reporter.hpp)
  std::string command;       // recorded verbatim in the context
  std::string preset_label;  // recorded as context.elsbench.preset: the preset name, or "custom"
  std::string instance;      // --instance, recorded verbatim
  std::ostream* progress = nullptr;  // progress lines; nullptr: silent
  bool handle_signals = false;       // SIGINT/SIGTERM: stop at once, leaving the file whole
  bool retry_skipped = false;        // resume: run the skipped cases again (a case that died twice)
  std::function<void(std::size_t cases_done)> after_case;  // called after each case is written
  // Where references come from; recorded in context.elsbench.references, and taken from there by
  // a resume (its store folder too, unless this run names one).
  ReferencePolicy references;
};

struct SweepSummary {
  std::size_t cases = 0;     // in the plan
  std::size_t ran = 0;       // by this call (the others were already in the file)
  std::size_t pass = 0, fail = 0, no_reference = 0, unconverged = 0, skipped = 0;  // over the whole file
  double seconds = 0;        // wall time of this call
};

SweepSummary run_sweep(const SweepSpec& spec, const SweepRun& run);
// Continues the sweep of a partial results file `from`: its spec is read from the file and only
// the cases not yet in it are run; the result goes to run.path (`from` when empty).
// run.command is added to the file's list of resumes; its preset label and instance are kept.
SweepSummary resume_sweep(const std::string& from, SweepRun run);

}  // namespace elsbench
