#pragma once
// The one loop over a run's items: a sweep's cases, a validation's cases, a book's notes. It
// keeps what every run needs around its pricing: the attempts log (an item that took the process
// down `deaths_to_fail` times is recorded as failed, not priced again; one that took it down
// fewer times is priced alone, first), the Ctrl-C and SIGTERM guard, the progress lines, and the
// cadence of the saves. The run says how an item is priced and what is recorded of it.
#include <chrono>
#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "harness/placement/case_outcome.hpp"
#include "harness/runner/progress.hpp"
#include "harness/runner/run_attempts.hpp"
#include "harness/runner/signals.hpp"

namespace elsbench {

struct LoopItem {
  std::string id;
  double work = 1;    // relative cost, for the time left
  bool done = false;  // already recorded (a resume, or another rank's): not priced here
};

struct LoopSettings {
  std::string what;            // "sweep", "book", "validation": the run's word in its messages
  std::string item = "case";   // "note" for a book's items
  std::string results;         // the results file: its attempts log goes beside it (empty: no log)
  bool read_deaths = false;    // a resume: the deaths earlier runs recorded count
  int deaths_to_fail = kDeathsToFail;
  std::ostream* progress = nullptr;
  std::string stop_message;    // non-empty: SIGINT and SIGTERM are caught, and it is printed
  bool graceful = false;       // a caught stop lets the run save what it priced (signals.hpp)
  double save_interval_s = 0;  // least time between saves as concurrent items finish
  std::function<void()> after_item;  // called after each item is recorded (and saved, when due)
};

class CaseLoop {
 public:
  using Save = std::function<void()>;
  CaseLoop(std::vector<LoopItem> items, const LoopSettings& settings, Save save);

  // The items not yet done, by what earlier deaths say of them.
  const std::vector<std::size_t>& dead() const { return dead_; }          // recorded failed, unpriced
  const std::vector<std::size_t>& suspects() const { return suspects_; }  // to price alone, first
  const std::vector<std::size_t>& todo() const { return todo_; }
  int deaths(std::size_t i) const;
  // Why a dead item is not priced, as its record says it.
  std::string death_reason(std::size_t i, const std::string& retry) const;
  std::string attempts_path() const { return attempts_.path(); }

  // Items one at a time: each dead item recorded skipped with its reason (`retry`: how to have it
  // priced again), then the suspects and the rest priced by `price` and recorded by `record`, the
  // file saved after each. A stop requested during an item leaves it unrecorded (stop_if_requested).
  void run_serially(const std::function<CaseOutcome(std::size_t)>& price,
                    const std::function<void(std::size_t, const CaseOutcome&)>& record, const std::string& retry);
  // Concurrent items (a book's placement): its pricing reports each start and each finish (after
  // recording it); the file is saved when save_interval_s has passed since the last save.
  void started(std::size_t i);
  void finished(std::size_t i, const std::string& outcome);
  // After a stop was requested: the file is saved and the run ends (128 + a caught signal, or
  // SolverError Interrupted); nothing when none was.
  void stop_if_requested();
  // Every item is recorded and the file saved: a signal caught after the last item ends the run
  // now; the attempts log keeps the deaths of `kept` only (the items recorded as failed for them).
  void close(const std::map<std::string, int>& kept);

 private:
  void run_each(const std::vector<std::size_t>& items, const std::function<CaseOutcome(std::size_t)>& price,
                const std::function<void(std::size_t, const CaseOutcome&)>& record);
  std::vector<LoopItem> items_;
  LoopSettings settings_;
  Save save_;
  RunAttempts attempts_;
  std::optional<RunSignalGuard> guard_;
  RunProgress progress_;
  std::vector<std::size_t> dead_, suspects_, todo_;
  std::chrono::steady_clock::time_point last_save_ = std::chrono::steady_clock::now();
};

// A case's outcome in a progress line: status, price, error against its allowance, median time.
std::string outcome_line(const CaseOutcome& out);

}  // namespace elsbench
