#pragma once
// The progress line of a sweep on stderr: case i/N, its id, its outcome, and the time left,
// estimated from the work done so far (grid points x time steps x pricings of each case).
#include <chrono>
#include <ostream>
#include <string>
#include <vector>

#include "harness/run/case.hpp"

namespace elsbench {

// Relative cost of a case, for the estimate of the time left (auto time steps count as n).
double case_work(const SweepCase& c, int dim, int repetitions);

class SweepProgress {
 public:
  // `work` per case; cases already in the file (resume) are marked done and do not count.
  SweepProgress(std::ostream* out, std::vector<double> work, std::vector<bool> done);
  void start(std::size_t index, const std::string& case_id);
  void finish(std::size_t index, const std::string& outcome);

 private:
  std::string time_left() const;

  std::ostream* out_;
  std::vector<double> work_;
  std::vector<bool> done_;
  double work_done_ = 0, work_total_ = 0;
  std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
};

std::string format_duration(double seconds);  // 75 -> "1:15", 3725 -> "1:02:05"

}  // namespace elsbench
