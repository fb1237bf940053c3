// A price outside its no-arbitrage bounds is never a result (solvers/contract/price.cpp): the
// reproductions of issue 31 (a negative european call on explicit n = 40 under rate -1; a min call
// over 30 years, on cn-direct n = 40 at 874 against its closed form 27.8 before the domain followed
// the model, now 118.6 on n = 8) are refused as
// unconverged naming the bound, the case runner records them as unconverged with the reason, the
// CLI exits 3; prices inside their bounds, good or bad, still price.
#include <unistd.h>

#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "harness/results/case_record.hpp"
#include "harness/results/results_file.hpp"
#include "harness/run/case_run.hpp"
#include "platform/solver_error.hpp"
#include "products/catalog.hpp"
#include "products/price_bounds.hpp"
#include "products/product_json.hpp"
#include "reference/closed_form.hpp"
#include "reference/reference_value.hpp"
#include "solvers/contract/solver.hpp"
#include "tests/unit/report_binary.hpp"
#include "tests/unit/scratch_dir.hpp"

using namespace elsbench;
namespace fs = std::filesystem;

namespace {

SolverOptions grid(int n) {
  SolverOptions o;
  o.grid.n = n;
  o.device.threads = 1;
  return o;
}

Product negative_rate_call() {
  Product p = resolve_product("european-call");
  p.id = "european-call-rate-minus-1";
  p.rate = -1;
  return p;
}

Product long_min_call() {
  Product p = resolve_product("min-call");
  p.id = "min-call-30y";
  p.option().maturity = 30;
  return p;
}

// The refusal of a pricing: its kind and message; fails the test when it priced.
SolverError refusal(const std::string& solver, const Product& p, const SolverOptions& o) {
  try {
    const PriceResult r = price_with(SolverRegistry::instance().get(solver), p, o);
    BOOST_ERROR(p.id << " on " << solver << " priced " << r.price << " (" << r.mesh << "): expected a refusal");
  } catch (const SolverError& e) {
    BOOST_TEST_MESSAGE(p.id << " on " << solver << ": " << e.kind_name() << ": " << e.what());
    return e;
  }
  return SolverError(SolverError::Kind::Unsupported, "priced");
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

BOOST_AUTO_TEST_CASE(a_negative_call_price_is_refused_as_unconverged_naming_the_bound) {
  const SolverError e = refusal("explicit", negative_rate_call(), grid(40));
  BOOST_TEST((e.kind() == SolverError::Kind::Unconverged));
  BOOST_TEST(std::string(e.kind_name()) == "unconverged");
  BOOST_TEST(has(e.what(), "below the bound 0 (0, the payoff is never negative)"), e.what());
  BOOST_TEST(has(e.what(), "refine the grid or widen --s-max"), e.what());
}

BOOST_AUTO_TEST_CASE(a_min_call_above_its_asset_bound_is_refused_as_unconverged_naming_the_bound) {
  const Product p = long_min_call();
  BOOST_TEST_MESSAGE("closed form " << closed_form_price(p).value() << ", bound " << price_bounds(p).upper.value);
  const SolverError e = refusal("cn-direct", p, grid(8));
  BOOST_TEST((e.kind() == SolverError::Kind::Unconverged));
  BOOST_TEST(has(e.what(), "above the bound 100 (min_i S_i e^{-q_i T}, the most a min call can be worth)"), e.what());
}

// Wrong prices inside their bounds are the domain's business (issue 31), not the bounds': they price.
BOOST_AUTO_TEST_CASE(prices_inside_their_bounds_still_price) {
  const auto priced = [](const std::string& solver, const Product& p, const SolverOptions& o) {
    const PriceResult r = price_with(SolverRegistry::instance().get(solver), p, o);
    const PriceBounds b = price_bounds(p);
    BOOST_TEST_MESSAGE(p.id << " on " << solver << ": " << r.price << " in [" << b.lower.value << ", "
                            << b.upper.value << "]");
    BOOST_TEST(r.price >= b.lower.value);
    BOOST_TEST(r.price <= b.upper.value);
  };
  priced("explicit", resolve_product("european-call"), grid(40));
  priced("cn-direct", resolve_product("min-call"), grid(40));
  priced("adi", resolve_product("max-put"), grid(40));
  priced("adi", resolve_product("cash-or-nothing-2"), grid(40));
  priced("adi", resolve_product("els-1a-stepdown"), grid(40));
  // 53.83 against 27.81 at n = 12: wrong (a grid too coarse for the 30-year domain), but inside [0, 100].
  priced("cn-direct", long_min_call(), grid(12));
  // Deep in the money the intrinsic lower bound is tight and a fine grid still prices.
  Product deep = resolve_product("european-call");
  deep.option().strikes = {40};
  deep.assets[0].vol = 0.05;
  priced("adi", deep, grid(200));
}

BOOST_AUTO_TEST_CASE(the_case_runner_records_an_out_of_bounds_price_as_unconverged_with_its_reason) {
  const Product p = long_min_call();
  SweepCase c;
  c.product = p.id;
  c.solver = "cn-direct";
  c.device.threads = 1;
  c.n = 8;
  const CaseOutcome out = run_case(c, p, CaseSettings{}, reference_for(p));
  BOOST_TEST(out.status == CaseStatus::Unconverged);
  BOOST_TEST(!out.result.has_value());
  BOOST_TEST(has(out.skip_reason, "unconverged: price"), out.skip_reason);
  BOOST_TEST(has(out.skip_reason, "above the bound 100"), out.skip_reason);
  // Its results-file entry reads back: status unconverged, the reason, no price.
  const nlohmann::json entries = case_entries(c, p, out);
  BOOST_REQUIRE(entries.size() == 1u);
  BOOST_TEST(entries[0].at("status") == "unconverged");
  BOOST_TEST(entries[0].at("price").is_null());
  BOOST_TEST(has(entries[0].at("skip_reason").get<std::string>(), "above the bound"));
  BOOST_CHECK_NO_THROW(check_results_entry(entries[0], "test", "benchmarks[0]"));
}

BOOST_AUTO_TEST_CASE(the_cli_exits_3_naming_the_bound) {
  const testing::ScratchDir s("bounds-test");
  const fs::path product = s / "call.json";
  std::ofstream(product) << product_to_json(negative_rate_call()).dump(2);
  const fs::path out = s / "out", err = s / "err";
  const int rc = testing::run_command(testing::shell_quoted(testing::elsbench_binary()) + " price --product " +
                                      testing::shell_quoted(product.string()) + " --solver explicit --n 40 > " +
                                      testing::shell_quoted(out.string()) + " 2> " + testing::shell_quoted(err.string()));
  std::ifstream in(err);
  std::stringstream text;
  text << in.rdbuf();
  BOOST_TEST(rc == 3);
  BOOST_TEST(has(text.str(), "elsbench: unconverged: price -"), text.str());
  BOOST_TEST(has(text.str(), "below the bound 0"), text.str());
  BOOST_TEST(fs::file_size(out) == 0u);
}
