#pragma once
// Standard normal and bivariate standard normal distribution functions, to about 1e-15 absolute:
// the closed forms are the yardstick every solver is judged by, so they must be exact to far
// below any discretisation error.
namespace elsbench {

// P(X <= x), X ~ N(0, 1).
double normal_cdf(double x);
// Standard normal density.
double normal_pdf(double x);

// M(a, b; rho) = P(X <= a, Y <= b) for standard normals X, Y with correlation rho in [-1, 1].
// Drezner–Wesolowsky's integral in the form of Genz (2004), with Gauss–Legendre quadrature; the
// |rho| -> 1 range uses Genz's expansion around the singular limit.
double bivariate_normal_cdf(double a, double b, double rho);

}  // namespace elsbench
