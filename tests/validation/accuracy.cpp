// Prices to an accuracy (solvers/contract/accuracy.hpp, --target-error, the default grid): the
// error target's reading, Richardson's value as the arithmetic of two plain pricings, and the
// error bar against closed forms and stored Monte Carlo references: |actual| <= bar (+ 3 stderr),
// and the bar at most 3x the actual where the actual is above 0.1 bp of the product's size.
#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <string>

#include "harness/placement/book_price.hpp"
#include "harness/run/price_run.hpp"
#include "platform/device.hpp"
#include "platform/input_error.hpp"
#include "platform/solver_error.hpp"
#include "products/book_generator.hpp"
#include "products/catalog.hpp"
#include "products/price_bounds.hpp"
#include "products/product_json.hpp"
#include "reference/closed_form.hpp"
#include "reference/stored_reference.hpp"
#include "solvers/contract/accuracy.hpp"
#include "solvers/contract/error_estimate.hpp"
#include "solvers/contract/solver.hpp"
#include "solvers/problem/problem_builder.hpp"

using namespace elsbench;

namespace {

const SolverInfo& adi() { return SolverRegistry::instance().get("adi"); }

SolverOptions at_nodes(int n) {
  SolverOptions o;
  o.grid.n = n;
  o.device.threads = 2;
  return o;
}

// |actual| <= bar + 3 stderr; where the actual is above 0.1 bp of the size, bar <= 3 |actual|,
// unless the levels were erratic and the bar was widened for it (said in the output).
void check_bracket(const std::string& what, double actual, double bar, double stderr_, double size,
                   bool erratic = false) {
  BOOST_TEST_MESSAGE(what << ": actual " << actual << ", bar " << bar << " (" << bar / std::abs(actual)
                          << "x), reference stderr " << stderr_);
  BOOST_TEST(std::abs(actual) <= bar + 3 * stderr_, what << ": |" << actual << "| > " << bar << " + 3 x " << stderr_);
  if (!erratic && std::abs(actual) > 1e-5 * size + 3 * stderr_)
    BOOST_TEST(bar <= 3 * std::abs(actual), what << ": bar " << bar << " > 3 x |" << actual << "|");
}

// The pricing of `role` among a bar's levels, or none.
const GridPricing* pricing_of(const Accuracy& acc, const std::string& role) {
  const auto it = std::find_if(acc.pricings.begin(), acc.pricings.end(),
                               [&](const GridPricing& g) { return g.role == role; });
  return it == acc.pricings.end() ? nullptr : &*it;
}

const char* const kClosedForms[] = {"european-call", "european-put", "min-call", "max-call",
                                    "min-put",       "max-put",      "exchange", "cash-or-nothing-2"};

}  // namespace

BOOST_AUTO_TEST_CASE(an_error_target_is_an_amount_or_basis_points_of_the_notional) {
  const Product sample = resolve_product("sample-2a-stepdown");
  BOOST_TEST(parse_error_target("0.5bp").in_price_units(sample) == 0.005, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(parse_error_target("0.01").in_price_units(sample) == 0.01);
  // An option's basis points are of its size: the call's strike and spot, 100.
  BOOST_TEST(parse_error_target("2bp").in_price_units(resolve_product("european-call")) == 0.02,
             boost::test_tools::tolerance(1e-12));
  for (const char* bad : {"", "bp", "-1", "0", "abc", "1e400", "0.5 bp", "nan", "0.5bpx", "1,5"})
    BOOST_CHECK_THROW(parse_error_target(bad), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(a_target_with_a_grid_or_an_estimate_is_bad_input) {
  const Product call = resolve_product("european-call");
  const AccuracyFields names{"--target-error", "--n and --nt", "--error-estimate"};
  PriceRequest r;
  BOOST_CHECK_THROW(choose_grid(r, call, true, "0.5bp", "(command line)", names), InputError);
  r.error_estimate = true;
  BOOST_CHECK_THROW(choose_grid(r, call, false, "0.5bp", "(command line)", names), InputError);
  PriceRequest plain;
  BOOST_CHECK_THROW(choose_grid(plain, call, false, "half a bp", "(command line)", names), InputError);
  // No grid and no target: Richardson's value on the default grid; a grid given: as asked.
  PriceRequest by_default;
  choose_grid(by_default, resolve_product("sample-2a-stepdown"), false, "", "(command line)", names);
  BOOST_TEST(by_default.extrapolate);
  BOOST_TEST(by_default.options.grid.n == default_nodes(2));
  PriceRequest given;
  choose_grid(given, call, true, "", "(command line)", names);
  BOOST_TEST(!given.extrapolate);
  BOOST_TEST(!given.target.has_value());
}

BOOST_AUTO_TEST_CASE(richardsons_value_is_the_arithmetic_of_n_and_n_over_2_on_the_same_time_grid) {
  const Product sample = resolve_product("sample-2a-stepdown");
  const PriceResult r = price_extrapolated(adi(), sample, at_nodes(64));
  SolverOptions fine = at_nodes(64), coarse = at_nodes(32);
  const PriceResult f = price_with(adi(), sample, fine);
  coarse.grid.nt = static_cast<int>(f.nt);
  const PriceResult c = price_with(adi(), sample, coarse);
  // The daily knock-in's damping sub-steps are laid on every grid alike: the same steps.
  BOOST_TEST(c.time_steps == f.time_steps);
  // Its weight the order its levels show at the default's nodes (daily knock-in: 1 / 3.3), not 1/3.
  BOOST_TEST(r.price == f.price + (f.price - c.price) / 3.3, boost::test_tools::tolerance(1e-13));
  Product knocked_in = sample;
  knocked_in.els().knocked_in = true;
  BOOST_TEST(richardson_weight(knocked_in) == 1.0 / 3.0);
  BOOST_TEST(richardson_weight(resolve_product("els-3a-stepdown")) == 1.0 / 3.0);
  BOOST_TEST(r.accuracy->fine == f.price);
  BOOST_TEST(r.accuracy->coarse == c.price);
  BOOST_TEST(r.accuracy->cost == 1.25, boost::test_tools::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(the_default_grids_error_bar_brackets_the_closed_forms) {
  for (const char* id : kClosedForms) {
    const Product p = resolve_product(id);
    const PriceResult r = price_with_bound(adi(), p, at_nodes(default_nodes(p.dimension())));
    check_bracket(std::string(id) + " default", r.price - closed_form_price(p).value(), *r.accuracy->bound, 0,
                  price_bounds(p).scale, r.accuracy->erratic);
  }
}

BOOST_AUTO_TEST_CASE(the_plain_estimates_bound_brackets_the_closed_forms_at_n_100_and_200) {
  for (const char* id : kClosedForms)
    for (int n : {100, 200}) {
      const Product p = resolve_product(id);
      const SolverOptions o = at_nodes(n);
      PriceResult r = price_with(adi(), p, o);
      add_error_estimate(adi(), p, o, r);
      check_bracket(std::string(id) + " n=" + std::to_string(n), r.price - closed_form_price(p).value(),
                    r.error_estimate->bound, 0, price_bounds(p).scale, r.error_estimate->erratic);
    }
}

BOOST_AUTO_TEST_CASE(the_default_grids_error_bar_brackets_the_stored_references_of_the_els) {
  for (const char* id : {"els-1a-stepdown", "sample-2a-stepdown"}) {
    const Product p = resolve_product(id);
    const auto ref = load_stored_reference(p.id);
    BOOST_REQUIRE(ref.has_value());
    const PriceResult r = price_with_bound(adi(), p, at_nodes(default_nodes(p.dimension())));
    check_bracket(std::string(id) + " default", r.price - ref->price, *r.accuracy->bound, ref->std_error, p.notional);
  }
}

// A stored generated note (reference/generated_notes/), knocked in unless said.
Product stored_note(const std::string& id) {
  return load_product_file(project_root() + "/reference/generated_notes/" + id + ".json");
}

BOOST_AUTO_TEST_CASE(a_note_whose_steps_span_days_takes_twice_the_nodes_by_default) {
  const Product knocked_in = stored_note("book-s12-00006");
  BOOST_TEST_REQUIRE(!knocked_in.knocks_in_daily());
  BOOST_TEST(default_nodes(knocked_in) == 2 * default_nodes(2));
  BOOST_TEST(default_nodes(resolve_product("sample-2a-stepdown")) == default_nodes(2));  // a daily knock-in
  BOOST_TEST(default_nodes(stored_note("book-s11-00005")) == default_nodes(1));
  BOOST_TEST(default_nodes(stored_note("book-s13-00006")) == 2 * default_nodes(3));
  BOOST_TEST(default_nodes(resolve_product("min-call")) == default_nodes(2));
  // The default's price of the knocked-in note within its bar of its stored Monte Carlo price.
  PriceRequest request;
  choose_grid(request, knocked_in, false, "", "(command line)", {"--target-error", "--n and --nt", "--error-estimate"});
  BOOST_TEST(request.options.grid.n == 2 * default_nodes(2));
  request.options.device.threads = 2;
  const PriceResult r = price_with_bound(adi(), knocked_in, request.options);
  const auto ref = load_stored_reference(knocked_in.id);
  BOOST_REQUIRE(ref.has_value());
  BOOST_TEST(r.accuracy->n == 288);
  BOOST_TEST(std::abs(r.price - ref->price) <= *r.accuracy->bound + 3 * ref->std_error);
}

BOOST_AUTO_TEST_CASE(an_els_whose_domain_reaches_far_above_its_barriers_prices_no_truncation) {
  const Product sample = resolve_product("sample-2a-stepdown");
  GridOptions grid;
  grid.n = default_nodes(2);
  BOOST_TEST(truncation_negligible(sample, grid));
  BOOST_TEST(!truncation_negligible(resolve_product("european-put"), grid));
  // An autocall barrier at 3.5 of the reference, just under the sample's 4x domain.
  Product high = sample;
  high.els().autocall.back().barrier = 3.5;
  BOOST_TEST(!truncation_negligible(high, grid));
  // What the rule skips, priced: the sample's domain twice as wide moves its n = 36 price by nothing
  // an error bar could see.
  SolverOptions o = at_nodes(36);
  const PriceResult base = price_with(adi(), sample, o);
  o.grid.nt = static_cast<int>(base.nt);
  BOOST_TEST(std::abs(truncation_estimate(adi(), sample, o, base)) <= 1e-8 * sample.notional);
  const PriceResult r = price_with_bound(adi(), sample, at_nodes(default_nodes(2)));
  BOOST_TEST(!r.accuracy->truncation_priced);
  BOOST_TEST(r.accuracy->truncation == 0.0);
  for (const GridPricing& g : r.accuracy->pricings) BOOST_TEST(g.role != "domain");
  const PriceResult put = price_with_bound(adi(), resolve_product("european-put"), at_nodes(default_nodes(1)));
  BOOST_TEST(put.accuracy->truncation_priced);
  BOOST_TEST(put.accuracy->pricings.back().role == "domain");
}

// The work a book's plan and queue give a note priced with its bar: that of the levels the bar
// prices (acc.cost counts a damped sub-step whole, the plan half: a daily note's time level is
// 4/3 of the fine grid's steps, 3/2 of its march). The levels' nodes alone would say 1.625 in 2-D.
BOOST_AUTO_TEST_CASE(a_bars_planned_work_is_that_of_the_levels_it_prices) {
  for (const char* id : {"sample-2a-stepdown", "min-call", "european-put"}) {
    const Product p = resolve_product(id);
    const SolverOptions o = at_nodes(default_nodes(p));
    const PriceResult r = price_with_bound(adi(), p, o);
    const double planned = extrapolated_work(p, o.grid, true);
    BOOST_TEST_MESSAGE(id << ": planned " << planned << ", priced " << r.accuracy->cost);
    BOOST_TEST(planned == r.accuracy->cost, boost::test_tools::tolerance(0.03));
    const double value = 1 + std::pow(0.5, p.dimension());  // n/2 at the same steps
    BOOST_TEST(extrapolated_work(p, o.grid, false) == value, boost::test_tools::tolerance(1e-12));
  }
  // Under the explicit solver's stable steps, whose coarser levels' halvings meet its bound.
  const SolverInfo& euler = SolverRegistry::instance().get("explicit");
  const Product call = resolve_product("min-call");
  const SolverOptions o = at_nodes(64);
  const PriceResult r = price_with_bound(euler, call, o);
  const std::vector<PlannedLevel> levels = extrapolated_levels(call, o.grid, true, euler.stepping);
  double planned = 0;
  for (const PlannedLevel& l : levels) planned += l.work / levels.front().work;
  BOOST_TEST_MESSAGE("explicit min-call: planned " << planned << ", priced " << r.accuracy->cost);
  BOOST_TEST(planned == r.accuracy->cost, boost::test_tools::tolerance(0.03));
}

// A target's plan (book price --target-error --dry-run) counts the least its search prices: its
// pilot and a grid of twice the pilot's nodes, each with its bar. Where the search lands there
// (both notes here, at 1 bp), that is all it prices. (Neither has damped sub-steps, which the
// priced point-steps count whole: a_bars_planned_work_is_that_of_the_levels_it_prices has them.)
BOOST_AUTO_TEST_CASE(a_targets_planned_work_is_the_least_it_prices) {
  for (const char* id : {"min-call", "european-put"}) {
    const Product p = resolve_product(id);
    const SolverOptions o = at_nodes(default_nodes(p));
    const PriceResult r = price_to_target(adi(), p, o, parse_error_target("1bp"));
    double priced = 0, planned = 0;
    for (const GridPricing& g : r.accuracy->pricings) priced += g.point_steps();
    for (const PlannedLevel& l : target_levels_at_least(p, o.grid, adi().stepping)) planned += l.work;
    BOOST_TEST_MESSAGE(id << ": least " << planned << ", priced " << priced << " at n = " << r.accuracy->n);
    BOOST_TEST_REQUIRE(r.accuracy->n == 2 * pilot_nodes(p.dimension()));
    BOOST_TEST(planned == priced, boost::test_tools::tolerance(0.03));
  }
}

// Three assets with a knock-in to come: the levels' n/2 is before its asymptotic range, and the
// space part is |R(n) - R(n/2)| alone: at n = 64 7.6 bp where the floor would make it 8.5, at
// n = 96 0.3 bp against 4.2 (its error 0.3; the slow case below).
BOOST_AUTO_TEST_CASE(a_three_asset_bar_with_a_knock_in_to_come_takes_no_floor) {
  const Product note = resolve_product("els-3a-stepdown");
  BOOST_TEST_REQUIRE(note.can_knock_in());
  const PriceResult r = price_with_bound(adi(), note, at_nodes(64));
  const Accuracy& acc = *r.accuracy;
  BOOST_TEST_REQUIRE(!acc.erratic);
  const GridPricing* coarser = pricing_of(acc, "coarser");
  BOOST_TEST_REQUIRE(coarser);
  BOOST_TEST_MESSAGE("space " << acc.space << ", Richardson's correction " << std::abs(r.price - acc.fine));
  BOOST_TEST(acc.space == std::abs(r.price - richardson(acc.coarse, coarser->price, richardson_weight(note))));
  BOOST_TEST(acc.space < std::abs(r.price - acc.fine));
}

// Issue 44's three-asset target, els-3a-stepdown to 1 bp (about 4 minutes on 2 cores), against its stored
// 24M-path Monte Carlo price.
BOOST_AUTO_TEST_CASE(three_assets_to_one_basis_point, *boost::unit_test::disabled()) {
  const Product note = resolve_product("els-3a-stepdown");
  const auto ref = load_stored_reference(note.id);
  BOOST_REQUIRE(ref.has_value());
  const PriceResult r = price_to_target(adi(), note, at_nodes(default_nodes(note)), parse_error_target("1bp"));
  BOOST_TEST(*r.accuracy->bound <= 0.01);
  check_bracket("els-3a-stepdown to 1 bp", r.price - ref->price, *r.accuracy->bound, ref->std_error, note.notional);
}

BOOST_AUTO_TEST_CASE(a_two_asset_els_bar_is_never_below_richardsons_own_correction) {
  for (const char* id : {"book-s12-00001", "book-s12-00002", "book-s12-00006"}) {
    const Product note = stored_note(id);
    const PriceResult r = price_with_bound(adi(), note, at_nodes(default_nodes(note)));
    const Accuracy& acc = *r.accuracy;
    BOOST_TEST(acc.space >= std::abs(r.price - acc.fine), id << ": space " << acc.space << " below the correction "
                                                               << std::abs(r.price - acc.fine));
  }
}

BOOST_AUTO_TEST_CASE(a_book_priced_to_a_target_gives_each_note_its_single_price_to_the_bit) {
  BookSpec spec;
  spec.notes = 3;
  spec.assets = 1;
  spec.seed = 7;
  const std::vector<Product> book = generate_book(spec);
  std::vector<const Product*> notes;
  for (const Product& p : book) notes.push_back(&p);
  const ErrorTarget target = parse_error_target("2bp");
  std::size_t seen = 0;
  price_book(adi(), notes, at_nodes(100), place_book(adi(), notes.size(), parse_device("cpu"), 2),
             [&](std::size_t index, const CaseOutcome& out) {
               ++seen;
               BOOST_TEST_REQUIRE(out.priced(), out.skip_reason);
               const PriceResult one = price_to_target(adi(), *notes[index], at_nodes(100), target);
               BOOST_TEST(out.result->price == one.price);
               BOOST_TEST(out.result->accuracy->n == one.accuracy->n);
               BOOST_TEST(*out.result->accuracy->bound <= target.in_price_units(*notes[index]));
             },
             {}, NotePricing{&target});
  BOOST_TEST(seen == notes.size());
}

BOOST_AUTO_TEST_CASE(a_target_the_machine_cannot_price_names_the_grid_it_asked_for) {
  // The three-asset note's pilot (n = 48, about 3 s) has erratic levels, so the search doubles n;
  // with 5 s allowed, 96 (about 25 s on 2 cores) is refused before any grid-sized work, or in a
  // slow (sanitizer) build the pilot's march stops at the deadline. Either way the error names
  // the grid asked for and the bar it came from, or that it was the pilot.
  SolverOptions o = at_nodes(24);
  o.max_seconds = 5;
  try {
    price_to_target(adi(), resolve_product("els-3a-stepdown"), o, parse_error_target("0.5bp"));
    BOOST_FAIL("priced");
  } catch (const SolverError& e) {
    BOOST_TEST((e.kind() == SolverError::Kind::OutOfMemory || e.kind() == SolverError::Kind::TooMuchWork));
    const std::string what = e.what();
    BOOST_TEST(what.rfind("--target-error 0.5bp asks for n = ", 0) == 0, what);
    BOOST_TEST((what.find("from the bar") != std::string::npos || what.find("the search's pilot") != std::string::npos),
               what);
    BOOST_TEST(what.find("or a looser target") != std::string::npos, what);
  }
}

// book-s3-00012 (one date in 68 days, its coupon 35.7 %): the pilot's coarse grid, 24
// nodes a side, prices above the note's discounted redemption, a refusal of that grid and not of
// the note, whose default prices it with a bar of 0.001 bp. The search doubles the pilot instead.
BOOST_AUTO_TEST_CASE(a_target_search_doubles_a_pilot_that_cannot_carry_the_note) {
  const Product note = generate_book({12, 2, 3, BookFamily::Issued}).at(11);
  BOOST_TEST_REQUIRE(note.id == "book-s3-00012");
  SolverOptions coarse = at_nodes(pilot_nodes(2) / 2);
  BOOST_CHECK_THROW(price_with(adi(), note, coarse), SolverError);
  const ErrorTarget target = parse_error_target("0.5bp");
  const PriceResult r = price_to_target(adi(), note, at_nodes(100), target);
  const Accuracy& acc = *r.accuracy;
  BOOST_TEST(*acc.bound <= target.in_price_units(note));
  BOOST_TEST(acc.pricings.front().role == "pilot fine");
  BOOST_TEST(acc.pricings.front().shape.front() == 2 * pilot_nodes(2));
  const PriceResult by_default = price_with_bound(adi(), note, at_nodes(default_nodes(note)));
  BOOST_TEST(std::abs(r.price - by_default.price) <= *acc.bound + *by_default.accuracy->bound);
}

// book-s11-00003 (one asset, a knock-in daily) to 0.2 bp: the chosen grid's bar misses, the retry
// (at more steps than the dates pin) narrows it but misses too, so a second retry is made, and
// meets the target. Since the hat's weight at the autocalls no two-asset note of the issued or
// digital families of docs/accuracy.md takes a second retry to 0.5 bp.
BOOST_AUTO_TEST_CASE(a_target_search_whose_retry_narrowed_the_bar_tries_once_more) {
  const Product note = stored_note("book-s11-00003");
  const ErrorTarget target = parse_error_target("0.2bp");
  const PriceResult r = price_to_target(adi(), note, at_nodes(100), target);
  const Accuracy& acc = *r.accuracy;
  BOOST_TEST(*acc.bound <= target.in_price_units(note));
  BOOST_TEST_REQUIRE(pricing_of(acc, "retry 2 fine"));
  const PriceResult by_default = price_with_bound(adi(), note, at_nodes(default_nodes(note)));
  BOOST_TEST(std::abs(r.price - by_default.price) <= *acc.bound + *by_default.accuracy->bound);
}

// book-s3-00024 (the knock-in at 0.45 daily): from twice the default's nodes the bar's time part is
// twice the coarser grid's change at four times the steps, and it covers what four times the steps
// change in Richardson's value itself (at n = 432 that is 0.51 bp; levels in nt on the coarser
// grid had said 0.17).
BOOST_AUTO_TEST_CASE(a_daily_knock_in_from_twice_the_default_nodes_takes_its_time_part_at_four_times_the_steps) {
  const Product note = generate_book({24, 2, 3, BookFamily::Issued}).at(23);
  BOOST_TEST_REQUIRE(note.id == "book-s3-00024");
  const int n = 3 * default_nodes(note);
  const PriceResult r = price_with_bound(adi(), note, at_nodes(n));
  const Accuracy& acc = *r.accuracy;
  const GridPricing* coarser_level = pricing_of(acc, "coarser");
  const GridPricing* time_level = pricing_of(acc, "time");
  BOOST_TEST_REQUIRE((coarser_level && time_level));
  const GridPricing &coarser = *coarser_level, &time = *time_level;
  BOOST_TEST(time.shape == coarser.shape);
  BOOST_TEST(time.time_steps >= 4 * r.nt);
  BOOST_TEST(acc.time == 2 * std::abs(coarser.price - time.price), boost::test_tools::tolerance(1e-12));
  SolverOptions finer = at_nodes(n);
  finer.grid.nt = static_cast<int>(4 * r.nt);
  const double change = std::abs(price_extrapolated(adi(), note, finer).price - r.price);
  BOOST_TEST(change > 0.2 * note.notional * 1e-4, "four times the steps move the value by " << change);
  BOOST_TEST(acc.time >= change);
}

// A three-asset note whose bar's coarsest grid (n/4 = 20 per axis over a domain 17 times its spot)
// prices beyond the note's upper bound: the note is still priced by default, its bar's space part
// the whole change from n/2 to n (three times Richardson's correction) instead of the refusal.
BOOST_AUTO_TEST_CASE(a_bar_whose_coarsest_grid_cannot_carry_the_note_takes_the_two_finer_levels) {
  const Product note = generate_book({60, 0, 3, BookFamily::Digital}).at(44);  // mixed assets
  BOOST_TEST_REQUIRE(note.dimension() == 3);
  const int n = default_nodes(3);
  const PriceResult r = price_with_bound(adi(), note, at_nodes(n));
  SolverOptions coarsest = at_nodes(n / 4);
  coarsest.grid.nt = static_cast<int>(r.nt);
  BOOST_CHECK_THROW(price_with(adi(), note, coarsest), SolverError);
  const Accuracy& acc = *r.accuracy;
  BOOST_TEST(acc.erratic);
  BOOST_TEST(acc.space == std::abs(acc.fine - acc.coarse));
  BOOST_TEST(acc.space >= 2.9 * std::abs(r.price - acc.fine));
  BOOST_TEST(*acc.bound >= acc.space);
  for (const GridPricing& g : acc.pricings) BOOST_TEST(g.role != "coarser");
  BOOST_TEST(!bound_crossed(note, r.price, Precision::FP64).has_value());
}
