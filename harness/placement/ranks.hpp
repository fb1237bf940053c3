#pragma once
// The ranks of a run started by mpirun (Open MPI), or the one rank of a plain run: a book is split
// between ranks by cost and rank 0 gathers every rank's notes into the one results file. Without
// MPI in the build (ELSBENCH_WITH_MPI, found by CMake) there is one rank and nothing is sent.
#include <string>
#include <vector>

namespace elsbench {

class Ranks {
 public:
  // Starts MPI when this process was launched by mpirun and the build has MPI; ends it when destroyed.
  Ranks();
  ~Ranks();
  Ranks(const Ranks&) = delete;
  Ranks& operator=(const Ranks&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }
  // Rank 0 receives every rank's text in rank order (its own first); the others get nothing.
  std::vector<std::string> gather(const std::string& mine) const;
  // Every rank receives rank 0's text.
  std::string broadcast(const std::string& from_root) const;
  // Ends every rank of the run with `code` (one rank's failure ends them all).
  [[noreturn]] void abort(int code) const;

  static bool built_with_mpi();

 private:
  int rank_ = 0, size_ = 1;
  bool started_ = false;
};

}  // namespace elsbench
