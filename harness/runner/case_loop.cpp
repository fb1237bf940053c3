#include "harness/runner/case_loop.hpp"

#include <sstream>

#include "platform/solver_error.hpp"
#include "platform/stop_request.hpp"

namespace elsbench {
namespace {

std::vector<double> works(const std::vector<LoopItem>& items) {
  std::vector<double> w;
  for (const LoopItem& item : items) w.push_back(item.work);
  return w;
}

std::vector<bool> dones(const std::vector<LoopItem>& items) {
  std::vector<bool> d;
  for (const LoopItem& item : items) d.push_back(item.done);
  return d;
}

}  // namespace

CaseLoop::CaseLoop(std::vector<LoopItem> items, const LoopSettings& settings, Save save)
    : items_(std::move(items)),
      settings_(settings),
      save_(std::move(save)),
      attempts_(settings.results, settings.read_deaths),
      progress_(settings.progress, works(items_), dones(items_)) {
  for (std::size_t i = 0; i < items_.size(); ++i) {
    if (items_[i].done) continue;
    const int died = deaths(i);
    (died == 0 ? todo_ : died < settings_.deaths_to_fail ? suspects_ : dead_).push_back(i);
  }
  if (!settings_.stop_message.empty()) {
    guard_.emplace(settings_.stop_message, settings_.graceful);
    attempts_.mark_stops();
  }
}

int CaseLoop::deaths(std::size_t i) const {
  const auto it = attempts_.deaths().find(items_[i].id);
  return it == attempts_.deaths().end() ? 0 : it->second;
}

std::string CaseLoop::death_reason(std::size_t i, const std::string& retry) const {
  return "error: the " + settings_.what + " process died " + std::to_string(deaths(i)) +
         " times while pricing this " + settings_.item + " (a crash, or a kill such as the out-of-memory killer's); not priced "
         "again (" + retry + ")";
}

void CaseLoop::run_serially(const std::function<CaseOutcome(std::size_t)>& price,
                            const std::function<void(std::size_t, const CaseOutcome&)>& record,
                            const std::string& retry) {
  const auto unpriced = [&](std::size_t i) {
    CaseOutcome out;
    out.skip_reason = death_reason(i, retry);
    return out;
  };
  run_each(dead_, unpriced, record);
  run_each(suspects_, price, record);
  run_each(todo_, price, record);
}

void CaseLoop::run_each(const std::vector<std::size_t>& items, const std::function<CaseOutcome(std::size_t)>& price,
                        const std::function<void(std::size_t, const CaseOutcome&)>& record) {
  for (std::size_t i : items) {
    progress_.start(i, items_[i].id);
    attempts_.started(items_[i].id);
    const CaseOutcome out = price(i);
    attempts_.ended(items_[i].id);
    stop_if_requested();  // the item was stopped mid-march: not recorded
    record(i, out);
    save_();
    last_save_ = std::chrono::steady_clock::now();
    progress_.finish(i, outcome_line(out));
    if (settings_.after_item) settings_.after_item();
  }
}

void CaseLoop::started(std::size_t i) { attempts_.started(items_[i].id); }

void CaseLoop::finished(std::size_t i, const std::string& outcome) {
  attempts_.ended(items_[i].id);
  progress_.finished(i, items_[i].id, outcome);
  const auto now = std::chrono::steady_clock::now();
  if (std::chrono::duration<double>(now - last_save_).count() >= settings_.save_interval_s) {
    save_();
    last_save_ = now;
  }
  if (settings_.after_item) settings_.after_item();
}

void CaseLoop::stop_if_requested() {
  if (!stop_requested()) return;
  save_();
  if (guard_ && pending_signal() != 0) stop_on_pending_signal();
  throw SolverError(SolverError::Kind::Interrupted,
                    settings_.what + " stopped on request; the results file holds what was priced before the stop");
}

void CaseLoop::close(const std::map<std::string, int>& kept) {
  if (guard_ && pending_signal() != 0) stop_on_pending_signal();  // a stop that came after the last item
  attempts_.settle(kept);
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

}  // namespace elsbench
