// The lizard barrier, the second event added through the event model (docs/adding-an-event.md):
// a third value layer (alive with the lizard broken) on the grids, an intact flag per path in Monte
// Carlo. A lizard that cannot break makes the note redeem on its date for sure: it must price as
// the note cut there (both to rounding); a lizard that can break must price as Monte Carlo does;
// the GPU plan refuses it by name.
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <nlohmann/json.hpp>

#include "platform/solver_error.hpp"
#include "products/book_csv.hpp"
#include "products/book_generator.hpp"
#include "products/catalog.hpp"
#include "products/product_json.hpp"
#include "reference/monte_carlo.hpp"
#include "solvers/contract/price.hpp"
#include "solvers/contract/solver.hpp"
#include "solvers/gpu/plan/gpu_plan.hpp"
#include "solvers/problem/problem_builder.hpp"
#include "solvers/schemes/adi_scheme.hpp"

using namespace elsbench;

namespace {

// One asset, yearly dates over three years (barriers 95/90/85 %, 6 % a year), a daily knock-in
// at `knock_in`; with a lizard on the first date at `lizard` paying that date's coupon.
nlohmann::json one_asset_note(double knock_in) {
  return {{"id", "lizard-1a"},
          {"type", "stepdown-els"},
          {"notional", 100.0},
          {"underlyings", {{{"spot", 100.0}, {"vol", 0.25}, {"div_yield", 0.02}}}},
          {"rate", 0.03},
          {"autocall",
           {{{"time", 1.0}, {"barrier", 0.95}, {"coupon", 0.06}},
            {{"time", 2.0}, {"barrier", 0.90}, {"coupon", 0.12}},
            {{"time", 3.0}, {"barrier", 0.85}, {"coupon", 0.18}}}},
          {"knock_in", {{"barrier", knock_in}, {"monitoring", "daily"}}},
          {"dummy_coupon", 0.18}};
}

Product with_lizard(double knock_in, double lizard) {
  nlohmann::json j = one_asset_note(knock_in);
  j["lizard"] = {{"autocall", 1}, {"barrier", lizard}, {"coupon", 0.06}};
  return product_from_json(j, "lizard note");
}

// The note cut at its first date: called there or not, it repays notional x 1.06.
Product cut_at_first_date(double knock_in) {
  nlohmann::json j = one_asset_note(knock_in);
  j["autocall"] = {{{"time", 1.0}, {"barrier", 0.95}, {"coupon", 0.06}}};
  j["dummy_coupon"] = 0.06;
  return product_from_json(j, "cut note");
}

double adi_price(const Product& p, int n) {
  SolverOptions o;
  o.grid.n = n;
  o.device = parse_device("cpu");
  return price_with(SolverRegistry::instance().get("adi"), p, o).price;
}

McResult mc_price(const Product& p, std::int64_t paths) {
  McOptions o;
  o.paths = paths;
  o.seed = 5;
  return monte_carlo_price(p, o);
}

}  // namespace

BOOST_AUTO_TEST_CASE(a_lizard_that_cannot_break_prices_as_the_note_cut_at_its_date) {
  // A knock-in and a lizard at 1 % of the reference: no path of a 25 % vol asset reaches them.
  const Product lizard = with_lizard(0.01, 0.01), cut = cut_at_first_date(0.01);
  const McResult a = mc_price(lizard, 200'000), b = mc_price(cut, 200'000);
  BOOST_TEST(std::abs(a.price - b.price) < 1e-12 * b.price, a.price << " against " << b.price);
  const double grid = adi_price(lizard, 200), cut_grid = adi_price(cut, 200);
  // Both are 106 e^{-r}, sure, but for the time steps' discounting (1.2e-5 seen): a lizard's
  // redemption and an autocall's on complementary sides of a barrier must cover a straddling cell
  // exactly (two partial blends left 4e-3, erratic in n).
  BOOST_TEST(std::abs(grid - cut_grid) < 5e-5, grid << " against " << cut_grid);
  BOOST_TEST(std::abs(grid - 106.0 * std::exp(-0.03)) < 5e-5, grid);
}

BOOST_AUTO_TEST_CASE(a_lizard_prices_as_monte_carlo_does) {
  for (const double lizard : {0.6, 0.75, 0.9}) {
    const Product p = with_lizard(0.5, lizard);
    const McResult mc = mc_price(p, 1'000'000);
    const double fd = adi_price(p, 300);
    BOOST_TEST_MESSAGE("lizard " << lizard << ": adi " << fd << ", Monte Carlo " << mc.price << " +- " << mc.std_error);
    BOOST_TEST(std::abs(fd - mc.price) < 4 * mc.std_error + 0.01, "lizard " << lizard);
  }
  // It adds a redemption the note may take: worth something, and less than the sure one above.
  const double plain = adi_price(product_from_json(one_asset_note(0.5), "plain"), 200);
  const double lizard = adi_price(with_lizard(0.5, 0.75), 200), sure = adi_price(with_lizard(0.5, 0.5), 200);
  BOOST_TEST(plain < lizard);
  BOOST_TEST(lizard < sure);
}

BOOST_AUTO_TEST_CASE(the_gpu_plan_refuses_a_lizard_by_name) {
  GridOptions g;
  g.n = 24;
  const Problem pb = build_problem(resolve_product("lizard-2a"), g);
  BOOST_TEST(pb.layers == 3);
  try {
    gpu::make_gpu_plan(pb, adi_scheme("hundsdorfer-verwer"));
    BOOST_ERROR("the GPU plan took three layers");
  } catch (const SolverError& e) {
    BOOST_TEST((e.kind() == SolverError::Kind::Unsupported));
    BOOST_TEST(std::string(e.what()).find("lizard") != std::string::npos, e.what());
  }
  // A knocked-in note's lizard can no longer pay: two layers, as without one.
  Product knocked = resolve_product("lizard-2a");
  knocked.els().knocked_in = true;
  BOOST_TEST(!knocked.has_lizard());
  BOOST_TEST(build_problem(knocked, g).layers == 1);
}

BOOST_AUTO_TEST_CASE(a_lizard_reads_back_from_json_and_csv_and_bad_terms_are_refused_by_name) {
  const Product p = resolve_product("lizard-2a");
  BOOST_TEST_REQUIRE(p.has_lizard());
  const Product again = product_from_json(product_to_json(p), "round trip");
  BOOST_TEST(again.els().lizard.autocall == 1);
  BOOST_TEST(again.els().lizard.barrier == 0.70);
  BOOST_TEST(again.els().lizard.coupon == 0.08);
  const CsvBookHeader header("id,rate,underlying_1_spot,underlying_1_vol,autocall_1_time,autocall_1_barrier,"
                             "autocall_1_coupon,autocall_2_time,autocall_2_barrier,autocall_2_coupon,knock_in_barrier,"
                             "knock_in_monitoring,dummy_coupon,lizard_autocall,lizard_barrier,lizard_coupon",
                             "desk.csv");
  const Product row = product_from_json(
      header.row_json("n1,0.03,100,0.2,0.5,0.9,0.05,1,0.85,0.1,0.5,daily,0.1,1,0.65,0.05", "desk.csv:2"), "desk.csv:2");
  BOOST_TEST(row.has_lizard());
  BOOST_TEST(row.els().lizard.autocall == 0);
  BOOST_TEST(row.els().lizard.barrier == 0.65);
  const auto refused = [&](const char* key, nlohmann::json value, const char* knock_in = "daily") {
    nlohmann::json j = product_to_json(p);
    j["lizard"][key] = std::move(value);
    j["knock_in"]["monitoring"] = knock_in;
    try {
      product_from_json(j, "bad.json");
    } catch (const InputError& e) {
      return std::string(e.what()).find("lizard") != std::string::npos;
    }
    return false;
  };
  BOOST_TEST(refused("autocall", 0));
  BOOST_TEST(refused("autocall", 6));  // maturity: the note redeems there anyway
  BOOST_TEST(refused("autocall", 1.5));
  BOOST_TEST(refused("barrier", 0.4));  // below the knock-in's 0.5
  BOOST_TEST(refused("coupon", 8));     // 8 meant as 8 %
  BOOST_TEST(refused("lizzard", 1));
  BOOST_TEST(refused("autocall", 2, "continuous"));
}

BOOST_AUTO_TEST_CASE(the_lizard_family_puts_one_on_the_next_redemption_date) {
  BookSpec spec;
  spec.notes = 40;
  spec.family = BookFamily::Lizard;
  int with = 0;
  for (const Product& p : generate_book(spec)) {
    BOOST_TEST(p.id.rfind("lizard-", 0) == 0u);
    if (p.els().lizard.autocall < 0) {
      BOOST_TEST(p.els().autocall.size() == 1u, p.id << ": no lizard with dates to come");
      continue;
    }
    ++with;
    BOOST_TEST(p.els().lizard.autocall == 0);
    BOOST_TEST(p.els().lizard.barrier >= p.els().knock_in.barrier);
    BOOST_TEST(p.els().lizard.coupon == p.els().autocall.front().coupon);
    const Product again = product_from_json(product_to_json(p), "round trip");
    BOOST_TEST(again.els().lizard.barrier == p.els().lizard.barrier);
  }
  BOOST_TEST(with > 20);
}
