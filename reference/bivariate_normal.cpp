#include "reference/bivariate_normal.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numbers>
#include <vector>

namespace elsbench {
namespace {

constexpr double kTwoPi = 2.0 * std::numbers::pi;

struct GaussLegendre {
  std::vector<double> nodes, weights;  // on [-1, 1]
};

// Nodes by Newton's method on the Legendre polynomial: exact to rounding, with no hand-typed
// tables to get wrong.
GaussLegendre gauss_legendre(int n) {
  GaussLegendre g;
  for (int i = 1; i <= n; ++i) {
    double x = std::cos(std::numbers::pi * (i - 0.25) / (n + 0.5));
    double dp = 0;
    for (int iter = 0; iter < 100; ++iter) {
      double p0 = 1, p1 = x;
      for (int k = 2; k <= n; ++k) {
        const double p2 = ((2.0 * k - 1) * x * p1 - (k - 1.0) * p0) / k;
        p0 = p1;
        p1 = p2;
      }
      dp = n * (x * p1 - p0) / (x * x - 1);
      const double step = p1 / dp;
      x -= step;
      if (std::abs(step) < 1e-16) break;
    }
    g.nodes.push_back(x);
    g.weights.push_back(2.0 / ((1 - x * x) * dp * dp));
  }
  return g;
}

// Genz's choice: more nodes as |rho| grows and the integrand sharpens.
const GaussLegendre& rule_for(double abs_rho) {
  static const std::array<GaussLegendre, 3> rules{gauss_legendre(6), gauss_legendre(12),
                                                  gauss_legendre(20)};
  if (abs_rho < 0.3) return rules[0];
  if (abs_rho < 0.75) return rules[1];
  return rules[2];
}

// P(X > h, Y > k) for |r| < 0.925: Drezner–Wesolowsky's integral over asin(r), which is smooth
// while r stays away from +-1.
double upper_moderate(double h, double k, double r, const GaussLegendre& g) {
  const double hk = h * k;
  const double hs = (h * h + k * k) / 2;
  const double asr = std::asin(r);
  double sum = 0;
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    const double sn = std::sin(asr * (g.nodes[i] + 1) / 2);
    sum += g.weights[i] * std::exp((sn * hk - hs) / (1 - sn * sn));
  }
  return sum * asr / (2 * kTwoPi) + normal_cdf(-h) * normal_cdf(-k);
}

// P(X > h, Y > k) for |r| >= 0.925: Genz's expansion around the singular limit r = +-1, where the
// integral above loses its accuracy; the remainder is integrated in sqrt(1 - r^2).
double upper_strong(double h, double k, double r, const GaussLegendre& g) {
  if (r < 0) k = -k;
  const double hk = h * k;
  double bvn = 0;
  if (std::abs(r) < 1) {
    const double as = (1 - r) * (1 + r);
    double a = std::sqrt(as);
    const double bs = (h - k) * (h - k);
    const double c = (4 - hk) / 8;
    const double d = (12 - hk) / 16;
    bvn = a * std::exp(-(bs / as + hk) / 2) *
          (1 - c * (bs - as) * (1 - d * bs / 5) / 3 + c * d * as * as / 5);
    if (hk > -160) {
      const double b = std::sqrt(bs);
      bvn -= std::exp(-hk / 2) * std::sqrt(kTwoPi) * normal_cdf(-b / a) * b *
             (1 - c * bs * (1 - d * bs / 5) / 3);
    }
    a /= 2;
    for (std::size_t i = 0; i < g.nodes.size(); ++i) {
      const double ax = a * (g.nodes[i] + 1);
      const double xs = ax * ax;
      const double rs = std::sqrt(1 - xs);
      const double asr = -(bs / xs + hk) / 2;
      if (asr > -100)
        bvn += a * g.weights[i] * std::exp(asr) *
               (std::exp(-hk * (1 - rs) / (2 * (1 + rs))) / rs - (1 + c * xs * (1 + d * xs)));
    }
    bvn = -bvn / kTwoPi;
  }
  if (r > 0) return bvn + normal_cdf(-std::max(h, k));
  return -bvn + std::max(0.0, normal_cdf(-h) - normal_cdf(-k));
}

}  // namespace

double normal_cdf(double x) { return 0.5 * std::erfc(-x / std::numbers::sqrt2); }

double normal_pdf(double x) { return std::exp(-0.5 * x * x) / std::sqrt(kTwoPi); }

double bivariate_normal_cdf(double a, double b, double rho) {
  if (std::isnan(a) || std::isnan(b) || std::isnan(rho) || std::abs(rho) > 1)
    return std::numeric_limits<double>::quiet_NaN();
  if (a == -INFINITY || b == -INFINITY) return 0.0;
  if (a == INFINITY) return normal_cdf(b);
  if (b == INFINITY) return normal_cdf(a);
  // P(X <= a, Y <= b) = P(-X > -a, -Y > -b), and (-X, -Y) has the same correlation.
  const GaussLegendre& g = rule_for(std::abs(rho));
  return std::abs(rho) < 0.925 ? upper_moderate(-a, -b, rho, g) : upper_strong(-a, -b, rho, g);
}

}  // namespace elsbench
