// The payoff at tau = 0 as the problem builder lays it down (solvers/problem/problem_builder.cpp:
// each node's cell averaged, and a node whose hat spans a break of the payoff averaged with the
// hat's weight, exactly: the worst (best) ratio's density times the payoff, by Gauss points between
// its breaks) against the same average found another way here: by parts, E g(w) = g(w_lo) +
// integral of g'(v) P(w > v) dv + the jumps of g times P(w >= jump), the survival P(w > v) from
// each axis's distribution function (uniform on the cell, or the hat's piecewise quadratic one),
// the jumps and slopes read off the payoff itself. Worst-of and best-of, one to three assets, at
// every node and layer.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "products/catalog.hpp"
#include "products/payoff.hpp"
#include "solvers/contract/solver.hpp"
#include "solvers/problem/problem_builder.hpp"

namespace elsbench {
namespace {

// The layers' payoff at performance perf, for a note monitored at discrete dates.
std::array<double, 2> els_payoff(const PayoffTerms& t, const Product& p, double perf) {
  const bool knocked = p.els().knocked_in || knocks_in(t, perf);
  return {maturity_amount(t, perf, knocked), maturity_amount(t, perf, true)};
}

// Node idx's weight in ratios S_d / reference_d, per axis: its cell (midpoint to midpoint,
// uniform) or its hat (rising from the node below, falling to the node above).
struct RatioWeight {
  std::vector<std::array<double, 3>> at;  // per axis: the cell's ends (and 0), or the hat's three nodes
  bool hat = false, worst_of = true;
  double below(std::size_t d, double v) const {  // P(r_d < v)
    const auto [a, b, c] = at[d];
    if (!hat) return std::clamp((v - a) / (b - a), 0.0, 1.0);
    if (v <= a) return 0.0;
    if (v >= c) return 1.0;
    return v <= b ? (v - a) * (v - a) / ((b - a) * (c - a)) : 1 - (c - v) * (c - v) / ((c - b) * (c - a));
  }
  double survival(double v) const {  // P(w > v)
    double all = 1;
    for (std::size_t d = 0; d < at.size(); ++d) all *= worst_of ? 1 - below(d, v) : below(d, v);
    return worst_of ? all : 1 - all;
  }
};

// The node's weight: its hat where every axis has one (an inner node) and its span holds one of
// `breaks` on the worst (best) ratio's range, else its cell.
RatioWeight ratio_weight(const Problem& pb, const PayoffTerms& t, const std::vector<std::size_t>& idx,
                         const std::vector<double>& breaks) {
  RatioWeight w;
  w.worst_of = t.worst_of;
  bool inner = true;
  double from = 0, to = 0;
  for (std::size_t d = 0; d < idx.size(); ++d) {
    const auto& s = pb.axes[d].s;
    const std::size_t i = idx[d];
    inner = inner && i > 0 && i + 1 < s.size();
    if (!inner) break;
    const double lo = s[i - 1] / t.reference[d], hi = s[i + 1] / t.reference[d];
    from = d == 0 ? lo : t.worst_of ? std::min(from, lo) : std::max(from, lo);
    to = d == 0 ? hi : t.worst_of ? std::min(to, hi) : std::max(to, hi);
  }
  w.hat = inner && std::any_of(breaks.begin(), breaks.end(), [&](double b) { return from < b && b < to; });
  for (std::size_t d = 0; d < idx.size(); ++d) {
    const auto& s = pb.axes[d].s;
    const std::size_t i = idx[d];
    if (w.hat) {
      w.at.push_back({s[i - 1] / t.reference[d], s[i] / t.reference[d], s[i + 1] / t.reference[d]});
    } else {
      w.at.push_back({(i == 0 ? s[0] : 0.5 * (s[i - 1] + s[i])) / t.reference[d],
                      (i + 1 == s.size() ? s[i] : 0.5 * (s[i] + s[i + 1])) / t.reference[d], 0.0});
    }
  }
  return w;
}

// The weight's average of layer l's payoff, by parts over the pieces between the weight's
// breakpoints and the payoff's breaks, on each of which the payoff is linear and P(w > v) a
// polynomial of degree at most 6 (four Gauss points exact).
double average_by_parts(const RatioWeight& c, const PayoffTerms& t, const Product& p, std::size_t l,
                        const std::vector<double>& breaks) {
  const auto g = [&](double v) { return els_payoff(t, p, v)[l]; };
  std::vector<double> levels = breaks;
  for (const auto& a : c.at) levels.insert(levels.end(), a.begin(), a.begin() + (c.hat ? 3 : 2));
  const std::size_t ends = c.hat ? 2 : 1;
  double from = c.at[0][0], to = c.at[0][ends];
  for (std::size_t d = 1; d < c.at.size(); ++d) {
    from = c.worst_of ? std::min(from, c.at[d][0]) : std::max(from, c.at[d][0]);
    to = c.worst_of ? std::min(to, c.at[d][ends]) : std::max(to, c.at[d][ends]);
  }
  std::vector<double> cuts{from, to};
  for (double v : levels)
    if (from < v && v < to) cuts.push_back(v);
  std::sort(cuts.begin(), cuts.end());
  const double x[4] = {-0.8611363115940526, -0.3399810435848563, 0.3399810435848563, 0.8611363115940526};
  const double wt[4] = {0.3478548451374538, 0.6521451548625461, 0.6521451548625461, 0.3478548451374538};
  double sum = 0, slope_before = 0;
  for (std::size_t k = 0; k + 1 < cuts.size(); ++k) {
    const double a = cuts[k], b = cuts[k + 1];
    if (!(a < b)) continue;
    const double slope = (g(a + 0.75 * (b - a)) - g(a + 0.25 * (b - a))) / (0.5 * (b - a));
    const double at_a = g(a + 0.25 * (b - a)) - slope * 0.25 * (b - a);  // right limit at a
    if (k == 0) sum += at_a;
    else sum += (at_a - (g(a - 1e-9 * (b - a)) + slope_before * 1e-9 * (b - a))) * c.survival(a);  // the jump at a
    for (int q = 0; q < 4; ++q) sum += slope * 0.5 * (b - a) * wt[q] * c.survival(0.5 * (a + b) + 0.5 * (b - a) * x[q]);
    slope_before = slope;
  }
  return sum;
}

void laid_down_as_the_exact_average(Product p, int n) {
  GridOptions g;
  g.n = n;
  const Problem pb = build_problem(p, g, SolverRegistry::instance().get("adi").stepping);
  BOOST_TEST_REQUIRE(pb.layers == 2);
  std::size_t cut = 0, hats = 0;
  std::vector<std::size_t> idx(static_cast<std::size_t>(pb.dim), 0);
  const PayoffTerms t = payoff_terms(p);
  const std::vector<double> breaks{t.barrier[t.dates - 1], t.knock_in_barrier, 1.0};
  for (std::size_t flat = 0; flat < pb.points; ++flat) {
    const RatioWeight weight = ratio_weight(pb, t, idx, breaks);
    hats += weight.hat ? 1 : 0;
    std::array<double, 2> want{};
    for (std::size_t l = 0; l < 2; ++l) {
      want[l] = average_by_parts(weight, t, p, l, breaks);
      const double got = pb.initial[l * pb.points + flat];
      BOOST_TEST(std::abs(got - want[l]) <= 1e-9 * (1 + std::abs(want[l])), "node " << flat << " layer " << l);
    }
    // A cell whose payoff is not one value throughout was averaged, not sampled at its centre.
    std::array<double, kMaxAssets> spots{};
    for (std::size_t d = 0; d < idx.size(); ++d) spots[d] = pb.axes[d].s[idx[d]];
    if (std::abs(want[0] - els_payoff(payoff_terms(p), p, performance(payoff_terms(p), spots.data()))[0]) > 1e-9) ++cut;
    for (std::size_t d = 0; d < idx.size(); ++d) {
      if (++idx[d] < pb.axes[d].size()) break;
      idx[d] = 0;
    }
  }
  BOOST_TEST(cut > 0u);
  BOOST_TEST(hats > 0u);
}

Product discrete_monitoring(Product p) {
  if (p.els().knock_in.monitoring == Monitoring::Continuous) p.els().knock_in.monitoring = Monitoring::Daily;
  return p;
}

BOOST_AUTO_TEST_CASE(worst_of_notes_of_one_to_three_assets) {
  laid_down_as_the_exact_average(discrete_monitoring(resolve_product("els-1a-stepdown")), 40);
  laid_down_as_the_exact_average(discrete_monitoring(resolve_product("sample-2a-stepdown")), 24);
  laid_down_as_the_exact_average(discrete_monitoring(resolve_product("els-3a-stepdown")), 10);
}

BOOST_AUTO_TEST_CASE(a_best_of_note) {
  Product p = discrete_monitoring(resolve_product("sample-2a-stepdown"));
  p.els().performance = Performance::BestOf;
  laid_down_as_the_exact_average(p, 24);
}

}  // namespace
}  // namespace elsbench
