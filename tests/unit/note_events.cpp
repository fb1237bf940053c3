// A note as its terms plus its list of events (products/note_events.hpp): the schedule both the
// grids and the Monte Carlo paths read, checked against the terms it comes from.
#include <boost/test/unit_test.hpp>

#include "products/catalog.hpp"
#include "products/note_events.hpp"
#include "reference/path_plan.hpp"

using namespace elsbench;

namespace {

std::vector<NoteEvent> of_kind(const std::vector<NoteEvent>& all, EventKind kind) {
  std::vector<NoteEvent> out;
  for (const NoteEvent& e : all)
    if (e.kind == kind) out.push_back(e);
  return out;
}

// The steps of a path plan's events of `kind`.
std::vector<int> path_events(const PathPlan& plan, EventKind kind) {
  std::vector<int> steps;
  for (int s = 0; s < plan.steps; ++s)
    for (const PathEvent& e : plan.events_at(s))
      if (e.kind == kind) steps.push_back(s);
  return steps;
}

}  // namespace

BOOST_AUTO_TEST_CASE(a_step_down_note_redeems_on_its_dates_and_observes_its_knock_in_daily) {
  const Product p = resolve_product("sample-2a-stepdown");
  const std::vector<NoteEvent> events = note_events(p);
  const auto autocalls = of_kind(events, EventKind::Autocall), knock_ins = of_kind(events, EventKind::KnockIn);
  BOOST_TEST_REQUIRE(autocalls.size() == p.els().autocall.size());
  for (std::size_t k = 0; k < autocalls.size(); ++k) {
    BOOST_TEST(autocalls[k].time == p.els().autocall[k].time);
    BOOST_TEST(autocalls[k].barrier == p.els().autocall[k].barrier);
    BOOST_TEST(autocalls[k].amount == p.notional * (1 + p.els().autocall[k].coupon), boost::test_tools::tolerance(1e-12));
    BOOST_TEST(autocalls[k].in_payoff == (k + 1 == autocalls.size()));  // maturity is the payoff's
  }
  BOOST_TEST_REQUIRE(knock_ins.size() == p.monitoring_dates().size());
  BOOST_TEST(knock_ins.back().time == p.maturity());
  BOOST_TEST(knock_ins.back().in_payoff);
  BOOST_TEST(!knock_ins.front().in_payoff);
  BOOST_TEST(of_kind(events, EventKind::Coupon).empty());
  BOOST_TEST(of_kind(events, EventKind::LizardRedeem).empty());

  Product knocked = p;
  knocked.els().knocked_in = true;  // nothing left to observe
  BOOST_TEST(of_kind(note_events(knocked), EventKind::KnockIn).empty());
  BOOST_TEST(note_events(resolve_product("european-call")).empty());
}

BOOST_AUTO_TEST_CASE(coupons_and_a_lizard_are_events_of_the_list_the_paths_stop_at) {
  const Product monthly = resolve_product("monthly-coupon-2a");
  const auto coupons = of_kind(note_events(monthly), EventKind::Coupon);
  BOOST_TEST_REQUIRE(coupons.size() == monthly.coupon_dates().size());
  BOOST_TEST(coupons.size() == 36u);  // twelve a year for three years, the last on maturity
  BOOST_TEST(coupons.back().in_payoff);
  for (const NoteEvent& e : coupons) {
    BOOST_TEST(e.barrier == monthly.els().coupons.barrier);
    BOOST_TEST(e.amount == monthly.notional * monthly.els().coupons.coupon, boost::test_tools::tolerance(1e-12));
  }
  const PathPlan plan = make_path_plan(monthly);
  BOOST_TEST(path_events(plan, EventKind::Coupon).size() == 36u);

  const Product lizard = resolve_product("lizard-2a");
  const std::vector<NoteEvent> events = note_events(lizard);
  const auto redeem = of_kind(events, EventKind::LizardRedeem), breaks = of_kind(events, EventKind::LizardBreak);
  const double when = lizard.els().autocall[static_cast<std::size_t>(lizard.els().lizard.autocall)].time;
  BOOST_TEST_REQUIRE(redeem.size() == 1u);
  BOOST_TEST(redeem.front().time == when);
  BOOST_TEST(redeem.front().amount == lizard.notional * (1 + lizard.els().lizard.coupon), boost::test_tools::tolerance(1e-12));
  BOOST_TEST(breaks.size() == 252u);  // the knock-in monitoring days up to its date (the second: a year), 252 a year
  for (const NoteEvent& e : breaks) {
    BOOST_TEST(e.below);
    BOOST_TEST(e.barrier == lizard.els().lizard.barrier);
    BOOST_TEST(e.time <= when + 1e-9);
  }
  const PathPlan lizard_plan = make_path_plan(lizard);
  const std::vector<int> redeem_step = path_events(lizard_plan, EventKind::LizardRedeem);
  BOOST_TEST_REQUIRE(redeem_step.size() == 1u);
  BOOST_TEST(lizard_plan.time[static_cast<std::size_t>(redeem_step.front())] == when);
  BOOST_TEST(path_events(lizard_plan, EventKind::LizardBreak).size() == 252u);
  // On its date a path is observed, meets the autocall, then the lizard's redemption.
  std::vector<EventKind> on_date;
  for (const PathEvent& e : lizard_plan.events_at(redeem_step.front())) on_date.push_back(e.kind);
  BOOST_TEST((on_date == std::vector{EventKind::KnockIn, EventKind::LizardBreak, EventKind::Autocall, EventKind::LizardRedeem}));
}
