// StealingShares, the row blocks of the ADI's axis-0 phase: every block runs once in every phase,
// whatever the team, and a thread that finishes its share takes the rest of a late thread's.
#include <boost/test/unit_test.hpp>

#include <omp.h>

#include <atomic>
#include <vector>

#include "platform/stealing_shares.hpp"

namespace elsbench {
namespace {

// How many times each block ran in each of `phases` phases, on a team of `team` threads.
std::vector<std::vector<int>> runs(std::size_t count, int shares, int team, int phases) {
  StealingShares blocks(count, shares);
  std::vector<std::vector<int>> seen(static_cast<std::size_t>(phases));
  for (auto& s : seen) s.assign(count, 0);
#pragma omp parallel num_threads(team)
  for (int p = 0; p < phases; ++p) {
    blocks.run([&](std::size_t b) {
#pragma omp atomic
      ++seen[static_cast<std::size_t>(p)][b];
    });
#pragma omp barrier
  }
  return seen;
}

BOOST_AUTO_TEST_CASE(every_block_runs_once_in_every_phase) {
  for (const std::size_t count : {0, 1, 3, 16, 101})
    for (const int team : {1, 2, 3, 4}) {
      // Four shares: a team of up to four steals; more threads than shares take fixed shares.
      for (const int shares : {4, 2}) {
        const auto seen = runs(count, shares, team, 50);
        int wrong = 0;
        for (const auto& phase : seen)
          for (const int n : phase) wrong += n != 1;
        BOOST_TEST(wrong == 0, "count " << count << " team " << team << " shares " << shares);
      }
    }
}

BOOST_AUTO_TEST_CASE(a_thread_that_finishes_takes_a_late_threads_blocks) {
  StealingShares blocks(40, 2);
  std::atomic<bool> first_done{false};
  std::vector<int> ran_by(40, -1);
#pragma omp parallel num_threads(2)
  {
    const int t = omp_get_thread_num();
    // Thread 0 arrives only once thread 1 has left the phase: its whole share must be gone.
    if (t == 0 && omp_get_num_threads() == 2)
      while (!first_done.load()) {
      }
    blocks.run([&](std::size_t b) { ran_by[b] = t; });
    if (t == 1) first_done = true;
  }
  int team = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
  team = omp_get_num_threads();
  if (team == 2) {
    int by_late = 0;
    for (const int t : ran_by) by_late += t == 0;
    BOOST_TEST(by_late == 0);
  }
  for (const int t : ran_by) BOOST_TEST(t >= 0);
}

}  // namespace
}  // namespace elsbench
