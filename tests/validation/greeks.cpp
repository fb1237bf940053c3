// Greeks a risk team reads, against the closed forms of the validation products: delta and gamma
// from the grid, vega and rho by bump-and-reprice on the same grid, theta from one time step.
// ADI (Hundsdorfer–Verwer), default time steps (n/2 per year). Tolerances are relative, stated per
// Greek, two to five times the error measured at commit time (printed by --log_level=message):
// call n = 200: delta 1.0e-4, gamma 2.0e-4, vega 3.4e-5, rho 2.4e-5, theta 2.3e-3;
// min call n = 100: 5.6e-4, 6.7e-3, 3.1e-3, 4.0e-4, 5.0e-3; max call: 3.4e-4, 3.2e-4, 4.7e-4,
// 5.5e-4, 4.4e-3; exchange: delta 4.8e-4, vega 1.1e-3, theta 6.8e-3, rho -0.032 against 0.
// Theta is a one-step forward difference in time (first order in dt), hence its wider tolerance.
#include <boost/test/unit_test.hpp>
#include <cmath>

#include "products/catalog.hpp"
#include "reference/closed_form_greeks.hpp"
#include "products/product_bumps.hpp"
#include "solvers/contract/accuracy.hpp"
#include "solvers/contract/risk_greeks.hpp"
#include "solvers/contract/solver.hpp"

using namespace elsbench;

namespace {

struct Tolerances {
  double delta, gamma, vega, rho, theta;  // relative to the closed form's value
};

void check(const std::string& id, int n, const Tolerances& tol) {
  const Product p = resolve_product(id);
  const SolverInfo& adi = SolverRegistry::instance().get("adi");
  SolverOptions o;
  o.grid.n = n;
  PriceResult r = price_with(adi, p, o);
  add_risk_greeks(adi, p, o, r);
  const ClosedFormGreeks g = closed_form_greeks(p).value();
  const auto rel = [](double got, double want) { return std::abs(got - want) / std::abs(want); };
  for (int i = 0; i < p.dimension(); ++i) {
    const auto a = static_cast<std::size_t>(i);
    BOOST_TEST_MESSAGE(id << " asset " << i << ": delta " << r.delta[a] << " vs " << g.delta[a] << ", gamma "
                          << r.gamma[a] << " vs " << g.gamma[a] << ", vega " << r.greeks->vega[a] << " vs "
                          << g.vega[a]);
    BOOST_TEST(rel(r.delta[a], g.delta[a]) <= tol.delta, id << " delta " << i);
    BOOST_TEST(rel(r.gamma[a], g.gamma[a]) <= tol.gamma, id << " gamma " << i);
    BOOST_TEST(rel(r.greeks->vega[a], g.vega[a]) <= tol.vega, id << " vega " << i);
  }
  BOOST_TEST_MESSAGE(id << ": rho " << r.greeks->rho << " vs " << g.rho << ", theta " << r.greeks->theta << " vs "
                        << g.theta << " (dt " << r.greeks->theta_dt << ")");
  BOOST_TEST(rel(r.greeks->rho, g.rho) <= tol.rho, id << " rho");
  BOOST_TEST(rel(r.greeks->theta, g.theta) <= tol.theta, id << " theta");
  BOOST_TEST(r.greeks->vol_bump == 0.01);
  BOOST_TEST(r.greeks->rate_bump == 1e-4);
}

}  // namespace

BOOST_AUTO_TEST_CASE(black_scholes_call_greeks_on_the_grid) { check("european-call", 200, {5e-4, 1e-3, 2e-4, 1e-4, 1e-2}); }
BOOST_AUTO_TEST_CASE(stulz_min_call_greeks) { check("min-call", 100, {2e-3, 2e-2, 1e-2, 2e-3, 2e-2}); }
BOOST_AUTO_TEST_CASE(stulz_max_call_greeks) { check("max-call", 100, {2e-3, 2e-2, 1e-2, 2e-3, 2e-2}); }
BOOST_AUTO_TEST_CASE(margrabe_exchange_greeks) {
  // Margrabe's rho is zero (no carry difference): checked absolutely instead.
  const Product p = resolve_product("exchange");
  const SolverInfo& adi = SolverRegistry::instance().get("adi");
  SolverOptions o;
  o.grid.n = 100;
  PriceResult r = price_with(adi, p, o);
  add_risk_greeks(adi, p, o, r);
  const ClosedFormGreeks g = closed_form_greeks(p).value();
  BOOST_TEST_MESSAGE("exchange: delta " << r.delta[0] << "," << r.delta[1] << " vs " << g.delta[0] << "," << g.delta[1]
                                        << "; vega " << r.greeks->vega[0] << "," << r.greeks->vega[1] << " vs "
                                        << g.vega[0] << "," << g.vega[1] << "; rho " << r.greeks->rho << " vs "
                                        << g.rho << "; theta " << r.greeks->theta << " vs " << g.theta);
  for (std::size_t a = 0; a < 2; ++a) {
    BOOST_TEST(std::abs(r.delta[a] - g.delta[a]) <= 2e-3 * std::abs(g.delta[a]));
    BOOST_TEST(std::abs(r.greeks->vega[a] - g.vega[a]) <= 4e-3 * std::abs(g.vega[a]));
  }
  BOOST_TEST(std::abs(r.greeks->rho - g.rho) <= 0.1);  // measured -0.032 (grid noise of the bumped prices)
  BOOST_TEST(std::abs(r.greeks->theta - g.theta) <= 2e-2 * std::abs(g.theta));
}

// Richardson's value (price's default grid): each Greek the same combination of its fine and coarse
// values as the price. Theta was the aged note on the fine grid against the extrapolated price,
// theta plus the grid's error over one step: the sample ELS 18.84 against 12.10 on plain grids.
namespace {

PriceResult richardson_with_greeks(const Product& p, SolverOptions o) {
  const SolverInfo& adi = SolverRegistry::instance().get("adi");
  o.grid.n = default_nodes(p);
  PriceResult r = price_extrapolated(adi, p, o);
  add_risk_greeks(adi, p, o, r);
  return r;
}

// The default price with its error bar.
PriceResult default_price(const Product& p) {
  SolverOptions o;
  o.grid.n = default_nodes(p);
  return price_with_bound(SolverRegistry::instance().get("adi"), p, o);
}

}  // namespace

BOOST_AUTO_TEST_CASE(richardson_greeks_of_the_min_call_meet_the_closed_form) {
  const Product p = resolve_product("min-call");
  const PriceResult r = richardson_with_greeks(p, SolverOptions{});
  const ClosedFormGreeks g = closed_form_greeks(p).value();
  BOOST_TEST_MESSAGE("min call, Richardson: theta " << r.greeks->theta << " vs " << g.theta << ", rho " << r.greeks->rho
                                                    << " vs " << g.rho << ", vega " << r.greeks->vega[0] << " vs "
                                                    << g.vega[0]);
  BOOST_TEST(std::abs(r.greeks->theta - g.theta) <= 2e-2 * std::abs(g.theta));
  BOOST_TEST(std::abs(r.greeks->rho - g.rho) <= 2e-3 * std::abs(g.rho));
  for (std::size_t a = 0; a < 2; ++a) BOOST_TEST(std::abs(r.greeks->vega[a] - g.vega[a]) <= 1e-2 * std::abs(g.vega[a]));
}

// Each side of a bump a whole default pricing (its own grid and steps): the Greek within the two
// bars over the bump, and a hundredth of itself for the difference's own curvature. On the
// one-asset catalog note, where a default pricing is cheap enough for the sanitizer run.
BOOST_AUTO_TEST_CASE(richardson_greeks_equal_bumps_of_the_default_price_within_its_bars) {
  const Product p = resolve_product("els-1a-stepdown");
  const PriceResult r = richardson_with_greeks(p, SolverOptions{});
  const auto within = [](double greek, const PriceResult& up, const PriceResult& down, double width) {
    const double bump = (up.price - down.price) / width;
    const double bar = (*up.accuracy->bound + *down.accuracy->bound) / width + 0.01 * std::abs(bump);
    BOOST_TEST_MESSAGE("greek " << greek << ", bump " << bump << ", bar " << bar);
    return std::abs(greek - bump) <= bar;
  };
  const double h = 0.01, days = 5.0 / 365.0;
  BOOST_TEST(within(r.greeks->vega[0], default_price(with_vol(p, 0, p.assets[0].vol + h)),
                    default_price(with_vol(p, 0, p.assets[0].vol - h)), 2 * h));
  BOOST_TEST(within(r.greeks->rho, default_price(with_rate(p, p.rate + h)), default_price(with_rate(p, p.rate - h)), 2 * h));
  BOOST_TEST(within(r.greeks->theta, default_price(aged(p, days)), default_price(p), days), "theta " << r.greeks->theta);
}

// The sample ELS's theta was 18.84 under Richardson (n = 144 and 72) against 12.10 on the plain
// n = 144 grid: the aged note on the fine grid set against the extrapolated price. Checked on
// n = 72 and 36 (a quarter of the work, for the sanitizer run): the error is there at any n.
BOOST_AUTO_TEST_CASE(richardson_theta_of_the_sample_els_is_a_grid_s_theta) {
  const Product p = resolve_product("sample-2a-stepdown");
  const SolverInfo& adi = SolverRegistry::instance().get("adi");
  SolverOptions o;
  o.grid.n = 72;
  PriceResult r = price_extrapolated(adi, p, o), plain = price_with(adi, p, o);
  add_risk_greeks(adi, p, o, r);
  add_risk_greeks(adi, p, o, plain);
  BOOST_TEST_MESSAGE("theta: Richardson " << r.greeks->theta << ", plain " << plain.greeks->theta);
  BOOST_TEST(std::abs(r.greeks->theta - plain.greeks->theta) <= 0.02 * std::abs(plain.greeks->theta),
             r.greeks->theta << " against " << plain.greeks->theta);
}

BOOST_AUTO_TEST_CASE(desk_units_are_the_model_s_per_vol_point_per_basis_point_per_calendar_day) {
  // A desk reads vega per vol point, rho per basis point, theta per day (issue 47).
  const Product p = resolve_product("european-call");
  const SolverInfo& adi = SolverRegistry::instance().get("adi");
  SolverOptions o;
  o.grid.n = 100;
  PriceResult model = price_with(adi, p, o), desk = model;
  add_risk_greeks(adi, p, o, model);
  add_risk_greeks(adi, p, o, desk, {}, GreekUnits::Desk);
  BOOST_TEST((model.greeks->units == GreekUnits::Model && desk.greeks->units == GreekUnits::Desk));
  BOOST_TEST(desk.greeks->vega[0] == model.greeks->vega[0] * 0.01);
  BOOST_TEST(desk.greeks->rho == model.greeks->rho * 1e-4);
  BOOST_TEST(desk.greeks->theta == model.greeks->theta / 365.0);
  BOOST_TEST(std::string(units_text(GreekUnits::Desk)) == "vega per vol point, rho per basis point, theta per calendar day");
  BOOST_CHECK_THROW(parse_greek_units("trader"), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(theta_of_a_note_observed_sooner_than_a_step_ages_it_half_way_there) {
  // A desk's note observed in a week was refused its theta: one step of its grid aged it past
  // the date ("ageing by dt moves a date to or before today"). Now it ages by half the time to
  // the date, on the same steps, and its theta is that pricing's difference.
  Product p = resolve_product("els-1a-stepdown");
  p.els().knocked_in = true;  // no daily monitoring to pin the steps: about n / 2 a year
  const double first = 7.0 / 365.0;
  for (std::size_t k = 0; k < p.els().autocall.size(); ++k) p.els().autocall[k].time += first - p.els().autocall[0].time;
  const SolverInfo& adi = SolverRegistry::instance().get("adi");
  SolverOptions o;
  o.grid.n = 100;
  PriceResult r = price_with(adi, p, o);
  BOOST_REQUIRE(p.maturity() / static_cast<double>(r.nt) > first);  // a step is longer than a week
  add_risk_greeks(adi, p, o, r);
  const double half = p.els().autocall[0].time / 2;
  BOOST_TEST(r.greeks->theta_dt == half);
  o.grid.nt = static_cast<int>(r.nt);
  BOOST_TEST(r.greeks->theta == (price_with(adi, aged(p, half), o).price - r.price) / half);
}

BOOST_AUTO_TEST_CASE(cross_gamma_is_the_change_of_one_delta_with_the_other_spot) {
  // d2V / dS1 dS2 from the grid's stencils against a central difference of delta_1 in S2, on the
  // same mesh (spots below the references leave S_max, so the nodes, where they are).
  Product p = resolve_product("sample-2a-stepdown");
  for (auto& a : p.assets) a.spot = 95.0;
  const SolverInfo& adi = SolverRegistry::instance().get("adi");
  SolverOptions o;
  o.grid.n = 100;
  const PriceResult r = price_with(adi, p, o);
  BOOST_TEST_REQUIRE(r.cross_gamma.size() == 1u);
  const double h = 0.5;
  const double up = price_with(adi, with_spot(p, 1, 95.0 + h), o).delta[0];
  const double down = price_with(adi, with_spot(p, 1, 95.0 - h), o).delta[0];
  const double bumped = (up - down) / (2 * h);
  BOOST_TEST_MESSAGE("cross gamma " << r.cross_gamma[0] << ", bumped delta " << bumped);
  BOOST_TEST(r.cross_gamma[0] == bumped, boost::test_tools::tolerance(1e-3));  // 4e-5 apart at n = 100
  // Richardson's value carries it as it carries gamma; a one-asset note has none.
  BOOST_TEST(price_extrapolated(adi, p, o).cross_gamma.size() == 1u);
  BOOST_TEST(price_with(adi, resolve_product("els-1a-stepdown"), o).cross_gamma.empty());
}
