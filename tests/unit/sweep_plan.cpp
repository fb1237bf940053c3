// Sweep axes, presets and planning: which cases a sweep will run, in which order, with which ids.
#include <omp.h>

#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <set>

#include "harness/sweep/overrides.hpp"
#include "harness/sweep/plan.hpp"
#include "harness/sweep/preset.hpp"
#include "platform/cuda_devices.hpp"
#include "platform/input_error.hpp"
#include "products/catalog.hpp"
#include "solvers/contract/solver.hpp"

using namespace elsbench;
using nlohmann::json;

namespace {

SweepSpec spec_of(const json& j) { return sweep_spec_from_json(j, "test"); }

std::vector<std::string> ids(const SweepPlan& plan) {
  std::vector<std::string> out;
  for (const auto& c : plan.cases) out.push_back(c.id());
  return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(axes)

BOOST_AUTO_TEST_CASE(time_step_rules) {
  BOOST_TEST(*parse_nt_rule("fixed:200").steps(50) == 200);
  BOOST_TEST(*parse_nt_rule("per-n:2").steps(50) == 100);
  BOOST_TEST(*parse_nt_rule("per-n:0.5").steps(15) == 8);
  BOOST_TEST(!parse_nt_rule("auto").steps(50).has_value());
  BOOST_TEST(parse_nt_rule("per-n:2").str() == "per-n:2");
  for (const char* bad : {"fixed:0", "fixed:1.5", "per-n:-1", "per-n:", "daily", "fixed", "200", "per-n:2e9"})
    BOOST_CHECK_THROW(parse_nt_rule(bad), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(a_per_node_rule_beyond_a_case_s_steps_is_refused_not_wrapped_or_raised) {
  // 42949677.96 x 100 is 2^32 + 496: cast to int it planned 500 steps; 4.294967296e7 planned one;
  // a tiny X was raised to one step.
  for (const char* rule : {"per-n:42949677.96", "per-n:4.294967296e7", "per-n:1e-9", "per-n:0.004"})
    BOOST_CHECK_THROW(parse_nt_rule(rule).steps(100), std::invalid_argument);
  BOOST_TEST(*parse_nt_rule("per-n:1e5").steps(100) == 10000000);
  // The time grid's own bound (kMaxTimeSteps): a rule beyond it would be refused at every case.
  BOOST_CHECK_THROW(parse_nt_rule("per-n:1e7").steps(100), std::invalid_argument);
  BOOST_CHECK_THROW(parse_nt_rule("fixed:10000001"), std::invalid_argument);
  BOOST_TEST(*parse_nt_rule("per-n:0.005").steps(100) == 1);
}

BOOST_AUTO_TEST_CASE(device_specs) {
  BOOST_TEST(parse_sweep_device("cpu:t3").threads == 3);
  BOOST_TEST(parse_sweep_device("cpu:t3").spec() == "cpu:t3");
  BOOST_TEST(parse_sweep_device("cpu").threads == omp_get_num_procs());
  const Device gpu = parse_sweep_device("cuda:1");
  BOOST_TEST((gpu.kind == Device::Kind::Cuda));
  BOOST_TEST(gpu.index == 1);
  BOOST_TEST(gpu.spec() == "cuda:1");
  for (const char* bad : {"auto", "cpu:t0", "cpu:2", "gpu", "cuda:x", "cuda:", "cpu:t-1", "cpu:t4097"})
    BOOST_CHECK_THROW(parse_sweep_device(bad), std::invalid_argument);
}

// The one device parser serves price, validate, reference and sweeps alike.
BOOST_AUTO_TEST_CASE(one_device_parser) {
  BOOST_TEST(parse_device("auto").is_auto);
  BOOST_TEST(parse_device("cpu").threads == 0);  // every core, resolved when it runs
  BOOST_TEST(resolved_threads(parse_device("cpu")) == omp_get_num_procs());
  BOOST_TEST(parse_device("cuda").index == 0);
  BOOST_TEST(parse_device("cuda:12").index == 12);
  BOOST_TEST(parse_device("cuda:12").str() == "cuda:12");
  for (const char* bad : {"", "gpu", "cuda:x", "cuda:1x", "cpu:t0", "CPU"})
    BOOST_CHECK_THROW(parse_device(bad), std::invalid_argument);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(plan)

BOOST_AUTO_TEST_CASE(axes_expand_to_their_product_in_a_fixed_order) {
  const SweepPlan plan = plan_sweep(spec_of({{"axes",
                                              {{"solvers", {"explicit"}},
                                               {"products", {"european-call", "min-call"}},
                                               {"n", {12, 16}},
                                               {"nt_rules", {"auto", "fixed:40"}},
                                               {"devices", {"cpu:t1"}},
                                               {"precisions", {"fp64"}}}}}));
  const std::vector<std::string> expected = {
      "european-call/explicit/n=12/nt=auto/cpu/t1/fp64", "european-call/explicit/n=12/nt=40/cpu/t1/fp64",
      "european-call/explicit/n=16/nt=auto/cpu/t1/fp64", "european-call/explicit/n=16/nt=40/cpu/t1/fp64",
      "min-call/explicit/n=12/nt=auto/cpu/t1/fp64",      "min-call/explicit/n=12/nt=40/cpu/t1/fp64",
      "min-call/explicit/n=16/nt=auto/cpu/t1/fp64",      "min-call/explicit/n=16/nt=40/cpu/t1/fp64"};
  BOOST_TEST(ids(plan) == expected, boost::test_tools::per_element());
  BOOST_TEST(plan.products.size() == 2u);
  BOOST_TEST(plan.products.at("min-call").dimension() == 2);
}

BOOST_AUTO_TEST_CASE(groups_are_a_union_without_duplicates) {
  // The second group repeats n = 12 and adds n = 20 for one product; per-n:1 at n = 12 is the
  // same case as fixed:12 and is run once.
  const SweepPlan plan = plan_sweep(spec_of({{"axes",
                                              {{"solvers", {"explicit"}},
                                               {"products", {"european-call"}},
                                               {"n", {12}},
                                               {"nt_rules", {"fixed:12"}},
                                               {"devices", {"cpu:t1"}}}},
                                             {"groups", {json::object(), {{"n", {12, 20}}, {"nt_rules", {"per-n:1"}}}}}}));
  const std::vector<std::string> expected = {"european-call/explicit/n=12/nt=12/cpu/t1/fp64",
                                             "european-call/explicit/n=20/nt=20/cpu/t1/fp64"};
  BOOST_TEST(ids(plan) == expected, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(schemes_cross_only_the_solvers_that_have_them) {
  const SolverInfo* adi = SolverRegistry::instance().find("adi");
  if (!adi || adi->schemes.size() < 2) return;  // needs a solver with a scheme choice
  const std::string a = adi->schemes[0], b = adi->schemes[1];
  const SweepPlan plan = plan_sweep(spec_of({{"axes",
                                              {{"solvers", {"adi", "explicit", "adi:" + a}},
                                               {"schemes", {b, a}},
                                               {"products", {"european-call"}},
                                               {"n", {12}},
                                               {"devices", {"cpu:t1"}}}}}));
  const std::vector<std::string> expected = {"european-call/adi:" + b + "/n=12/nt=auto/cpu/t1/fp64",
                                             "european-call/adi:" + a + "/n=12/nt=auto/cpu/t1/fp64",
                                             "european-call/explicit/n=12/nt=auto/cpu/t1/fp64"};
  BOOST_TEST(ids(plan) == expected, boost::test_tools::per_element());

  const SweepPlan all = plan_sweep(spec_of({{"axes",
                                             {{"solvers", {"adi"}},
                                              {"schemes", {"all"}},
                                              {"products", {"european-call"}},
                                              {"n", {12}}}}}));
  BOOST_TEST(all.cases.size() == adi->schemes.size());
}

BOOST_AUTO_TEST_CASE(the_book_axis_adds_a_case_per_size_and_a_single_note_keeps_its_id) {
  const SweepPlan plan = plan_sweep(spec_of({{"axes",
                                              {{"solvers", {"explicit"}},
                                               {"products", {"european-call"}},
                                               {"n", {12, 16}},
                                               {"devices", {"cpu:t1"}},
                                               {"book", {1, 16, 256}}}}}));
  const std::vector<std::string> expected = {
      "european-call/explicit/n=12/nt=auto/cpu/t1/fp64", "european-call/explicit/n=12/nt=auto/cpu/t1/fp64/book=16",
      "european-call/explicit/n=12/nt=auto/cpu/t1/fp64/book=256", "european-call/explicit/n=16/nt=auto/cpu/t1/fp64",
      "european-call/explicit/n=16/nt=auto/cpu/t1/fp64/book=16", "european-call/explicit/n=16/nt=auto/cpu/t1/fp64/book=256"};
  BOOST_TEST(ids(plan) == expected, boost::test_tools::per_element());
  BOOST_TEST(plan.cases[2].book == 256);
  // Without the axis every case is a single note: the ids of older results files still match.
  const SweepPlan single = plan_sweep(spec_of(
      {{"axes", {{"solvers", {"explicit"}}, {"products", {"european-call"}}, {"n", {12}}, {"devices", {"cpu:t1"}}}}}));
  BOOST_TEST_REQUIRE(single.cases.size() == 1u);
  BOOST_TEST(single.cases[0].book == 1);
  BOOST_TEST(single.cases[0].id() == expected[0]);
}

BOOST_AUTO_TEST_CASE(the_book_axis_is_overridden_and_kept_through_a_results_file) {
  SweepSpec s = spec_of({{"axes", {{"solvers", {"explicit"}}, {"products", {"european-call"}}, {"n", {12}}, {"book", {4}}}}});
  SweepOverrides o;
  o.axes.set("book", {2, 8});
  apply_overrides(s, o);
  BOOST_TEST(s.groups[0].of("book") == json({2, 8}));
  const SweepSpec back = sweep_spec_from_json(to_json(s), "copy");
  BOOST_TEST(ids(plan_sweep(back)) == ids(plan_sweep(s)), boost::test_tools::per_element());
  BOOST_TEST(plan_sweep(back).cases.size() == 2u);
}

BOOST_AUTO_TEST_CASE(a_scheme_the_solver_lacks_is_a_planned_skip) {
  const SweepPlan plan = plan_sweep(spec_of(
      {{"axes", {{"solvers", {"explicit:crank-nicolson"}}, {"products", {"european-call"}}, {"n", {12}}}}}));
  BOOST_TEST_REQUIRE(plan.cases.size() == 1u);
  BOOST_TEST(plan.cases[0].skip_reason.rfind("unsupported:", 0) == 0u);
}

BOOST_AUTO_TEST_CASE(unknown_names_are_errors_before_any_case_runs) {
  const auto with = [](json axes) {
    json base = {{"solvers", {"explicit"}}, {"products", {"european-call"}}, {"n", {12}}};
    base.update(axes);
    return spec_of({{"axes", base}});
  };
  BOOST_CHECK_EXCEPTION(plan_sweep(with({{"solvers", {"no-such-solver"}}})), std::invalid_argument,
                        [](const std::invalid_argument& e) {
                          return std::string(e.what()).find("no-such-solver") != std::string::npos &&
                                 std::string(e.what()).find("explicit") != std::string::npos;
                        });
  BOOST_CHECK_THROW(plan_sweep(with({{"schemes", {"no-such-scheme"}}})), std::invalid_argument);
  BOOST_CHECK_THROW(plan_sweep(with({{"products", {"no-such-product"}}})), InputError);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(spec)

BOOST_AUTO_TEST_CASE(bad_presets_name_the_field) {
  const auto field_of = [](const json& j) {
    try {
      sweep_spec_from_json(j, "p.json");
    } catch (const InputError& e) {
      return e.field();
    }
    return std::string("(accepted)");
  };
  const json axes = {{"solvers", {"explicit"}}, {"products", {"european-call"}}, {"n", {12}}};
  BOOST_TEST(field_of({{"axes", axes}, {"repetitions", 1}}) == "repetitions");
  BOOST_TEST(field_of({{"axes", axes}, {"timing", {{"target", 2}}}}) == "timing.target");
  BOOST_TEST(field_of({{"axes", axes}, {"timing", {{"targt", 0.1}}}}) == "timing.targt");
  BOOST_TEST(field_of({{"axes", axes}, {"timing", {{"max_repetitions", 2.5}}}}) == "timing.max_repetitions");
  BOOST_TEST(field_of({{"axes", axes}, {"timing", {{"target", 0.02}, {"max_seconds", 3}}}}) == "(accepted)");
  BOOST_TEST(field_of({{"axes", axes}, {"colour", "red"}}) == "colour");
  BOOST_TEST(field_of({{"axes", {{"solvers", {"explicit"}}, {"n", {12}}}}}) == "axes.products");
  BOOST_TEST(field_of({{"axes", axes}, {"groups", {{{"nt_rules", {"sometimes"}}}}}}) == "groups[0].nt_rules");
  BOOST_TEST(field_of({{"axes", axes}, {"groups", {{{"devices", {"tpu"}}}}}}) == "groups[0].devices");
  BOOST_TEST(field_of({{"axes", axes}, {"tolerance", {{"overrides", {{{"product", "x"}}}}}}}) ==
             "tolerance.overrides[0]");
  json bad_book = axes;
  for (const json& b : {json{0}, json{"16"}, json(16), json{1.5}, json{100001}}) {
    bad_book["book"] = b;
    BOOST_TEST(field_of({{"axes", bad_book}}) == "axes.book");
  }
  BOOST_TEST(field_of({{"axes", axes}}) == "(accepted)");
}

BOOST_AUTO_TEST_CASE(the_spec_survives_a_round_trip_through_a_results_file) {
  SweepSpec s = spec_of({{"name", "mine"},
                         {"repetitions", 4},
                         {"tolerance", {{"c", 0.02}, {"overrides", {{{"product", "min-call"}, {"tol", 0.5}}}}}},
                         {"axes", {{"solvers", {"explicit"}}, {"products", {"european-call"}}, {"n", {12, 16}}}},
                         {"groups", {json::object(), {{"n", {20}}, {"devices", {"cpu:t1"}}}}}});
  const SweepSpec back = sweep_spec_from_json(to_json(s), "copy");
  BOOST_TEST(to_json(back) == to_json(s));
  BOOST_TEST(ids(plan_sweep(back)) == ids(plan_sweep(s)), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(overrides_replace_an_axis_in_every_group) {
  SweepSpec s = spec_of({{"axes", {{"solvers", {"explicit"}}, {"products", {"european-call"}}, {"n", {12}}}},
                         {"groups", {json::object(), {{"products", {"min-call"}}}}}});
  SweepOverrides o;
  o.axes.set("n", {14, 18});
  o.repetitions = 5;
  apply_overrides(s, o);
  BOOST_TEST(s.repetitions == 5);
  for (const auto& g : s.groups) BOOST_TEST(g.of("n") == json({14, 18}));
  BOOST_TEST(plan_sweep(s).cases.size() == 4u);
  o.repetitions = 1;
  BOOST_CHECK_THROW(apply_overrides(s, o), InputError);
  // The timing flags are held to the preset's timing bounds, naming the flag.
  SweepOverrides timing;
  timing.timing_target = 1.5;
  BOOST_CHECK_EXCEPTION(apply_overrides(s, timing), InputError,
                        [](const InputError& e) { return e.field() == "--timing-target"; });
  timing.timing_target = 0.02;
  timing.timing_max_seconds = -1;
  BOOST_CHECK_EXCEPTION(apply_overrides(s, timing), InputError,
                        [](const InputError& e) { return e.field() == "--timing-max-seconds"; });
  timing.timing_max_seconds = 3;
  apply_overrides(s, timing);
  BOOST_TEST(s.timing.target == 0.02);
  BOOST_TEST(s.timing.max_seconds == 3.0);
}

BOOST_AUTO_TEST_CASE(solvers_from_the_command_line_drop_a_group_device_none_of_them_runs_on) {
  SweepSpec s = load_preset("book");
  SweepOverrides o;
  o.axes.set("solvers", {"adi"});
  apply_overrides(s, o);
  const SweepPlan plan = plan_sweep(s);
  BOOST_TEST(!plan.cases.empty());
  for (const auto& c : plan.cases) BOOST_TEST(c.device.is_cpu(), c.id());
  // The same preset's groups, once alike, are one group.
  BOOST_TEST(s.groups.size() == 1u);
  // Both named: the user's pairing stands (a case the solver cannot take is a recorded skip).
  SweepSpec both = load_preset("book");
  o.axes.set("devices", {"cuda:0"});
  apply_overrides(both, o);
  BOOST_TEST(both.groups.size() == 1u);
  BOOST_TEST(both.groups[0].of("devices") == json({"cuda:0"}));
  // Devices alone that no solver of any group runs on: refused, naming the flag.
  SweepSpec quick = load_preset("quick");
  SweepOverrides gpu;
  gpu.axes.set("devices", {"cuda:0"});
  try {
    apply_overrides(quick, gpu);
    BOOST_ERROR("planned CPU solvers on cuda:0");
  } catch (const InputError& e) {
    BOOST_TEST(e.field() == "--devices");
  }
}

BOOST_AUTO_TEST_CASE(a_preset_file_loads_by_path) {
  const SweepSpec s = load_preset(project_root() + "/tests/data/sweep/tiny.json");
  BOOST_TEST(s.preset == "tiny");
  BOOST_TEST(!plan_sweep(s).cases.empty());
  BOOST_CHECK_THROW(load_preset("no-such-preset"), InputError);
}

// A shipped preset's name is the preset even from the project root, where `ci` is also a folder
// (the bounded reader had refused it there as "not a regular file").
BOOST_AUTO_TEST_CASE(a_preset_name_beats_a_folder_of_that_name) {
  const std::filesystem::path before = std::filesystem::current_path();
  std::filesystem::current_path(project_root());
  BOOST_TEST(std::filesystem::is_directory("ci"));
  SweepSpec s;
  BOOST_CHECK_NO_THROW(s = load_preset("ci"));
  BOOST_TEST(s.preset == "ci");
  std::filesystem::current_path(before);
}

// Every shipped preset parses; those without GPU solvers also plan on any build, and the GPU
// ones plan wherever the CUDA variants are built.
BOOST_AUTO_TEST_CASE(shipped_presets_are_valid) {
  for (const char* name : {"quick", "ci", "cloud", "full", "book", "book-large"}) {
    BOOST_TEST_CONTEXT("preset " << name) {
      SweepSpec s;
      BOOST_REQUIRE_NO_THROW(s = load_preset(name));
      BOOST_TEST(s.preset == name);
      bool needs_cuda = false;
      for (const auto& g : s.groups)
        for (const auto& solver : g.strings("solvers"))
          needs_cuda = needs_cuda || !SolverRegistry::instance().find(solver.substr(0, solver.find(':')));
      if (!needs_cuda || cuda_built()) BOOST_CHECK_NO_THROW(plan_sweep(s));
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(tolerance)

BOOST_AUTO_TEST_CASE(the_default_rule_shrinks_with_n_and_scales_with_the_price) {
  const ToleranceRule r;
  const double t50 = r.tol("p", "s", std::nullopt, "fp64", 50, 100.0, 100.0);
  BOOST_TEST(r.tol("p", "s", std::nullopt, "fp64", 100, 100.0, 100.0) == t50 / 4, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(r.tol("p", "s", std::nullopt, "fp64", 50, 10.0, 100.0) == t50 / 10, boost::test_tools::tolerance(1e-12));
  // A price near zero takes the floor (a fraction of the notional), not a zero allowance.
  BOOST_TEST(r.tol("p", "s", std::nullopt, "fp64", 50, 1e-9, 100.0) == r.tol("p", "s", std::nullopt, "fp64", 50, r.floor_fraction * 100, 100.0));
  BOOST_TEST(r.tol("p", "s", std::nullopt, "fp32", 50, 100.0, 100.0) > t50);
}

BOOST_AUTO_TEST_CASE(the_first_matching_override_wins) {
  const ToleranceRule r = tolerance_rule_from_json(
      {{"c", 0.01},
       {"overrides", {{{"product", "a"}, {"n", 50}, {"tol", 0.3}}, {{"product", "a"}, {"c", 0.04}}, {{"tol", 9.0}}}}},
      "test");
  BOOST_TEST(r.tol("a", "s", std::nullopt, "fp64", 50, 100.0, 100.0) == 0.3);
  BOOST_TEST(r.tol("a", "s", std::nullopt, "fp64", 100, 100.0, 100.0) == 0.04 * 100.0, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(r.tol("b", "s", std::nullopt, "fp64", 100, 100.0, 100.0) == 9.0);
}

// A variant's own coefficient (explicit Euler declares 3e-3) replaces the rule's c, and a
// preset's matching override still wins over it.
BOOST_AUTO_TEST_CASE(a_variant_coefficient_replaces_the_default_but_not_an_override) {
  const ToleranceRule r = tolerance_rule_from_json({{"c", 0.001}, {"overrides", {{{"product", "a"}, {"c", 0.04}}}}}, "test");
  BOOST_TEST(r.tol("b", "explicit", 3e-3, "fp64", 100, 100.0, 100.0) == 3e-3 * 100.0, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(r.tol("b", "adi", std::nullopt, "fp64", 100, 100.0, 100.0) == 1e-3 * 100.0, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(r.tol("a", "explicit", 3e-3, "fp64", 100, 100.0, 100.0) == 0.04 * 100.0, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(SolverRegistry::instance().get("explicit").tolerance_c.value() == 3e-3);
  BOOST_TEST(!SolverRegistry::instance().get("adi").tolerance_c.has_value());
}

BOOST_AUTO_TEST_SUITE_END()
