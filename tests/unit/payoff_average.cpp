// The payoff at tau = 0 as the problem builder lays it down (solvers/problem/problem_builder.cpp:
// each node's cell averaged, a cut cell exactly: the worst (best) ratio's density times the
// payoff, by Gauss points between its breaks) against the same average found another way here:
// by parts, E g(w) = g(w_lo) + integral of g'(v) P(w > v) dv + the jumps of g times P(w >= jump),
// with Simpson's rule on each polynomial piece, the jumps and slopes read off the payoff itself.
// Worst-of and best-of, one to three assets, at every node and layer.
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

// Node idx's cell (midpoint to midpoint per axis), in ratios S_d / reference_d.
struct RatioCell {
  std::vector<double> lo, hi;
  bool worst_of = true;
  // P(w > v), each ratio uniform on its side.
  double survival(double v) const {
    double all = 1;
    for (std::size_t d = 0; d < lo.size(); ++d) {
      const double above = std::clamp((hi[d] - v) / (hi[d] - lo[d]), 0.0, 1.0);
      all *= worst_of ? above : 1 - above;
    }
    return worst_of ? all : 1 - all;
  }
};

RatioCell ratio_cell(const Problem& pb, const PayoffTerms& t, const std::vector<std::size_t>& idx) {
  RatioCell c;
  c.worst_of = t.worst_of;
  for (std::size_t d = 0; d < idx.size(); ++d) {
    const auto& s = pb.axes[d].s;
    const std::size_t i = idx[d];
    c.lo.push_back((i == 0 ? s[0] : 0.5 * (s[i - 1] + s[i])) / t.reference[d]);
    c.hi.push_back((i + 1 == s.size() ? s[i] : 0.5 * (s[i] + s[i + 1])) / t.reference[d]);
  }
  return c;
}

// The cell's average of layer l's payoff, by parts over the pieces between the cell's ends and
// the payoff's breaks, on each of which the payoff is linear and P(w > v) a polynomial of degree
// at most 3 (Simpson exact).
double average_by_parts(const RatioCell& c, const PayoffTerms& t, const Product& p, std::size_t l) {
  const auto g = [&](double v) { return els_payoff(t, p, v)[l]; };
  std::vector<double> levels{t.barrier[t.dates - 1], t.knock_in_barrier, 1.0};
  levels.insert(levels.end(), c.lo.begin(), c.lo.end());
  levels.insert(levels.end(), c.hi.begin(), c.hi.end());
  double from = c.lo[0], to = c.hi[0];
  for (std::size_t d = 1; d < c.lo.size(); ++d) {
    from = c.worst_of ? std::min(from, c.lo[d]) : std::max(from, c.lo[d]);
    to = c.worst_of ? std::min(to, c.hi[d]) : std::max(to, c.hi[d]);
  }
  std::vector<double> cuts{from, to};
  for (double v : levels)
    if (from < v && v < to) cuts.push_back(v);
  std::sort(cuts.begin(), cuts.end());
  double sum = 0, slope_before = 0;
  for (std::size_t k = 0; k + 1 < cuts.size(); ++k) {
    const double a = cuts[k], b = cuts[k + 1];
    if (!(a < b)) continue;
    const double slope = (g(a + 0.75 * (b - a)) - g(a + 0.25 * (b - a))) / (0.5 * (b - a));
    const double at_a = g(a + 0.25 * (b - a)) - slope * 0.25 * (b - a);  // right limit at a
    if (k == 0) sum += at_a;
    else sum += (at_a - (g(a - 1e-9 * (b - a)) + slope_before * 1e-9 * (b - a))) * c.survival(a);  // the jump at a
    sum += slope * (b - a) / 6 * (c.survival(a) + 4 * c.survival(0.5 * (a + b)) + c.survival(b));
    slope_before = slope;
  }
  return sum;
}

void laid_down_as_the_exact_average(Product p, int n) {
  GridOptions g;
  g.n = n;
  const Problem pb = build_problem(p, g, SolverRegistry::instance().get("adi").stepping);
  BOOST_TEST_REQUIRE(pb.layers == 2);
  std::size_t cut = 0;
  std::vector<std::size_t> idx(static_cast<std::size_t>(pb.dim), 0);
  for (std::size_t flat = 0; flat < pb.points; ++flat) {
    const PayoffTerms t = payoff_terms(p);
    const RatioCell cell = ratio_cell(pb, t, idx);
    std::array<double, 2> want{};
    for (std::size_t l = 0; l < 2; ++l) {
      want[l] = average_by_parts(cell, t, p, l);
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
