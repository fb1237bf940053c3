// The payoff at tau = 0 as the problem builder lays it down (solvers/problem/problem_builder.cpp:
// each node's cell averaged, cut cells by a midpoint rule of m samples an axis, summed by
// performance level for the ELS) against the plain midpoint rule over the same samples, computed
// here one sample at a time: worst-of and best-of, one to three assets, at every node and layer.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <array>
#include <cmath>

#include "products/catalog.hpp"
#include "products/payoff.hpp"
#include "solvers/contract/solver.hpp"
#include "solvers/problem/problem_builder.hpp"

namespace elsbench {
namespace {

// The builder's samples an axis of a cut cell, by dimension (CellAverage).
constexpr std::size_t kPerAxis[4] = {1, 64, 32, 12};

// The layers' payoff at performance perf, for a note monitored at discrete dates.
std::array<double, 2> els_payoff(const PayoffTerms& t, const Product& p, double perf) {
  const bool knocked = p.els.knocked_in || knocks_in(t, perf);
  return {maturity_amount(t, perf, knocked), maturity_amount(t, perf, true)};
}

// Midpoint rule over node idx's cell (midpoint to midpoint per axis), one sample at a time.
std::array<double, 2> brute_average(const Problem& pb, const Product& p, const std::vector<std::size_t>& idx) {
  const PayoffTerms t = payoff_terms(p);
  const std::size_t dim = idx.size(), m = kPerAxis[dim];
  std::size_t samples = 1;
  for (std::size_t d = 0; d < dim; ++d) samples *= m;
  std::array<double, 2> sum{};
  for (std::size_t k = 0; k < samples; ++k) {
    double spots[kMaxAssets] = {};
    std::size_t rest = k;
    for (std::size_t d = 0; d < dim; ++d, rest /= m) {
      const auto& s = pb.axes[d].s;
      const std::size_t i = idx[d];
      const double lo = i == 0 ? s[0] : 0.5 * (s[i - 1] + s[i]);
      const double hi = i + 1 == s.size() ? s[i] : 0.5 * (s[i] + s[i + 1]);
      spots[d] = lo + (hi - lo) * (static_cast<double>(rest % m) + 0.5) / static_cast<double>(m);
    }
    const std::array<double, 2> v = els_payoff(t, p, performance(t, spots));
    for (std::size_t l = 0; l < 2; ++l) sum[l] += v[l] / static_cast<double>(samples);
  }
  return sum;
}

void laid_down_as_the_midpoint_rule(Product p, int n) {
  GridOptions g;
  g.n = n;
  const Problem pb = build_problem(p, g, SolverRegistry::instance().get("adi").stepping);
  BOOST_TEST_REQUIRE(pb.layers == 2);
  std::size_t cut = 0;
  std::vector<std::size_t> idx(static_cast<std::size_t>(pb.dim), 0);
  for (std::size_t flat = 0; flat < pb.points; ++flat) {
    const std::array<double, 2> want = brute_average(pb, p, idx);
    for (std::size_t l = 0; l < 2; ++l) {
      const double got = pb.initial[l * pb.points + flat];
      BOOST_TEST(std::abs(got - want[l]) <= 1e-12 * (1 + std::abs(want[l])), "node " << flat << " layer " << l);
    }
    // A cell whose payoff is not one value throughout was averaged, not sampled at its centre.
    if (std::abs(want[0] - els_payoff(payoff_terms(p), p, pb.performance[flat])[0]) > 1e-9) ++cut;
    for (std::size_t d = 0; d < idx.size(); ++d) {
      if (++idx[d] < pb.axes[d].size()) break;
      idx[d] = 0;
    }
  }
  BOOST_TEST(cut > 0u);
}

Product discrete_monitoring(Product p) {
  if (p.els.knock_in.monitoring == Monitoring::Continuous) p.els.knock_in.monitoring = Monitoring::Daily;
  return p;
}

BOOST_AUTO_TEST_CASE(worst_of_notes_of_one_to_three_assets) {
  laid_down_as_the_midpoint_rule(discrete_monitoring(resolve_product("els-1a-stepdown")), 40);
  laid_down_as_the_midpoint_rule(discrete_monitoring(resolve_product("sample-2a-stepdown")), 24);
  laid_down_as_the_midpoint_rule(discrete_monitoring(resolve_product("els-3a-stepdown")), 10);
}

BOOST_AUTO_TEST_CASE(a_best_of_note) {
  Product p = discrete_monitoring(resolve_product("sample-2a-stepdown"));
  p.els.performance = Performance::BestOf;
  laid_down_as_the_midpoint_rule(p, 24);
}

}  // namespace
}  // namespace elsbench
