// The cost model behind the pre-flight's time check (solvers/contract/cost_model.hpp): every CPU
// variant has measured rates for every precision and dimension it prices, so that its refusals
// rest on the project's own benchmarks, and the lower bound it gives is one.
#include <boost/test/unit_test.hpp>
#include <algorithm>

#include "solvers/contract/cost_model.hpp"
#include "solvers/contract/solver.hpp"

using namespace elsbench;

BOOST_AUTO_TEST_CASE(every_cpu_variant_has_a_measured_rate_for_what_it_prices) {
  // And the fallback of an unmeasured one stays under the fastest a measured one is allowed.
  double fastest = 1e9;
  // A new variant, precision or dimension is calibrated with it: python3 benchmarks/calibrate_cost.py.
  for (const SolverInfo& s : SolverRegistry::instance().all()) {
    if (s.test_only || !s.supports(Device::Kind::Cpu)) continue;
    for (const Precision p : s.precisions)
      for (int dim = 1; dim <= s.max_dim; ++dim) {
        const std::optional<CostRate> rate = measured_rate(s.name, p, dim);
        BOOST_TEST_REQUIRE(rate.has_value(), s.name << " " << to_string(p) << " " << dim << "-D");
        BOOST_TEST(rate->fastest_ns > 0);
        BOOST_TEST(rate->fastest_ns <= rate->slowest_ns);
        fastest = std::min(fastest, rate->fastest_ns);
      }
  }
  Device one;
  one.threads = 1;
  BOOST_TEST(lower_bound_seconds("no-such-variant", Precision::FP64, 2, one, 1e9) <= fastest / kFasterMachine);
}

BOOST_AUTO_TEST_CASE(the_lower_bound_is_the_fastest_rate_on_a_faster_machine_with_perfect_threads) {
  const CostRate adi = *measured_rate("adi", Precision::FP64, 2);
  Device one;
  one.threads = 1;
  Device four = one;
  four.threads = 4;
  const double work = 1e10;
  BOOST_TEST(lower_bound_seconds("adi", Precision::FP64, 2, one, work) ==
             work * adi.fastest_ns * 1e-9 / kFasterMachine, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(lower_bound_seconds("adi", Precision::FP64, 2, four, work) ==
             lower_bound_seconds("adi", Precision::FP64, 2, one, work) / 4, boost::test_tools::tolerance(1e-12));
  // A variant no calibration covered: a bound no device reaches (0.1 ns per CPU thread).
  BOOST_TEST(lower_bound_seconds("no-such-variant", Precision::FP64, 2, one, work) == 1.0,
             boost::test_tools::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(the_rate_at_a_size_is_the_measured_one_and_between_sizes_in_log_n) {
  const CostRate rate{"x", Precision::FP64, 2, 2.0, 4.0, {{50, 4.0}, {200, 2.0}}};
  BOOST_TEST(rate_at(rate, 50) == 4.0);
  BOOST_TEST(rate_at(rate, 200) == 2.0);
  BOOST_TEST(rate_at(rate, 100) == 3.0, boost::test_tools::tolerance(1e-12));  // halfway in log n
  BOOST_TEST(rate_at(rate, 20) == 4.0);   // beyond the sizes: the nearest one's
  BOOST_TEST(rate_at(rate, 800) == 2.0);
  const MarchSeconds t = march_seconds(rate, 100, 1e9);  // 1e9 point-layer-steps
  BOOST_TEST(t.fastest == 2.0, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(t.own == 3.0, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(t.slowest == 4.0, boost::test_tools::tolerance(1e-12));
  // Every calibrated row lists its sizes, increasing, within its fastest and slowest.
  const CostRate adi = *measured_rate("adi", Precision::FP64, 2);
  BOOST_TEST_REQUIRE(adi.sizes.size() >= 2u);
  for (std::size_t i = 1; i < adi.sizes.size(); ++i) BOOST_TEST(adi.sizes[i - 1].first < adi.sizes[i].first);
  for (const auto& [n, ns] : adi.sizes) BOOST_TEST((ns >= adi.fastest_ns && ns <= adi.slowest_ns), n);
}
