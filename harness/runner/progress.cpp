#include "harness/runner/progress.hpp"

#include <cmath>
#include <cstdio>

namespace elsbench {

double case_work(const SweepCase& c, int dim, int repetitions) {
  if (!c.skip_reason.empty()) return 0;
  const double points = std::pow(static_cast<double>(c.n), dim);
  const double steps = c.nt.steps(c.n).value_or(c.n);
  // One untimed single pricing, then each timed run prices the whole book.
  return points * steps * (1 + repetitions * static_cast<double>(c.book));
}

std::string format_duration(double seconds) {
  const long s = std::lround(std::max(0.0, seconds));
  char buf[32];
  if (s >= 3600) {
    std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", s / 3600, (s / 60) % 60, s % 60);
  } else {
    std::snprintf(buf, sizeof buf, "%ld:%02ld", s / 60, s % 60);
  }
  return buf;
}

RunProgress::RunProgress(std::ostream* out, std::vector<double> work, std::vector<bool> done)
    : out_(out), work_(std::move(work)), done_(std::move(done)) {
  for (std::size_t i = 0; i < work_.size(); ++i)
    if (!done_[i]) work_total_ += work_[i];
}

void RunProgress::start(std::size_t index, const std::string& id) {
  if (out_) *out_ << "[" << index + 1 << "/" << work_.size() << "] " << id << " ... " << std::flush;
}

void RunProgress::finish(std::size_t index, const std::string& outcome) {
  account(index);
  if (out_) *out_ << outcome << "  | " << times() << '\n' << std::flush;
}

void RunProgress::finished(std::size_t index, const std::string& id, const std::string& outcome) {
  account(index);
  if (out_)
    *out_ << "[" << finished_ << "/" << work_.size() << "] " << id << " " << outcome << "  | " << times() << '\n'
          << std::flush;
}

void RunProgress::account(std::size_t index) {
  if (!done_[index]) work_done_ += work_[index];
  done_[index] = true;
  ++finished_;
}

std::string RunProgress::times() const {
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  std::string left;
  if (work_done_ >= work_total_) {
    left = "done";
  } else if (work_done_ <= 0) {
    left = "time left unknown";
  } else {
    left = "~" + format_duration(elapsed / work_done_ * (work_total_ - work_done_)) + " left";
  }
  return format_duration(elapsed) + " elapsed, " + left;
}

}  // namespace elsbench
