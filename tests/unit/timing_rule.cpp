// How many repetitions a case's timing takes (harness/run/timing.hpp): until the median's 95 %
// interval is within the target, the time limit or the repetition limit, with Google Benchmark's
// aggregates recomputed over every repetition; and when a timing is noisy (platform/machine_load.hpp).
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <set>

#include "harness/run/timing.hpp"
#include "platform/machine_load.hpp"

namespace elsbench {
namespace {

using nlohmann::json;

int iterations(const Timings& t) {
  int n = 0;
  for (const auto& e : t.entries) n += e.value("run_type", "") == "iteration";
  return n;
}

double aggregate(const Timings& t, const std::string& name) {
  for (const auto& e : t.entries)
    if (e.value("run_type", "") == "aggregate" && e.value("aggregate_name", "") == name) return e["real_time"];
  return -1;
}

}  // namespace

BOOST_AUTO_TEST_CASE(the_median_interval_is_the_normal_approximation) {
  // stddev 1, n 3, median 2: 1.96 x 1.2533 / sqrt(3) / 2.
  BOOST_TEST(median_interval({1, 2, 3}) == 1.96 * 1.2533 / std::sqrt(3.0) / 2, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(median_interval({5}) == 0.0);
}

BOOST_AUTO_TEST_CASE(steady_times_stop_at_the_least_repetitions) {
  TimingRule rule;
  rule.min_repetitions = 3;
  const Timings t = time_case("steady", rule, [] { return 0.002; });
  BOOST_TEST(t.stopped_by == "target met");
  BOOST_TEST(t.repetitions == 3);
  BOOST_TEST(iterations(t) == 3);
  BOOST_TEST(aggregate(t, "median") == 2.0, boost::test_tools::tolerance(1e-9));  // ms
}

BOOST_AUTO_TEST_CASE(noisy_times_take_more_repetitions_up_to_the_limit_with_aggregates_over_all) {
  TimingRule rule;
  rule.min_repetitions = 3;
  rule.max_repetitions = 12;
  rule.target = 0.01;
  int call = 0;
  const Timings t = time_case("noisy", rule, [&call] { return (call++ % 2) ? 0.002 : 0.001; });
  BOOST_TEST(t.stopped_by == "max repetitions");
  BOOST_TEST(t.repetitions == 12);
  BOOST_TEST(iterations(t) == 12);
  std::set<int> indices;
  for (const auto& e : t.entries)
    if (e.value("run_type", "") == "iteration") indices.insert(e.value("repetition_index", -1));
  BOOST_TEST(indices.size() == 12u);
  BOOST_TEST(aggregate(t, "median") == 1.5, boost::test_tools::tolerance(1e-9));  // six of each
  BOOST_TEST(aggregate(t, "min") == 1.0, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(aggregate(t, "mean") == 1.5, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(t.median_interval > 0.01);
}

BOOST_AUTO_TEST_CASE(the_time_limit_ends_the_repetitions) {
  TimingRule rule;
  rule.min_repetitions = 3;
  rule.target = 0.001;
  rule.max_seconds = 5;  // of the times the pricing reports, not of the wall clock
  int call = 0;
  const Timings t = time_case("slow", rule, [&call] { return (call++ % 2) ? 2.0 : 1.0; });
  BOOST_TEST(t.stopped_by == "time limit");
  BOOST_TEST(t.repetitions <= 5);
}

BOOST_AUTO_TEST_CASE(a_zero_target_times_exactly_the_repetitions_asked) {
  TimingRule rule;
  rule.min_repetitions = 4;
  rule.target = 0;
  int call = 0;
  const Timings t = time_case("fixed", rule, [&call] { return (call++ % 2) ? 0.002 : 0.001; });
  BOOST_TEST(t.stopped_by == "fixed");
  BOOST_TEST(iterations(t) == 4);
}

BOOST_AUTO_TEST_CASE(a_timing_is_noisy_when_the_load_exceeds_the_cores_or_the_cpu_is_throttled) {
  LoadSample quiet;
  quiet.load_average = 1.9;
  BOOST_TEST(noise_reason(quiet, quiet, 2).empty());
  LoadSample busy = quiet;
  busy.load_average = 3.1;
  BOOST_TEST(noise_reason(quiet, busy, 2) == "load average 3.10 on 2 cores");
  LoadSample slow = quiet;
  slow.frequency_ratio = 0.6;
  BOOST_TEST(noise_reason(slow, quiet, 2) == "a core at 60 % of its top frequency");
  LoadSample hot = quiet, hotter = quiet;
  hot.throttle_events = 10;
  hotter.throttle_events = 14;
  BOOST_TEST(noise_reason(hot, hotter, 2) == "4 thermal throttling events");
}

}  // namespace elsbench
