#pragma once
// The progress lines of a run on stderr, a sweep's cases or a book's notes alike: item k/N, its
// id, its outcome, the time elapsed and the time left, estimated from the work done so far
// (grid points x time steps x pricings of each item).
#include <chrono>
#include <ostream>
#include <string>
#include <vector>

#include "harness/run/case.hpp"

namespace elsbench {

// Relative cost of a case, for the estimate of the time left (auto time steps count as n).
double case_work(const SweepCase& c, int dim, int repetitions);

class RunProgress {
 public:
  // `work` per item; items already in the file (resume) are marked done and do not count.
  RunProgress(std::ostream* out, std::vector<double> work, std::vector<bool> done);
  // A run of one item at a time: the item's line begins when it starts ("[3/28] id ... ") and
  // ends when it finishes.
  void start(std::size_t index, const std::string& id);
  void finish(std::size_t index, const std::string& outcome);
  // Items that finish concurrently, in any order (a book's notes): one whole line each, numbered
  // in the order they finish.
  void finished(std::size_t index, const std::string& id, const std::string& outcome);

 private:
  void account(std::size_t index);
  std::string times() const;

  std::ostream* out_;
  std::vector<double> work_;
  std::vector<bool> done_;
  std::size_t finished_ = 0;
  double work_done_ = 0, work_total_ = 0;
  std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
};

std::string format_duration(double seconds);  // 75 -> "1:15", 3725 -> "1:02:05"

}  // namespace elsbench
