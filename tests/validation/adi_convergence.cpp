// The ADI family against closed forms and against the other solvers on the same discretisation.
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <utility>

#include "products/catalog.hpp"
#include "reference/closed_form.hpp"
#include "solvers/contract/solver.hpp"
#include "solvers/schemes/adi_scheme.hpp"

using namespace elsbench;

namespace {

PriceResult price(const std::string& solver, const std::string& product, int n, std::optional<int> nt,
                  const std::string& scheme = "", int threads = 1) {
  SolverOptions o;
  o.scheme = scheme;
  o.grid.n = n;
  o.grid.nt = nt;
  o.device = parse_device("cpu");
  o.device.threads = threads;
  return price_with(SolverRegistry::instance().get(solver), resolve_product(product), o);
}

// Observed order from errors at n and 2n (time steps proportional to n).
double observed_order(const std::string& product, const std::string& scheme, int n) {
  const double exact = *closed_form_price(resolve_product(product));
  const double coarse = std::abs(price("adi", product, n, n, scheme).price - exact);
  const double fine = std::abs(price("adi", product, 2 * n, 2 * n, scheme).price - exact);
  const double order = std::log2(coarse / fine);
  BOOST_TEST_MESSAGE(product << " " << scheme << ": error " << coarse << " at n=" << n << ", " << fine
                             << " at n=" << 2 * n << ", observed order " << order);
  return order;
}

}  // namespace

BOOST_AUTO_TEST_CASE(second_order_schemes_converge_at_second_order_on_the_min_call) {
  for (const char* scheme : {"hundsdorfer-verwer", "modified-craig-sneyd", "craig-sneyd"})
    BOOST_TEST(observed_order("min-call", scheme, 80) > 1.6, scheme);
}

BOOST_AUTO_TEST_CASE(second_order_schemes_converge_at_second_order_on_the_max_call) {
  for (const char* scheme : {"hundsdorfer-verwer", "modified-craig-sneyd", "craig-sneyd"})
    BOOST_TEST(observed_order("max-call", scheme, 80) > 1.6, scheme);
}

BOOST_AUTO_TEST_CASE(douglas_is_first_order_in_time_with_a_mixed_term) {
  // theta = 1/2 Douglas treats the mixed term explicitly and is then only first order in dt.
  const double order = observed_order("min-call", "douglas", 80);
  BOOST_TEST(order > 0.5);  // measured 0.75: first order in dt, second in h, at nt = n
  BOOST_TEST(order < 1.6);
}

BOOST_AUTO_TEST_CASE(every_scheme_converges_on_the_two_asset_digital) {
  const double exact = *closed_form_price(resolve_product("cash-or-nothing-2"));
  for (const auto& scheme : adi_scheme_names()) {
    const double e50 = std::abs(price("adi", "cash-or-nothing-2", 50, 100, scheme).price - exact);
    const double e200 = std::abs(price("adi", "cash-or-nothing-2", 200, 400, scheme).price - exact);
    BOOST_TEST_MESSAGE("cash-or-nothing-2 " << scheme << ": error " << e50 << " at n=50, " << e200 << " at n=200");
    BOOST_TEST(e200 < e50, scheme);
    BOOST_TEST(e200 < 1e-3 * exact, scheme);  // 0.1 % of the price at n = 200
    // Over n = 50 -> 200 (nt = 2n) measured 1.43 (HV, MCS, CS) and 1.86 (Douglas): the jumps are
    // cell-averaged, so the digital does not fall back to first order.
    const double order = std::log(e50 / e200) / std::log(4.0);
    BOOST_TEST_MESSAGE("  observed order " << order);
    BOOST_TEST(order > 1.2, scheme);
  }
}

BOOST_AUTO_TEST_CASE(thread_count_does_not_change_the_price) {
  // Two threads give the ELS's layers one each; three and four share a layer's two parts between
  // threads (the min call's one layer from two on), whose join one of them makes. The grids are
  // large enough for the march to be threaded (4,096 values).
  const std::pair<const char*, int> cases[] = {{"sample-2a-stepdown", 72}, {"min-call", 72}, {"els-3a-stepdown", 18}};
  for (const auto& [product, n] : cases) {
    const PriceResult one = price("adi", product, n, std::nullopt, "", 1);
    for (const int threads : {2, 3, 4}) {
      const PriceResult many = price("adi", product, n, std::nullopt, "", threads);
      BOOST_TEST(one.price == many.price, product << " on " << threads);  // bit for bit
      BOOST_TEST(one.delta == many.delta, product << " on " << threads);
    }
  }
}

BOOST_AUTO_TEST_CASE(adi_agrees_with_cn_direct_and_explicit_on_the_sample_els_as_the_grid_is_refined) {
  // Same mesh and events; the three differ in time discretisation (and ADI in splitting), so
  // their differences must shrink when the time step does.
  double previous_gap = INFINITY;
  for (int nt : {756, 1512}) {
    const double adi = price("adi", "sample-2a-stepdown", 40, nt).price;
    const double cn = price("cn-direct", "sample-2a-stepdown", 40, nt).price;
    const double gap = std::abs(adi - cn);
    BOOST_TEST_MESSAGE("sample ELS n=40 nt=" << nt << ": adi " << adi << ", cn-direct " << cn);
    BOOST_TEST(gap < 0.05);
    BOOST_TEST(gap <= previous_gap);
    previous_gap = gap;
  }
  // Explicit Euler is first order in time: its gap to a time-converged ADI halves with the step.
  const double adi = price("adi", "sample-2a-stepdown", 40, 3024).price;
  const double expl = price("explicit", "sample-2a-stepdown", 40, 3024).price;
  const double expl_fine = price("explicit", "sample-2a-stepdown", 40, 6048).price;
  BOOST_TEST_MESSAGE("sample ELS n=40: adi (nt 3024) " << adi << ", explicit (nt 3024, 6048) " << expl << ", " << expl_fine);
  BOOST_TEST(std::abs(adi - expl) < 0.05);
  BOOST_TEST(std::abs(adi - expl_fine) < 0.6 * std::abs(adi - expl));
}
