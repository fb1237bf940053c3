// Sweep axes as objects: every declared axis is complete, the planner takes their product in
// their order, and the knock-in damping axis (the worked example of docs/adding-an-axis.md)
// reaches the case: its id, its solver options and its price.
#include <boost/test/unit_test.hpp>
#include <set>

#include "harness/sweep/axis.hpp"
#include "harness/sweep/plan.hpp"
#include "platform/input_error.hpp"
#include "products/catalog.hpp"
#include "solvers/contract/solver.hpp"

using namespace elsbench;
using nlohmann::json;

namespace {

SweepPlan plan_of(const json& axes) { return plan_sweep(sweep_spec_from_json({{"axes", axes}}, "test")); }

const json kSmall = {{"solvers", {"adi"}}, {"products", {"sample-2a-stepdown"}}, {"n", {24}}, {"devices", {"cpu:t1"}}};

}  // namespace

BOOST_AUTO_TEST_CASE(every_declared_axis_is_complete_and_ordered) {
  std::set<std::string> keys, flags;
  int last = -1;
  for (const SweepAxis& a : sweep_axes()) {
    BOOST_TEST_CONTEXT(a.key) {
      BOOST_TEST(keys.insert(a.key).second);
      BOOST_TEST(flags.insert(a.flag).second);
      BOOST_TEST(a.flag.rfind("--", 0) == 0u);
      BOOST_TEST(!a.help.empty());
      BOOST_TEST(static_cast<bool>(a.enter));
      BOOST_TEST(a.order > last);
      BOOST_TEST((a.defaults.is_null() || a.defaults.is_array()));
      if (a.type == SweepAxis::Type::Whole) BOOST_TEST(a.min <= a.max);
      last = a.order;
    }
  }
  for (const char* key : {"products", "solvers", "schemes", "n", "nt_rules", "devices", "precisions", "book",
                          "ki_damping"})
    BOOST_TEST(keys.count(key) == 1u, key);
}

BOOST_AUTO_TEST_CASE(a_value_is_checked_by_its_axis) {
  const SweepAxis& n = *find_sweep_axis("n");
  BOOST_TEST(axis_value_from_text(n, "48") == json(48));
  for (const char* bad : {"3", "100001", "4x", "", "1e3"}) BOOST_CHECK_THROW(axis_value_from_text(n, bad), std::invalid_argument);
  BOOST_CHECK_THROW(axis_value(n, json("48")), std::invalid_argument);
  const SweepAxis& devices = *find_sweep_axis("devices");
  BOOST_CHECK_THROW(axis_value_from_text(devices, "tpu"), std::invalid_argument);
  BOOST_CHECK_THROW(axis_value_from_text(devices, "auto"), std::invalid_argument);
  BOOST_CHECK_THROW(axis_value_from_text(*find_sweep_axis("ki_damping"), "9"), std::invalid_argument);
  // A preset's unknown axis names the field and lists the declared ones.
  try {
    plan_of({{"solvers", {"adi"}}, {"products", {"min-call"}}, {"n", {24}}, {"colour", {"red"}}});
    BOOST_ERROR("accepted an unknown axis");
  } catch (const InputError& e) {
    BOOST_TEST(e.field() == "axes.colour");
    BOOST_TEST(std::string(e.what()).find("ki_damping") != std::string::npos);
  }
}

BOOST_AUTO_TEST_CASE(the_ki_damping_axis_reaches_the_case_id_options_and_price) {
  json axes = kSmall;
  axes["ki_damping"] = {0, 2};
  const SweepPlan plan = plan_of(axes);
  BOOST_TEST_REQUIRE(plan.cases.size() == 2u);
  BOOST_TEST(plan.cases[0].id() == "sample-2a-stepdown/adi:hundsdorfer-verwer/n=24/nt=auto/cpu/t1/fp64/ki_damping=0");
  GridOptions sweep_grid;
  sweep_grid.knock_in_damping = 3;  // the preset's own setting, overridden by the axis
  const SolverOptions off = plan.cases[0].options(sweep_grid), on = plan.cases[1].options(sweep_grid);
  BOOST_TEST(off.grid.knock_in_damping == 0);
  BOOST_TEST(on.grid.knock_in_damping == 2);
  const SolverInfo& adi = SolverRegistry::instance().get("adi");
  const Product& note = plan.products.at("sample-2a-stepdown");
  BOOST_TEST(price_with(adi, note, off).price != price_with(adi, note, on).price);
  // Left empty, the axis changes nothing: the case keeps the id and the grid of its sweep.
  const SweepPlan plain = plan_of(kSmall);
  BOOST_TEST_REQUIRE(plain.cases.size() == 1u);
  BOOST_TEST(plain.cases[0].id() == "sample-2a-stepdown/adi:hundsdorfer-verwer/n=24/nt=auto/cpu/t1/fp64");
  BOOST_TEST(plain.cases[0].options(sweep_grid).grid.knock_in_damping == 3);
}
