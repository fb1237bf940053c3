#pragma once
// Mann-Whitney U test: are the repetition times of two runs drawn from the same distribution?
// Timing noise is skewed and heavy-tailed (a busy neighbour, a page fault), so a rank test is
// used instead of a t-test on means.
#include <cstddef>
#include <vector>

namespace elsbench {

struct MannWhitney {
  double u = 0;        // pairs (a_i, b_j) with b_j > a_i, ties counted one half
  double p_value = 1;  // two-sided
  bool exact = false;  // exact null distribution (no ties, small samples), else normal approximation
};

// Two-sided test of `b` against `a`. Exact when there are no ties and both samples are small,
// otherwise the normal approximation with tie and continuity corrections (as scipy's
// mannwhitneyu does). Both samples must be non-empty.
MannWhitney mann_whitney_u(const std::vector<double>& a, const std::vector<double>& b);

// The smallest two-sided p-value samples of these sizes can give (complete separation): with
// 3 and 3 repetitions it is 0.1, so no slowdown can be shown at the 5 % level.
double smallest_p_value(std::size_t m, std::size_t n);

}  // namespace elsbench
