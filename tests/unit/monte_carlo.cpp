// The Monte Carlo reference engine: its generator, its determinism, its agreement with the closed
// forms, the ordering that knock-in monitoring must respect, and the stored reference files.
#include <unistd.h>

#include <boost/test/unit_test.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <vector>

#include "platform/input_error.hpp"
#include "products/catalog.hpp"
#include "products/product_json.hpp"
#include "reference/closed_form.hpp"
#include "reference/monte_carlo.hpp"
#include "reference/path_math.hpp"
#include "reference/path_plan.hpp"
#include "reference/philox.hpp"
#include "reference/reference_value.hpp"
#include "reference/stored_reference.hpp"

using namespace elsbench;

namespace {

McResult price(const Product& p, std::int64_t paths, int threads = 0, std::uint64_t seed = 1, bool antithetic = true) {
  McOptions o;
  o.paths = paths;
  o.seed = seed;
  o.threads = threads;
  o.antithetic = antithetic;
  return monte_carlo_price(p, o);
}

// A catalog product with some terms changed, through the same JSON validation as a file.
Product variant(const std::string& id, const std::function<void(nlohmann::json&)>& edit) {
  nlohmann::json j = product_to_json(resolve_product(id));
  edit(j);
  return product_from_json(j, "test variant of " + id);
}

Product with_monitoring(const std::string& id, const std::string& monitoring) {
  return variant(id, [&](nlohmann::json& j) { j["knock_in"]["monitoring"] = monitoring; });
}

double combined_se(const McResult& a, const McResult& b) { return std::hypot(a.std_error, b.std_error); }

}  // namespace

BOOST_AUTO_TEST_SUITE(generator)

BOOST_AUTO_TEST_CASE(philox_matches_random123_known_answers) {
  using philox::philox4x32_10;
  BOOST_TEST((philox4x32_10({0, 0, 0, 0}, {0, 0}) == philox::Counter{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}));
  BOOST_TEST((philox4x32_10({0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}, {0xffffffff, 0xffffffff}) ==
              philox::Counter{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}));
  BOOST_TEST((philox4x32_10({0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}, {0xa4093822, 0x299f31d0}) ==
              philox::Counter{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}));
}

BOOST_AUTO_TEST_CASE(transform_functions_match_libm) {
  double worst_log = 0, worst_sqrt = 0, worst_trig = 0;
  for (std::uint64_t x = 0; x < (1ull << 32); x += 982451653ull / 64) {
    const double u = philox::open_uniform(static_cast<std::uint32_t>(x));
    BOOST_REQUIRE(u > 0.0);
    BOOST_REQUIRE(u < 1.0);
    worst_log = std::max(worst_log, std::abs(philox::log_positive(u) / std::log(u) - 1.0));
    const double r2 = -2.0 * std::log(u);
    worst_sqrt = std::max(worst_sqrt, std::abs(philox::sqrt_positive(r2) / std::sqrt(r2) - 1.0));
  }
  for (double t = -0.7853981633974483; t <= 0.7853981633974483; t += 1e-3) {
    double s = 0, c = 0;
    philox::sincos_small(t, s, c);
    worst_trig = std::max({worst_trig, std::abs(s - std::sin(t)), std::abs(c - std::cos(t))});
  }
  double worst_exp = 0;
  for (double x = -700; x <= 700; x += 0.0137) worst_exp = std::max(worst_exp, std::abs(path_math::exp_bounded(x) / std::exp(x) - 1.0));
  BOOST_TEST(worst_exp < 4e-16);
  BOOST_TEST(path_math::exp_bounded(-1e308) < 1e-307);  // clamped, never a NaN
  BOOST_TEST(std::isfinite(path_math::exp_bounded(1e308)));
  BOOST_TEST(worst_log < 1e-15);
  BOOST_TEST(worst_sqrt < 1e-15);
  BOOST_TEST(worst_trig < 1e-15);
}

BOOST_AUTO_TEST_CASE(normals_have_standard_moments) {
  const int blocks = 250000;  // one million normals
  double sum = 0, sum_sq = 0, sum_4 = 0, below = 0;
  for (int i = 0; i < blocks; ++i) {
    double z[4];
    philox::normals4(static_cast<std::uint32_t>(i), 7, 0, 0, 42, 0, z[0], z[1], z[2], z[3]);
    for (double v : z) {
      sum += v;
      sum_sq += v * v;
      sum_4 += v * v * v * v;
      below += v < -1.959963984540054 ? 1 : 0;
    }
  }
  const double n = 4.0 * blocks;
  BOOST_TEST(std::abs(sum / n) < 4 * std::sqrt(1 / n));
  BOOST_TEST(std::abs(sum_sq / n - 1) < 4 * std::sqrt(2 / n));
  BOOST_TEST(std::abs(sum_4 / n - 3) < 4 * std::sqrt(96 / n));
  BOOST_TEST(std::abs(below / n - 0.025) < 4 * std::sqrt(0.025 * 0.975 / n));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(path_plan)

// The kinds of a step's events, in the order a path meets them.
std::vector<EventKind> kinds_at(const PathPlan& plan, int step) {
  std::vector<EventKind> kinds;
  for (const PathEvent& e : plan.events_at(step)) kinds.push_back(e.kind);
  return kinds;
}

BOOST_AUTO_TEST_CASE(daily_plan_steps_on_every_trading_day_and_autocall_date) {
  using enum EventKind;
  const PathPlan plan = make_path_plan(resolve_product("sample-2a-stepdown"));
  BOOST_TEST(plan.steps == 756);
  BOOST_TEST((kinds_at(plan, 125) == std::vector{KnockIn, Autocall}));  // observed, then redeemed
  BOOST_TEST((kinds_at(plan, 126) == std::vector{KnockIn}));
  BOOST_TEST((kinds_at(plan, 0) == std::vector{KnockIn}));
  BOOST_TEST(plan.events_at(755).back().in_payoff);  // the maturity's autocall: its redemption
  BOOST_TEST(!plan.events_at(125).back().in_payoff);
  BOOST_TEST(plan.events_at(125).back().amount == 100.0 * (1 + 0.04), boost::test_tools::tolerance(1e-12));
  BOOST_TEST(plan.events.size() == 756u + 6u);
  BOOST_TEST(plan.time.back() == 3.0);
  // vol_2 sqrt(dt) (rho, sqrt(1 - rho^2)) in the second row of the step's shock matrix.
  BOOST_TEST(plan.shock_at(0, 1, 0) == 0.30 * std::sqrt(1.0 / 252) * 0.5, boost::test_tools::tolerance(1e-14));
  BOOST_TEST(plan.shock_at(0, 1, 1) == 0.30 * std::sqrt(1.0 / 252) * std::sqrt(0.75), boost::test_tools::tolerance(1e-14));
  BOOST_TEST(plan.shock_at(0, 0, 1) == 0.0);
}

BOOST_AUTO_TEST_CASE(autocall_date_off_the_daily_grid_is_no_knock_in_observation) {
  const Product p = variant("sample-2a-stepdown", [](nlohmann::json& j) { j["autocall"][0]["time"] = 0.3; });
  const PathPlan plan = make_path_plan(p);
  BOOST_TEST(plan.steps == 757);
  int autocall_step = -1;
  for (int s = 0; s < plan.steps && autocall_step < 0; ++s)
    if (kinds_at(plan, s).back() == EventKind::Autocall) autocall_step = s;
  BOOST_REQUIRE(autocall_step >= 0);
  BOOST_TEST(plan.time[static_cast<std::size_t>(autocall_step)] == 0.3);
  BOOST_TEST((kinds_at(plan, autocall_step) == std::vector{EventKind::Autocall}));
}

BOOST_AUTO_TEST_CASE(no_knock_in_and_validation_products_step_only_on_their_dates) {
  BOOST_TEST(make_path_plan(with_monitoring("sample-2a-stepdown", "none")).steps == 6);
  BOOST_TEST(make_path_plan(variant("sample-2a-stepdown", [](nlohmann::json& j) { j["knocked_in"] = true; })).steps == 6);
  BOOST_TEST(make_path_plan(resolve_product("min-call")).steps == 1);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(engine)

BOOST_AUTO_TEST_CASE(same_seed_gives_the_same_bits_for_any_thread_count) {
  for (const char* id : {"sample-2a-stepdown", "els-3a-stepdown", "min-put"}) {
    const Product p = resolve_product(id);
    const McResult one = price(p, 20000, 1), two = price(p, 20000, 2), three = price(p, 20000, 3);
    BOOST_TEST_INFO(id);
    BOOST_TEST(one.price == two.price);  // exact, not within a tolerance
    BOOST_TEST(one.std_error == two.std_error);
    BOOST_TEST(one.price == three.price);
  }
  const Product continuous = with_monitoring("sample-2a-stepdown", "continuous");
  BOOST_TEST(price(continuous, 10000, 1).price == price(continuous, 10000, 2).price);
}

BOOST_AUTO_TEST_CASE(another_seed_gives_another_sample) {
  const Product p = resolve_product("sample-2a-stepdown");
  const McResult a = price(p, 20000, 0, 1), b = price(p, 20000, 0, 2);
  BOOST_TEST(a.price != b.price);
  BOOST_TEST(std::abs(a.price - b.price) < 4 * combined_se(a, b));
}

BOOST_AUTO_TEST_CASE(result_reports_paths_rounded_to_pairs_and_provenance) {
  const McResult r = price(resolve_product("european-call"), 1001);
  BOOST_TEST(r.paths == 1002);
  BOOST_TEST(r.generator == "philox4x32-10/box-muller antithetic");
  BOOST_TEST(r.generator_version == kMcGeneratorVersion);
  BOOST_TEST(r.device == "cpu");
  BOOST_TEST(r.std_error > 0);
  BOOST_CHECK_THROW(price(resolve_product("european-call"), 1), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(agrees_with_every_closed_form_within_four_standard_errors) {
  int checked = 0;
  for (const Product& p : load_catalog()) {
    const auto exact = closed_form_price(p);
    if (!exact) continue;
    const McResult mc = price(p, 400000);
    BOOST_TEST_INFO(p.id << ": MC " << mc.price << " +- " << mc.std_error << ", closed form " << *exact);
    BOOST_TEST(std::abs(mc.price - *exact) <= 4 * mc.std_error);
    BOOST_TEST(mc.std_error < 0.01 * *exact);  // the test has power: a 4 % error would fail
    ++checked;
  }
  BOOST_TEST(checked == 8);
}

// The CUDA engine runs pair_path.hpp's pair_average(); the CPU engine's vectorised blocks must
// give the same bits, pair by pair, for every kind of product and path (tests/gpu then holds the
// device to the CPU engine).
BOOST_AUTO_TEST_CASE(vectorised_blocks_match_the_shared_pair_code_bit_for_bit) {
  std::vector<Product> products = load_catalog();
  products.push_back(with_monitoring("sample-2a-stepdown", "continuous"));
  products.push_back(with_monitoring("els-3a-stepdown", "continuous"));
  products.push_back(with_monitoring("sample-2a-stepdown", "none"));
  products.push_back(variant("els-1a-stepdown", [](nlohmann::json& j) { j["underlyings"][0]["spot"] = 50.0; }));
  products.push_back(variant("monthly-coupon-2a", [](nlohmann::json& j) { j["coupons"]["memory"] = true; }));
  products.push_back(variant("lizard-2a", [](nlohmann::json& j) {  // every kind of event on one path
    j["coupons"] = {{"per_year", 12}, {"barrier", 0.7}, {"coupon", 0.005}, {"memory", true}};
  }));
  for (const Product& p : products)
    for (const bool antithetic : {true, false}) {
      McOptions o;
      o.seed = (std::uint64_t{1} << 40) + 7;  // both key words in use
      o.antithetic = antithetic;
      // pairs across a block boundary, and past 2^32 (both counter words)
      for (const std::uint64_t first : {std::uint64_t{0}, std::uint64_t{4'294'967'200}}) {
        const auto vectorised = monte_carlo_pair_averages(p, o, first, 200, PathCode::Vectorised);
        const auto shared = monte_carlo_pair_averages(p, o, first, 200, PathCode::Shared);
        BOOST_TEST_INFO(p.id << (antithetic ? " antithetic" : " plain") << " from pair " << first);
        BOOST_TEST(vectorised == shared, boost::test_tools::per_element());
      }
    }
}

BOOST_AUTO_TEST_CASE(pair_averages_are_the_paths_of_a_price) {
  const Product p = resolve_product("sample-2a-stepdown");
  McOptions o;
  o.paths = 2 * 300;
  o.threads = 2;
  const McResult r = monte_carlo_price(p, o);
  const auto averages = monte_carlo_pair_averages(p, o, 0, 300, PathCode::Shared);
  double mean = 0;
  for (double y : averages) mean += y / 300.0;
  BOOST_TEST(r.price == mean, boost::test_tools::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(antithetic_pairs_lower_the_standard_error) {
  const Product call = resolve_product("european-call");
  const McResult anti = price(call, 100000, 0, 1, true), plain = price(call, 100000, 0, 1, false);
  BOOST_TEST(plain.generator == "philox4x32-10/box-muller plain");
  BOOST_TEST(anti.std_error < 0.8 * plain.std_error);
  BOOST_TEST(std::abs(anti.price - plain.price) < 4 * combined_se(anti, plain));
}

BOOST_AUTO_TEST_CASE(knock_in_monitoring_orders_the_prices) {
  // The same seed and the same daily grid give the same paths, so these hold path by path:
  // a continuously monitored note knocks in whenever the daily one does, and more.
  const McResult daily = price(resolve_product("sample-2a-stepdown"), 40000);
  const McResult continuous = price(with_monitoring("sample-2a-stepdown", "continuous"), 40000);
  BOOST_TEST(continuous.price < daily.price);
  BOOST_TEST(daily.price - continuous.price < 1.0);  // one day between observations: a small gap
  // Different grids, so within standard errors; the gaps are many of them wide.
  const McResult none = price(with_monitoring("sample-2a-stepdown", "none"), 40000);
  const McResult knocked = price(variant("sample-2a-stepdown", [](nlohmann::json& j) { j["knocked_in"] = true; }), 40000);
  BOOST_TEST(knocked.price + 4 * combined_se(knocked, daily) < daily.price);
  BOOST_TEST(daily.price + 4 * combined_se(daily, none) < none.price);
}

BOOST_AUTO_TEST_CASE(best_of_continuous_lies_below_best_of_daily) {
  const auto best_of = [](const std::string& monitoring) {
    return variant("sample-2a-stepdown", [&](nlohmann::json& j) {
      j["performance"] = "best-of";
      j["knock_in"]["monitoring"] = monitoring;
      // Below the last autocall barrier, or the maturity observation alone would decide.
      j["knock_in"]["barrier"] = 0.6;
      j["correlation"] = {{1.0, 0.8}, {0.8, 1.0}};
    });
  };
  const McResult daily = price(best_of("daily"), 40000), continuous = price(best_of("continuous"), 40000);
  BOOST_TEST(continuous.price < daily.price);
  BOOST_TEST(daily.price - continuous.price < 1.0);
  const McResult worst = price(variant("sample-2a-stepdown", [](nlohmann::json& j) {
                                 j["knock_in"]["barrier"] = 0.6;
                                 j["correlation"] = {{1.0, 0.8}, {0.8, 1.0}};
                               }), 40000);
  BOOST_TEST(worst.price + 4 * combined_se(worst, daily) < daily.price);
}

BOOST_AUTO_TEST_CASE(one_asset_continuous_barrier_matches_the_shifted_daily_barrier) {
  // Broadie, Glasserman & Kou (1997): a barrier watched at steps dt acts like a continuous one
  // moved away by exp(0.5826 vol sqrt(dt)). A bridge probability that is wrong by a factor shows
  // up as a gap many standard errors wide.
  const double shift = std::exp(0.5826 * 0.22 * std::sqrt(1.0 / 252));
  const Product continuous = with_monitoring("els-1a-stepdown", "continuous");
  const Product daily = variant("els-1a-stepdown", [&](nlohmann::json& j) { j["knock_in"]["barrier"] = 0.55 * shift; });
  const McResult c = price(continuous, 200000), d = price(daily, 200000);
  const McResult unshifted = price(resolve_product("els-1a-stepdown"), 200000);
  BOOST_TEST_INFO("continuous " << c.price << " daily shifted " << d.price << " daily " << unshifted.price);
  BOOST_TEST(std::abs(c.price - d.price) < 3 * combined_se(c, d));
  BOOST_TEST(unshifted.price - c.price > 0.0);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(stored_values)

BOOST_AUTO_TEST_CASE(every_catalog_product_has_a_stored_value_with_provenance) {
  for (const Product& p : load_catalog()) {
    BOOST_TEST_INFO(p.id);
    const auto stored = load_stored_reference(p.id);
    BOOST_REQUIRE(stored.has_value());
    BOOST_TEST(prices_product(*stored, p));
    BOOST_TEST(stored->generator_version == kMcGeneratorVersion);
    BOOST_TEST(stored->generator.rfind("philox4x32-10", 0) == 0);
    BOOST_TEST(stored->command.find("elsbench reference --product " + p.id + " ") == 0);
    BOOST_TEST(stored->command.find("--write") != std::string::npos);
    BOOST_TEST(stored->paths >= 100000);
    BOOST_TEST(stored->std_error > 0);
    BOOST_TEST(!stored->git_commit.empty());
    BOOST_TEST(stored->date.size() == 20u);
    BOOST_TEST(stored->machine.contains("cpu_model"));
    BOOST_TEST(stored->seconds > 0);
    if (p.is_els()) BOOST_TEST(stored->std_error <= 1e-4 * p.notional);
    if (const auto exact = closed_form_price(p)) {
      BOOST_TEST(std::abs(stored->price - *exact) <= 4 * stored->std_error);
      BOOST_TEST(stored->std_error < 2e-3 * *exact);
    }
  }
}

BOOST_AUTO_TEST_CASE(reference_prefers_the_closed_form_and_falls_back_to_the_stored_value) {
  const auto call = reference_for(resolve_product("european-call"));
  BOOST_REQUIRE(call.has_value());
  BOOST_TEST(call->source == "closed-form");
  BOOST_TEST(call->std_error == 0.0);
  const auto els = reference_for(resolve_product("sample-2a-stepdown"));
  BOOST_REQUIRE(els.has_value());
  BOOST_TEST(els->source == "monte-carlo");
  BOOST_TEST(els->std_error > 0.0);
  BOOST_TEST(els->provenance.find("regenerate: elsbench reference") != std::string::npos);
  // Changed terms make the stored value stale: no reference rather than a wrong one.
  const Product changed = variant("sample-2a-stepdown", [](nlohmann::json& j) { j["rate"] = 0.04; });
  BOOST_TEST(!reference_for(changed).has_value());
}

BOOST_AUTO_TEST_CASE(written_file_reads_back_and_leaves_no_temporary) {
  const auto dir = std::filesystem::temp_directory_path() / ("elsbench-mc-test-" + std::to_string(::getpid()));
  const std::string path = (dir / "x.json").string();
  StoredReference r;
  r.product_id = "x";
  r.product = {{"id", "x"}};
  r.price = 101.25;
  r.std_error = 0.0099;
  r.paths = 123456;
  r.seed = 7;
  r.generator = mc_generator_name(true);
  r.generator_version = kMcGeneratorVersion;
  r.device = "cpu";
  r.threads = 2;
  r.seconds = 1.5;
  r.git_commit = "abc";
  r.date = utc_timestamp();
  r.command = "elsbench reference --product x --paths 123456 --seed 7 --device cpu --write";
  r.machine = {{"cpu_model", "test"}};
  write_stored_reference(r, path);
  std::ifstream in(path);
  const StoredReference back = stored_reference_from_json(nlohmann::json::parse(in), path);
  BOOST_TEST(back.price == 101.25);
  BOOST_TEST(back.paths == 123456);
  BOOST_TEST(back.command == r.command);
  int files = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir)) ++files;
  BOOST_TEST(files == 1);
  nlohmann::json broken = to_json(r);
  broken.erase("seed");
  BOOST_CHECK_THROW(stored_reference_from_json(broken, path), InputError);
  std::filesystem::remove_all(dir);
}

BOOST_AUTO_TEST_SUITE_END()
