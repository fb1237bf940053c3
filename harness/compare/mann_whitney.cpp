#include "harness/compare/mann_whitney.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <utility>

namespace elsbench {
namespace {

// Beyond this many pairs the exact distribution's table costs more than the approximation is off.
constexpr std::size_t kExactMaxPairs = 2500;

struct Ranked {
  double rank_sum_b = 0;
  double tie_term = 0;  // sum over tie groups of t^3 - t
};

Ranked rank_samples(const std::vector<double>& a, const std::vector<double>& b) {
  std::vector<std::pair<double, bool>> pooled;  // (value, from b)
  for (double x : a) pooled.emplace_back(x, false);
  for (double x : b) pooled.emplace_back(x, true);
  std::sort(pooled.begin(), pooled.end());
  Ranked r;
  for (std::size_t i = 0; i < pooled.size();) {
    std::size_t j = i;
    while (j < pooled.size() && pooled[j].first == pooled[i].first) ++j;
    const double mid_rank = 0.5 * static_cast<double>(i + 1 + j);  // ranks i+1 .. j share their mean
    for (std::size_t k = i; k < j; ++k)
      if (pooled[k].second) r.rank_sum_b += mid_rank;
    const double t = static_cast<double>(j - i);
    r.tie_term += t * t * t - t;
    i = j;
  }
  return r;
}

// counts[u] = number of orderings of m a's and n b's whose U statistic is u (no ties).
std::vector<double> exact_u_counts(std::size_t m, std::size_t n) {
  // f(m, n, u) = f(m - 1, n, u) + f(m, n - 1, u - m): the largest value is an a, or a b that
  // beats all m a's. Rolled over n with one table per m.
  std::vector<std::vector<double>> by_m(m + 1, std::vector<double>(1, 1.0));  // n = 0: only u = 0
  for (std::size_t nn = 1; nn <= n; ++nn) {
    std::vector<std::vector<double>> next(m + 1);
    next[0] = {1.0};
    for (std::size_t mm = 1; mm <= m; ++mm) {
      next[mm].assign(mm * nn + 1, 0.0);
      for (std::size_t u = 0; u < next[mm - 1].size(); ++u) next[mm][u] += next[mm - 1][u];
      for (std::size_t u = 0; u < by_m[mm].size(); ++u) next[mm][u + mm] += by_m[mm][u];
    }
    by_m = std::move(next);
  }
  return by_m[m];
}

double exact_two_sided(double u, std::size_t m, std::size_t n) {
  const std::vector<double> counts = exact_u_counts(m, n);
  double total = 0, at_most = 0, at_least = 0;
  for (std::size_t k = 0; k < counts.size(); ++k) {
    total += counts[k];
    if (static_cast<double>(k) <= u) at_most += counts[k];
    if (static_cast<double>(k) >= u) at_least += counts[k];
  }
  return std::min(1.0, 2.0 * std::min(at_most, at_least) / total);
}

double normal_two_sided(double u, std::size_t m, std::size_t n, double tie_term) {
  const double mm = static_cast<double>(m), nn = static_cast<double>(n), total = mm + nn;
  const double variance = mm * nn / 12.0 * ((total + 1) - tie_term / (total * (total - 1)));
  if (!(variance > 0)) return 1.0;  // every value tied: no evidence either way
  const double z = std::max(0.0, std::abs(u - mm * nn / 2.0) - 0.5) / std::sqrt(variance);
  return std::min(1.0, std::erfc(z / std::sqrt(2.0)));
}

}  // namespace

MannWhitney mann_whitney_u(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.empty() || b.empty()) throw std::invalid_argument("mann_whitney_u: empty sample");
  const std::size_t m = a.size(), n = b.size();
  const Ranked r = rank_samples(a, b);
  MannWhitney t;
  t.u = r.rank_sum_b - static_cast<double>(n * (n + 1)) / 2.0;
  t.exact = r.tie_term == 0 && m * n <= kExactMaxPairs;
  t.p_value = t.exact ? exact_two_sided(t.u, m, n) : normal_two_sided(t.u, m, n, r.tie_term);
  return t;
}

double smallest_p_value(std::size_t m, std::size_t n) {
  double orderings = 1;  // C(m + n, m), built up as a product to stay exact for small samples
  for (std::size_t k = 1; k <= m; ++k) orderings = orderings * static_cast<double>(n + k) / static_cast<double>(k);
  return std::min(1.0, 2.0 / orderings);
}

}  // namespace elsbench
