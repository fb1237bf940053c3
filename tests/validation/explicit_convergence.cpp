// The explicit solver against closed forms: accuracy at the grid sizes, the observed order
// of convergence under grid refinement, and its refusal of unstable time steps.
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <regex>
#include <string>

#include "platform/solver_error.hpp"
#include "products/catalog.hpp"
#include "reference/closed_form.hpp"
#include "solvers/contract/solver.hpp"

using namespace elsbench;

namespace {

PriceResult price_explicit(const Product& p, int n, std::optional<int> nt = std::nullopt,
                           MeshKind mesh = MeshKind::Sinh) {
  SolverOptions opt;
  opt.grid.n = n;
  opt.grid.nt = nt;
  opt.grid.mesh = mesh;
  return price_with(SolverRegistry::instance().get("explicit"), p, opt);
}

double relative_error(const Product& p, const PriceResult& r) {
  const double exact = closed_form_price(p).value();
  return std::abs(r.price - exact) / exact;
}

// Order p of e(h) = C h^p from errors at three meshes, each with half the spacing of the last.
struct ObservedOrders {
  double coarse, fine;
};
ObservedOrders observed_orders(const Product& p, const int (&nodes)[3]) {
  const double exact = closed_form_price(p).value();
  double err[3];
  for (int i = 0; i < 3; ++i) {
    const PriceResult r = price_explicit(p, nodes[i], std::nullopt, MeshKind::Uniform);
    err[i] = std::abs(r.price - exact);
    BOOST_TEST_MESSAGE(p.id << " uniform n=" << nodes[i] << " nt=" << r.time_steps
                            << " price=" << r.price << " error=" << err[i]);
  }
  const ObservedOrders o{std::log2(err[0] / err[1]), std::log2(err[1] / err[2])};
  BOOST_TEST_MESSAGE(p.id << " observed orders " << o.coarse << ", " << o.fine);
  return o;
}

}  // namespace

BOOST_AUTO_TEST_CASE(min_call_within_half_a_percent_at_n200) {
  const Product p = resolve_product("min-call");
  const PriceResult r = price_explicit(p, 200);
  BOOST_TEST_MESSAGE("min-call n=200 nt=" << r.time_steps << " price=" << r.price
                                          << " closed form=" << *closed_form_price(p)
                                          << " rel error=" << relative_error(p, r));
  BOOST_CHECK_LT(relative_error(p, r), 0.005);
}

BOOST_AUTO_TEST_CASE(european_call_within_a_tenth_of_a_percent_at_n400) {
  const Product p = resolve_product("european-call");
  const PriceResult r = price_explicit(p, 400);
  BOOST_TEST_MESSAGE("european-call n=400 nt=" << r.time_steps << " price=" << r.price
                                               << " closed form=" << *closed_form_price(p)
                                               << " rel error=" << relative_error(p, r));
  BOOST_CHECK_LT(relative_error(p, r), 0.001);
}

// Uniform meshes on [0, 4 K] with K and the spot on a node (n - 1 divisible by 4), each with half
// the spacing of the last: the payoff kink sits on the grid at every level, so the error is the
// scheme's, not the kink's position. The 1-D case is cheap enough to start one level finer.
BOOST_AUTO_TEST_CASE(european_call_converges_at_second_order) {
  const ObservedOrders o = observed_orders(resolve_product("european-call"), {81, 161, 321});
  BOOST_CHECK_GT(o.coarse, 1.5);
  BOOST_CHECK_GT(o.fine, 1.5);
  BOOST_CHECK_LT(o.fine, 2.5);
}

BOOST_AUTO_TEST_CASE(min_call_converges_at_second_order) {
  const ObservedOrders o = observed_orders(resolve_product("min-call"), {41, 81, 161});
  BOOST_CHECK_GT(o.coarse, 1.5);
  BOOST_CHECK_GT(o.fine, 1.5);
  BOOST_CHECK_LT(o.fine, 2.5);
}

BOOST_AUTO_TEST_CASE(refuses_an_unstable_time_step_and_names_a_stable_one) {
  const Product p = resolve_product("european-call");
  int suggested = 0;
  try {
    price_explicit(p, 200, 20);
    BOOST_ERROR("explicit accepted 20 steps on a 200-node mesh");
  } catch (const SolverError& e) {
    BOOST_CHECK(e.kind() == SolverError::Kind::Unstable);
    const std::string what = e.what();
    std::smatch m;
    BOOST_REQUIRE_MESSAGE(std::regex_search(what, m, std::regex("--nt ([0-9]+)")),
                          "no stable --nt suggested in: " << what);
    suggested = std::stoi(m[1].str());
    BOOST_TEST_MESSAGE("refusal: " << what);
  }
  BOOST_REQUIRE_GT(suggested, 20);
  // The suggestion is stable: it prices, and close to the closed form.
  const PriceResult r = price_explicit(p, 200, suggested);
  BOOST_CHECK_EQUAL(r.time_steps, static_cast<std::size_t>(suggested));
  BOOST_CHECK_LT(relative_error(p, r), 0.005);
  // One step fewer is not, or the suggestion was not the least stable count.
  BOOST_CHECK_THROW(price_explicit(p, 200, suggested - 1), SolverError);
}

BOOST_AUTO_TEST_CASE(nt_auto_picks_a_stable_step) {
  const Product p = resolve_product("min-call");
  const PriceResult r = price_explicit(p, 60);
  BOOST_CHECK_GT(r.time_steps, 0u);
  BOOST_CHECK(std::isfinite(r.price));
  BOOST_CHECK_LT(relative_error(p, r), 0.05);
}
