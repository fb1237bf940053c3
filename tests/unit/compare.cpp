// elsbench compare on crafted regressions: exit codes, the Mann-Whitney test and the loader.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <ostream>

#include "harness/compare/compare.hpp"
#include "harness/compare/compare_json.hpp"
#include "harness/compare/compare_text.hpp"
#include "platform/input_error.hpp"

namespace elsbench {
namespace {

using nlohmann::json;

// One case as the sweep writes it: an iteration entry per repetition (ms) and a median aggregate.
json case_entries(const std::string& id, const std::string& status, double price, const std::vector<double>& reps_ms) {
  const json fields = {{"case_id", id},          {"status", status}, {"skip_reason", ""},
                       {"price", price},          {"reference", 93.25}, {"reference_stderr", 0.004},
                       {"time_unit", "ms"}};
  json entries = json::array();
  for (double t : reps_ms) {
    json e = fields;
    e["run_type"] = "iteration";
    e["real_time"] = t;
    entries.push_back(e);
  }
  std::vector<double> sorted = reps_ms;
  std::sort(sorted.begin(), sorted.end());
  json median = fields;
  median["run_type"] = "aggregate";
  median["aggregate_name"] = "median";
  median["real_time"] = sorted[sorted.size() / 2];
  entries.push_back(median);
  return entries;
}

CaseTable table_of(const std::vector<json>& cases) {
  json results = {{"context", json::object()}, {"benchmarks", json::array()}};
  for (const auto& c : cases)
    for (const auto& e : c) results["benchmarks"].push_back(e);
  return cases_from_json(results, "crafted.json");
}

const std::string kCase = "sample-2a-stepdown/adi:hundsdorfer-verwer/n=100/nt=200/cpu/t1/fp64";
const std::vector<double> kSteady{100.0, 101.0, 99.5, 100.4, 100.8, 99.9};

int exit_code_for(const CaseTable& base, const CaseTable& now, CompareOptions opt = {}) {
  return regression_exit_code(compare(base, now, opt), opt);
}

}  // namespace

std::ostream& operator<<(std::ostream& out, TimeVerdict v) { return out << to_string(v); }

BOOST_AUTO_TEST_CASE(mann_whitney_complete_separation_of_three_and_three) {
  const MannWhitney t = mann_whitney_u({1, 2, 3}, {4, 5, 6});
  BOOST_TEST(t.exact);
  BOOST_TEST(t.u == 9.0);  // every b beats every a
  BOOST_TEST(t.p_value == 0.1, boost::test_tools::tolerance(1e-12));  // 2 / C(6, 3)
  BOOST_TEST(smallest_p_value(3, 3) == 0.1, boost::test_tools::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(mann_whitney_matches_scipy) {
  // Reference values from scipy.stats.mannwhitneyu(a, b, alternative='two-sided').
  const MannWhitney five = mann_whitney_u({1, 2, 3, 4, 5}, {6, 7, 8, 9, 10});
  BOOST_TEST(five.p_value == 2.0 / 252.0, boost::test_tools::tolerance(1e-12));
  const MannWhitney interleaved = mann_whitney_u({1, 4, 6, 9}, {2, 3, 7, 8, 10});
  BOOST_TEST(interleaved.exact);
  BOOST_TEST(interleaved.u == 12.0);
  BOOST_TEST(interleaved.p_value == 0.7301587301587302, boost::test_tools::tolerance(1e-12));
  const MannWhitney tied = mann_whitney_u({1, 2, 2, 3}, {2, 3, 4, 5});
  BOOST_TEST(!tied.exact);
  BOOST_TEST(tied.u == 13.5);
  BOOST_TEST(tied.p_value == 0.1366582477381475, boost::test_tools::tolerance(1e-10));
  std::vector<double> a, b;
  for (int i = 1; i <= 60; ++i) {
    a.push_back(i);
    b.push_back(i + 20.5);
  }
  const MannWhitney large = mann_whitney_u(a, b);  // beyond the exact table: normal approximation
  BOOST_TEST(!large.exact);
  BOOST_TEST(large.p_value == 8.747567722893498e-08, boost::test_tools::tolerance(1e-8));
}

BOOST_AUTO_TEST_CASE(loader_reads_repetitions_in_seconds_and_the_median_aggregate) {
  const CaseTable t = table_of({case_entries(kCase, "pass", 93.2553, {95.0, 96.2, 94.8})});
  const CaseRecord& c = t.at(kCase);
  BOOST_TEST(c.repetition_seconds.size() == 3u);
  BOOST_TEST(c.repetition_seconds[1] == 0.0962, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(*c.median_seconds == 0.095, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(*c.price == 93.2553);
  BOOST_TEST(*c.reference_stderr == 0.004);
}

BOOST_AUTO_TEST_CASE(identical_files_are_no_regression) {
  const CaseTable t = table_of({case_entries(kCase, "pass", 93.2553, kSteady)});
  const Comparison c = compare(t, t, {});
  BOOST_TEST(c.cases.size() == 1u);
  BOOST_TEST(*c.cases[0].drift == 0.0);
  BOOST_TEST(c.cases[0].time_test->p_value == 1.0, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(regression_exit_code(c, {}) == 0);
}

BOOST_AUTO_TEST_CASE(price_drift_beyond_tolerance_is_a_regression) {
  const CaseTable base = table_of({case_entries(kCase, "pass", 93.2553, kSteady)});
  const CaseTable now = table_of({case_entries(kCase, "pass", 93.2573, kSteady)});  // still passes
  const Comparison c = compare(base, now, {});
  BOOST_TEST(*c.cases[0].drift == 0.002, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(*c.cases[0].drift_in_stderr == 0.5, boost::test_tools::tolerance(1e-6));  // 0.002 / 0.004
  BOOST_TEST(c.cases[0].price_regression);
  BOOST_TEST(exit_code_for(base, now) == 1);
  CompareOptions loose;
  loose.price_tol = 0.01;
  BOOST_TEST(exit_code_for(base, now, loose) == 0);
  BOOST_TEST(to_text(c, {}).find("PRICE REGRESSION") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_pass_that_became_a_fail_is_a_regression_even_at_the_same_price) {
  const CaseTable base = table_of({case_entries(kCase, "pass", 93.2553, kSteady)});
  const CaseTable now = table_of({case_entries(kCase, "fail", 93.2553, kSteady)});  // e.g. a new reference
  CompareOptions opt;
  opt.price_tol = 1.0;
  const Comparison c = compare(base, now, opt);
  BOOST_TEST(c.cases[0].price_regression);
  BOOST_TEST(c.cases[0].price_note == "passed, now fails");
  BOOST_TEST(regression_exit_code(c, opt) == 1);
}

BOOST_AUTO_TEST_CASE(significant_slowdown_fails_only_with_fail_on_slow) {
  const std::vector<double> slower{130.0, 131.5, 129.0, 130.8, 132.0, 129.9};  // +30 %
  const CaseTable base = table_of({case_entries(kCase, "pass", 93.2553, kSteady)});
  const CaseTable now = table_of({case_entries(kCase, "pass", 93.2553, slower)});
  const Comparison c = compare(base, now, {});
  BOOST_TEST(c.cases[0].time == TimeVerdict::Slower);
  BOOST_TEST(c.cases[0].time_test->p_value == 2.0 / 924.0, boost::test_tools::tolerance(1e-12));  // 2 / C(12, 6)
  BOOST_TEST(exit_code_for(base, now) == 0);
  CompareOptions strict;
  strict.fail_on_slow = true;
  BOOST_TEST(exit_code_for(base, now, strict) == 1);
  // The same medians with three repetitions each cannot be significant (smallest p is 0.1).
  const CaseTable base3 = table_of({case_entries(kCase, "pass", 93.2553, {100.0, 101.0, 99.5})});
  const CaseTable now3 = table_of({case_entries(kCase, "pass", 93.2553, {130.0, 131.5, 129.0})});
  BOOST_TEST(exit_code_for(base3, now3, strict) == 0);
  BOOST_TEST(to_text(compare(base3, now3, strict), strict).find("too few repetitions") != std::string::npos);
}

// compare --json, what the report's history reads: the same verdicts as the text, one word each.
BOOST_AUTO_TEST_CASE(the_json_verdicts_are_the_comparisons) {
  const std::vector<double> slower{130.0, 131.5, 129.0, 130.8, 132.0, 129.9};
  const CaseTable base = table_of({case_entries(kCase, "pass", 93.2553, kSteady)});
  const CaseTable now = table_of({case_entries(kCase, "pass", 93.2573, slower)});
  const CompareOptions opt;
  const nlohmann::json j = to_json(compare(base, now, opt), opt);
  BOOST_TEST_REQUIRE(j["cases"].size() == 1u);
  const nlohmann::json& c = j["cases"][0];
  BOOST_TEST(c["case_id"] == kCase);
  BOOST_TEST(c["time"] == "slower");
  BOOST_TEST(c["price_moved"] == true);
  BOOST_TEST(c["price_regression"] == true);
  BOOST_TEST(c["drift"].get<double>() == 0.002, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(j["options"]["price_tol"] == 1e-6);
  const nlohmann::json same = to_json(compare(base, base, opt), opt);
  BOOST_TEST(same["cases"][0]["time"] == "unchanged");
  BOOST_TEST(same["cases"][0]["price_moved"] == false);
}

BOOST_AUTO_TEST_CASE(across_commits_a_moved_price_is_age_and_a_new_failure_still_fails) {
  const CaseTable base = table_of({case_entries(kCase, "pass", 93.2553, kSteady)});
  const CaseTable moved = table_of({case_entries(kCase, "pass", 93.2573, kSteady)});
  const CompareScope scope = scope_of({"a04585b9f9c0", "vm, AMD EPYC x2", "", {}}, {"2bf69e5aaaaa", "vm, AMD EPYC x2", "", {}});
  BOOST_TEST(!scope.same_commit);
  const Comparison c = compare(base, moved, {}, scope);
  BOOST_TEST(!c.cases[0].price_regression);
  BOOST_TEST(c.cases[0].aged);
  BOOST_TEST(c.cases[0].price_note == "changed since a04585b (age: the code differs)");
  BOOST_TEST(regression_exit_code(c, {}) == 0);
  BOOST_TEST(to_text(c, {}).find("1 price(s) changed across commits (age)") != std::string::npos);
  CompareOptions strict;
  strict.fail_on_change = true;
  BOOST_TEST(regression_exit_code(compare(base, moved, strict, scope), strict) == 1);
  // Now failing its reference is a regression whatever the commits.
  const CaseTable failing = table_of({case_entries(kCase, "fail", 93.2573, kSteady)});
  BOOST_TEST(regression_exit_code(compare(base, failing, {}, scope), {}) == 1);
}

BOOST_AUTO_TEST_CASE(noisy_times_and_other_machines_are_not_judged) {
  const std::vector<double> slower{130.0, 131.5, 129.0, 130.8, 132.0, 129.9};
  json noisy = case_entries(kCase, "pass", 93.2553, slower);
  for (auto& e : noisy) e["noisy"] = true;
  const CaseTable base = table_of({case_entries(kCase, "pass", 93.2553, kSteady)});
  CompareOptions strict;
  strict.fail_on_slow = true;
  const Comparison c = compare(base, table_of({noisy}), strict);
  BOOST_TEST(c.cases[0].time == TimeVerdict::Noisy);
  BOOST_TEST(regression_exit_code(c, strict) == 0);
  strict.include_noisy = true;
  BOOST_TEST(compare(base, table_of({noisy}), strict).cases[0].time == TimeVerdict::Slower);
  const CompareScope elsewhere = scope_of({"c", "vm, AMD EPYC x2", "", {}}, {"c", "vm, Intel Xeon x16, H100", "", {}});
  const Comparison across = compare(base, table_of({case_entries(kCase, "pass", 93.2553, slower)}), strict, elsewhere);
  BOOST_TEST(across.cases[0].time == TimeVerdict::OtherMachine);
  BOOST_TEST(to_text(across, strict).find("different machines: times are not compared") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(noise_within_the_allowance_is_no_slowdown) {
  CompareOptions strict;
  strict.fail_on_slow = true;
  const CaseTable base = table_of({case_entries(kCase, "pass", 93.2553, kSteady)});
  // Consistently 4 % slower: significant, but inside the 10 % allowance.
  const CaseTable shifted = table_of({case_entries(kCase, "pass", 93.2553, {104.0, 105.0, 103.5, 104.4, 104.8, 103.9})});
  const Comparison c = compare(base, shifted, strict);
  BOOST_TEST(c.cases[0].time_test->p_value < 0.05);
  BOOST_TEST(c.cases[0].time == TimeVerdict::Unchanged);
  BOOST_TEST(regression_exit_code(c, strict) == 0);
  // Median 25 % slower but overlapping repetitions: not significant, so within noise.
  const CaseTable noisy = table_of({case_entries(kCase, "pass", 93.2553, {90.0, 160.0, 99.0, 140.0, 125.0, 126.0})});
  const Comparison n = compare(base, noisy, strict);
  BOOST_TEST(*n.cases[0].time_change_pct > 10.0);
  BOOST_TEST(n.cases[0].time_test->p_value > 0.05);
  BOOST_TEST(regression_exit_code(n, strict) == 0);
}

BOOST_AUTO_TEST_CASE(cases_in_one_file_only_are_listed_and_a_lost_case_fails_unless_allowed) {
  const std::string other = "european-call/adi:douglas/n=200/nt=200/cpu/t1/fp64";
  const std::string added = "sample-2a-stepdown/explicit/n=50/nt=auto/cpu/t1/fp64";
  const CaseTable base = table_of({case_entries(kCase, "pass", 93.2553, kSteady), case_entries(other, "pass", 10.45, kSteady)});
  const CaseTable now = table_of({case_entries(kCase, "pass", 93.2553, kSteady), case_entries(added, "pass", 93.26, kSteady)});
  const Comparison c = compare(base, now, {});
  BOOST_TEST(c.only_base == std::vector<std::string>{other});
  BOOST_TEST(c.only_new == std::vector<std::string>{added});
  BOOST_TEST(regression_exit_code(c, {}) == 1);
  CompareOptions opt;
  opt.fail_on_missing = false;
  BOOST_TEST(regression_exit_code(c, opt) == 0);
  const std::string text = to_text(c, {});
  BOOST_TEST(text.find("only in BASE (1):\n  " + other) != std::string::npos);
  BOOST_TEST(text.find("only in NEW (1):\n  " + added) != std::string::npos);
}

BOOST_AUTO_TEST_CASE(files_of_other_settings_are_not_comparable_and_say_which_setting) {
  // An fp64 and a mixed book printed "0 cases matched ... 24 case(s) lost / result: REGRESSION"
  // (exit 1); a --ki-damping 0 book 20 PRICE REGRESSION lines, naming no setting.
  const std::string mixed = "sample-2a-stepdown/adi:hundsdorfer-verwer/n=100/nt=200/cpu/t1/mixed";
  json base = case_entries(kCase, "pass", 93.2553, kSteady), now = case_entries(mixed, "pass", 93.2551, kSteady);
  for (auto& e : base) e["precision"] = "fp64";
  for (auto& e : now) e["precision"] = "mixed";
  const Comparison c = compare(table_of({base}), table_of({now}), {});
  BOOST_TEST(c.nothing_matched());
  BOOST_TEST_REQUIRE(c.differing.size() == 1u);
  BOOST_TEST(c.differing[0].axis == "precision");
  BOOST_TEST(regression_exit_code(c, {}) == 2);
  const std::string text = to_text(c, {});
  BOOST_TEST(text.find("differ in precision (BASE: fp64; NEW: mixed)") != std::string::npos, text);
  BOOST_TEST(text.find("--by precision=fp64,mixed") != std::string::npos, text);
  BOOST_TEST(text.find("REGRESSION") == std::string::npos, text);

  RunProvenance damped{"c", "vm", "", {{"ki_damping", "2"}, {"n", "100"}}}, undamped = damped;
  undamped.settings["ki_damping"] = "0";
  const CompareScope scope = scope_of(damped, undamped);
  BOOST_TEST((scope.settings_differ == std::vector<std::string>{"ki_damping: 2 -> 0"}));
  const CaseTable before = table_of({case_entries(kCase, "pass", 93.2553, kSteady)});
  const Comparison moved = compare(before, table_of({case_entries(kCase, "pass", 93.2419, kSteady)}), {}, scope);
  BOOST_TEST(!moved.cases[0].price_regression);
  BOOST_TEST(regression_exit_code(moved, {}) == 2);
  BOOST_TEST(to_text(moved, {}).find("priced under other settings (ki_damping: 2 -> 0)") != std::string::npos);
}

}  // namespace elsbench

namespace elsbench {

// --by: one file's cases split along one axis, each case matched with its twin on every other axis.
BOOST_AUTO_TEST_CASE(one_file_splits_by_an_axis_into_twins) {
  const auto with_axes = [](json entries, const std::string& precision, const std::string& solver) {
    for (auto& e : entries) e.update({{"product", "min-call"}, {"solver", solver}, {"precision", precision}, {"n", 96}});
    return entries;
  };
  const CaseTable file = table_of({with_axes(case_entries("a/fp64", "pass", 6.8, kSteady), "fp64", "adi"),
                                   with_axes(case_entries("a/mixed", "pass", 6.8 + 2e-8, kSteady), "mixed", "adi"),
                                   with_axes(case_entries("b/fp64", "pass", 6.9, kSteady), "fp64", "cn-direct"),
                                   with_axes(case_entries("c/fp32", "pass", 6.7, kSteady), "fp32", "adi")});
  BOOST_TEST((axis_values(file, "precision") == std::vector<std::string>{"fp64", "mixed", "fp32"}));
  const auto [base, now] = split_by(file, "precision", "fp64", "mixed", "f.json");
  BOOST_TEST(base.size() == 2u);
  BOOST_TEST(now.size() == 1u);
  const Comparison c = compare(base, now, CompareOptions{});
  BOOST_REQUIRE(c.cases.size() == 1u);  // adi's fp64 and mixed meet; cn-direct has no mixed twin
  BOOST_TEST(c.cases[0].case_id == "min-call/adi/96");
  BOOST_TEST(*c.cases[0].drift == (6.8 + 2e-8) - 6.8);
  BOOST_TEST(c.only_base.size() == 1u);
  BOOST_CHECK_THROW(split_by(file, "colour", "a", "b", "f.json"), InputError);
}

BOOST_AUTO_TEST_CASE(a_case_given_twice_is_refused_whichever_copy_comes_first) {
  // compare read the first copy: a second copy priced 5 higher appended gave "result: ok", prepended
  // a REGRESSION.
  const json good = case_entries(kCase, "pass", 93.25, kSteady);
  const json moved = case_entries(kCase, "pass", 98.25, kSteady);
  const json other = case_entries("other/case", "pass", 1.0, kSteady);
  for (const auto& cases : {std::vector<json>{good, other, moved}, std::vector<json>{moved, other, good}}) {
    try {
      table_of(cases);
      BOOST_FAIL("a results file with a case given twice was read");
    } catch (const InputError& e) {
      BOOST_TEST(std::string(e.what()).find("given twice") != std::string::npos, e.what());
      BOOST_TEST(e.field() == "benchmarks[" + std::to_string(good.size() + other.size()) + "].case_id");
    }
  }
}

}  // namespace elsbench
