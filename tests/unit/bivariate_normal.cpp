// The bivariate normal CDF against exact identities and an independent quadrature: every Stulz
// and cash-or-nothing closed form, and so every validated solver, rests on it.
#include "reference/bivariate_normal.hpp"

#include <boost/math/quadrature/gauss_kronrod.hpp>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <numbers>
#include <vector>

using elsbench::bivariate_normal_cdf;
using elsbench::normal_cdf;
using elsbench::normal_pdf;

namespace {

const std::vector<double> kPoints{-7.0, -3.0, -1.5, -0.4, 0.0, 0.3, 1.2, 2.5, 6.0};
// Both sides of Genz's branch points (0.3, 0.75, 0.925) and the approach to +-1.
const std::vector<double> kCorrelations{
    -0.999999, -0.99, -0.95, -0.925, -0.92, -0.75, -0.74, -0.5,  -0.3, -0.29, -0.1,
    0.1,       0.29,  0.3,   0.5,    0.74,  0.75,  0.92,  0.925, 0.95, 0.99,  0.999999};

// P(X <= a, Y <= b) as the integral over x <= a of phi(x) P(Y <= b | X = x), split where the
// conditional probability has its steepest point so that adaptive quadrature resolves it.
double by_quadrature(double a, double b, double rho) {
  const double s = std::sqrt((1 - rho) * (1 + rho));
  const auto f = [&](double x) { return normal_pdf(x) * normal_cdf((b - rho * x) / s); };
  std::vector<double> cuts{-40.0};
  if (rho != 0 && b / rho > -40.0 && b / rho < a) cuts.push_back(b / rho);
  cuts.push_back(a);
  double total = 0;
  for (std::size_t i = 0; i + 1 < cuts.size(); ++i)
    total += boost::math::quadrature::gauss_kronrod<double, 61>::integrate(f, cuts[i], cuts[i + 1],
                                                                           12, 1e-15);
  return total;
}

}  // namespace

BOOST_AUTO_TEST_CASE(normal_cdf_matches_known_values) {
  BOOST_CHECK_EQUAL(normal_cdf(0.0), 0.5);
  // Phi(1.96) and the far tail, to 30 digits from mpmath.ncdf.
  BOOST_CHECK_SMALL(normal_cdf(1.96) - 0.975002104851779564, 1e-16);
  BOOST_CHECK_CLOSE(normal_cdf(-10.0), 7.6198530241605260660e-24, 1e-12);  // relative, in %
  for (double x : kPoints) BOOST_CHECK_SMALL(normal_cdf(x) + normal_cdf(-x) - 1.0, 2e-16);
}

BOOST_AUTO_TEST_CASE(orthant_probability_at_zero_is_exact) {
  // Sheppard: M(0, 0; rho) = 1/4 + asin(rho) / (2 pi), over every branch of the algorithm.
  for (int i = -1000; i <= 1000; ++i) {
    const double rho = i / 1000.0;
    BOOST_CHECK_SMALL(
        bivariate_normal_cdf(0, 0, rho) - (0.25 + std::asin(rho) / (2 * std::numbers::pi)), 1e-15);
  }
}

BOOST_AUTO_TEST_CASE(independence_gives_the_product) {
  for (double a : kPoints)
    for (double b : kPoints)
      BOOST_CHECK_SMALL(bivariate_normal_cdf(a, b, 0.0) - normal_cdf(a) * normal_cdf(b), 1e-16);
}

BOOST_AUTO_TEST_CASE(perfect_correlation_limits) {
  for (double a : kPoints)
    for (double b : kPoints) {
      BOOST_CHECK_EQUAL(bivariate_normal_cdf(a, b, 1.0), normal_cdf(std::min(a, b)));
      BOOST_CHECK_SMALL(
          bivariate_normal_cdf(a, b, -1.0) - std::max(0.0, normal_cdf(a) - normal_cdf(-b)), 1e-16);
      // Continuity into the limit: the gap closes like sqrt(1 - rho^2).
      BOOST_CHECK_SMALL(bivariate_normal_cdf(a, b, 1 - 1e-12) - normal_cdf(std::min(a, b)), 1e-6);
      BOOST_CHECK_SMALL(
          bivariate_normal_cdf(a, b, -1 + 1e-12) - std::max(0.0, normal_cdf(a) - normal_cdf(-b)),
          1e-6);
    }
}

BOOST_AUTO_TEST_CASE(symmetries_hold_across_branches) {
  for (double rho : kCorrelations)
    for (double a : kPoints)
      for (double b : kPoints) {
        BOOST_CHECK_SMALL(bivariate_normal_cdf(a, b, rho) - bivariate_normal_cdf(b, a, rho), 1e-15);
        // P(X <= a, Y <= b) + P(X <= a, Y > b) = P(X <= a), and (X, -Y) has correlation -rho.
        BOOST_CHECK_SMALL(
            bivariate_normal_cdf(a, b, rho) + bivariate_normal_cdf(a, -b, -rho) - normal_cdf(a),
            2e-15);
      }
}

BOOST_AUTO_TEST_CASE(agrees_with_direct_quadrature) {
  double worst = 0;
  for (double rho : kCorrelations) {
    if (std::abs(rho) > 0.99) continue;  // the quadrature, not M, loses accuracy beyond this
    for (double a : kPoints)
      for (double b : kPoints) {
        const double err = std::abs(bivariate_normal_cdf(a, b, rho) - by_quadrature(a, b, rho));
        worst = std::max(worst, err);
        BOOST_CHECK_SMALL(err, 1e-14);
      }
  }
  BOOST_TEST_MESSAGE("largest difference from quadrature: " << worst);
}

BOOST_AUTO_TEST_CASE(infinite_limits_reduce_to_one_dimension) {
  BOOST_CHECK_EQUAL(bivariate_normal_cdf(-INFINITY, 0.3, 0.5), 0.0);
  BOOST_CHECK_EQUAL(bivariate_normal_cdf(INFINITY, 0.3, 0.5), normal_cdf(0.3));
  BOOST_CHECK_EQUAL(bivariate_normal_cdf(0.3, INFINITY, -0.95), normal_cdf(0.3));
  BOOST_CHECK(std::isnan(bivariate_normal_cdf(0.0, 0.0, 1.5)));
}
