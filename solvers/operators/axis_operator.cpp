#include "solvers/operators/axis_operator.hpp"

namespace elsbench {
namespace {

struct Weights {
  double m, c, p;
};

Weights first_derivative(double hm, double hp) {
  return {-hp / (hm * (hm + hp)), (hp - hm) / (hm * hp), hm / (hp * (hm + hp))};
}

Weights second_derivative(double hm, double hp) {
  return {2.0 / (hm * (hm + hp)), -2.0 / (hm * hp), 2.0 / (hp * (hm + hp))};
}

Tridiagonal zeros(std::size_t n) {
  return {std::vector<double>(n, 0.0), std::vector<double>(n, 0.0), std::vector<double>(n, 0.0)};
}

}  // namespace

Tridiagonal axis_operator(const std::vector<double>& s, double vol, double drift, double reaction) {
  const std::size_t n = s.size();
  Tridiagonal a = zeros(n);
  a.diag[0] = -reaction;
  for (std::size_t i = 1; i + 1 < n; ++i) {
    const double hm = s[i] - s[i - 1], hp = s[i + 1] - s[i];
    const Weights d1 = first_derivative(hm, hp), d2 = second_derivative(hm, hp);
    const double diffusion = 0.5 * vol * vol * s[i] * s[i], convection = drift * s[i];
    a.lower[i] = diffusion * d2.m + convection * d1.m;
    a.diag[i] = diffusion * d2.c + convection * d1.c - reaction;
    a.upper[i] = diffusion * d2.p + convection * d1.p;
  }
  const double h = s[n - 1] - s[n - 2], convection = drift * s[n - 1];
  a.lower[n - 1] = -convection / h;
  a.diag[n - 1] = convection / h - reaction;
  return a;
}

Tridiagonal scaled_first_derivative(const std::vector<double>& s) {
  const std::size_t n = s.size();
  Tridiagonal d = zeros(n);
  for (std::size_t i = 1; i + 1 < n; ++i) {
    const Weights w = first_derivative(s[i] - s[i - 1], s[i + 1] - s[i]);
    d.lower[i] = s[i] * w.m;
    d.diag[i] = s[i] * w.c;
    d.upper[i] = s[i] * w.p;
  }
  const double h = s[n - 1] - s[n - 2];
  d.lower[n - 1] = -s[n - 1] / h;
  d.diag[n - 1] = s[n - 1] / h;
  return d;
}

}  // namespace elsbench
