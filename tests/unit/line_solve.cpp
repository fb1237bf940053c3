// The axis-0 stage's block solve (solve_rows): rows transposed in register tiles (4x4 doubles with
// AVX, 8x8 with AVX-512, 8x8 floats) with the elimination done on the way in and the substitution
// on the way out. Checked against the system itself, (I - theta dt A) y = z + g f, for every
// shape of block it meets: row counts in whole tiles and not (of either width),
// node counts in whole tiles, with a tail, and shorter than a tile, in fp64 and fp32.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "solvers/operators/axis_operator.hpp"
#include "solvers/tridiagonal/line_solve.hpp"

namespace elsbench {
namespace {

std::vector<double> mesh(std::size_t n) {
  std::vector<double> s(n);
  for (std::size_t i = 0; i < n; ++i) s[i] = 300.0 * std::pow(static_cast<double>(i) / static_cast<double>(n - 1), 1.3);
  return s;
}

template <class T>
LineFactorsT<T> factors(const LineFactors& f) {
  if constexpr (std::is_same_v<T, double>) {
    return f;
  } else {
    return to_fp32(f);
  }
}

// The largest |(I - theta dt A) y - (z + g f)| over every row, relative to the right-hand side.
template <class T>
double worst_residual(std::size_t n, std::size_t count, bool with_f) {
  const Tridiagonal op = axis_operator(mesh(n), 0.3, 0.02, 0.03);
  const double theta_dt = 0.8 / 365.0;
  const LineFactorsT<T> fac = factors<T>(factor_axis(op, theta_dt));
  std::mt19937 rng(static_cast<unsigned>(n * 31 + count));
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<T> z(n * count), f(n * count), y(n * count, T(-7)), buf(n * kRowsPerBlock);
  for (std::size_t k = 0; k < z.size(); ++k) {
    z[k] = static_cast<T>(100.0 * u(rng));
    f[k] = static_cast<T>(1000.0 * u(rng));
  }
  const T g = static_cast<T>(-theta_dt);
  solve_rows<T>(n, fac, count, z.data(), with_f ? f.data() : nullptr, g, y.data(), buf.data());
  double worst = 0;
  for (std::size_t l = 0; l < count; ++l)
    for (std::size_t i = 0; i < n; ++i) {
      const auto at = [&](std::size_t j) { return static_cast<double>(y[l * n + j]); };
      double ay = op.diag[i] * at(i);
      if (i > 0) ay += op.lower[i] * at(i - 1);
      if (i + 1 < n) ay += op.upper[i] * at(i + 1);
      const double rhs = z[l * n + i] + (with_f ? static_cast<double>(g) * f[l * n + i] : 0.0);
      worst = std::max(worst, std::abs(at(i) - theta_dt * ay - rhs) / (1.0 + std::abs(rhs)));
    }
  return worst;
}

}  // namespace

BOOST_AUTO_TEST_CASE(block_solve_satisfies_the_system_for_every_block_shape) {
  for (std::size_t n : {2, 3, 4, 5, 7, 8, 13, 64, 101})
    for (std::size_t count : {1, 3, 4, 5, 8, 9, 12, 16})
      for (bool with_f : {false, true}) {
        const double r64 = worst_residual<double>(n, count, with_f);
        const double r32 = worst_residual<float>(n, count, with_f);
        BOOST_TEST(r64 < 1e-12, "fp64 n " << n << " rows " << count << " f " << with_f << ": " << r64);
        BOOST_TEST(r32 < 1e-4, "fp32 n " << n << " rows " << count << " f " << with_f << ": " << r32);
      }
}

}  // namespace elsbench
