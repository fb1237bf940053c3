// What `sweep --dry-run` says of a sweep's time (harness/sweep/sweep_estimate.hpp): each case's
// pricing at the measured rates, once untimed and then its timed repetitions.
#include <boost/test/unit_test.hpp>

#include "harness/sweep/plan.hpp"
#include "harness/sweep/sweep_estimate.hpp"
#include "products/catalog.hpp"
#include "solvers/contract/cost_model.hpp"
#include "solvers/contract/error_target.hpp"

using namespace elsbench;
using nlohmann::json;

namespace {

SweepSpec one_case(const std::string& solver, int threads) {
  return sweep_spec_from_json({{"repetitions", 3},
                               {"axes",
                                {{"solvers", {solver}},
                                 {"products", {"sample-2a-stepdown"}},
                                 {"n", {60}},
                                 {"nt_rules", {"auto"}},
                                 {"devices", {"cpu:t" + std::to_string(threads)}},
                                 {"precisions", {"fp64"}}}}},
                              "test");
}

}  // namespace

BOOST_AUTO_TEST_CASE(a_case_is_its_march_at_the_rate_of_its_size_once_and_then_its_repetitions) {
  const SweepSpec spec = one_case("adi", 2);
  const SweepEstimate e = estimate_sweep(plan_sweep(spec), spec);
  const Product sample = resolve_product("sample-2a-stepdown");
  GridOptions grid = spec.grid;
  grid.n = 60;
  const double work = planned_work(sample, grid) * 2;  // alive and knocked-in layers
  const CostRate rate = *measured_rate("adi", Precision::FP64, 2);
  BOOST_TEST(e.work == work, boost::test_tools::tolerance(1e-12));
  BOOST_TEST_REQUIRE(e.expected_seconds.has_value());
  BOOST_TEST(*e.expected_seconds == work * rate_at(rate, 60) * 1e-9 / 2 * (1 + 3), boost::test_tools::tolerance(1e-9));
  BOOST_TEST(*e.low_seconds == work * rate.fastest_ns * 1e-9 / 2 * (1 + 3), boost::test_tools::tolerance(1e-9));
  // A short case may repeat until the timing rule's max_seconds: up to its max_repetitions.
  BOOST_TEST(*e.high_seconds == work * rate.slowest_ns * 1e-9 / 2 * (1 + spec.timing.max_repetitions),
             boost::test_tools::tolerance(1e-9));
  BOOST_TEST(describe(e, spec).find("estimate_seconds: ") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_target_or_an_unmeasured_case_leaves_a_lower_bound_alone) {
  SweepSpec spec = one_case("adi", 1);
  spec.target = parse_error_target("1bp");
  const SweepEstimate least = estimate_sweep(plan_sweep(spec), spec);
  BOOST_TEST_REQUIRE(least.low_seconds.has_value());
  BOOST_TEST(!least.expected_seconds.has_value());
  BOOST_TEST(describe(least, spec).find("estimate: at least ") != std::string::npos);
  // A test-only variant has no rate: no estimate at all where no case has one.
  const SweepSpec unmeasured = one_case("adi-nocorr", 1);
  const SweepEstimate none = estimate_sweep(plan_sweep(unmeasured), unmeasured);
  BOOST_TEST(none.unmeasured == 1u);
  BOOST_TEST(!none.low_seconds.has_value());
  BOOST_TEST(describe(none, unmeasured).find("estimate_seconds: unmeasured") != std::string::npos);
}
