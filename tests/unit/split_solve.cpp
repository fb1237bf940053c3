// The last axis's split stage (split_solve.hpp): each layer's lines eliminated from both ends
// toward node m and joined there. Checked against the system itself, (I - theta dt A) y = z + g f
// and z + g A v, for lines split and not, several lines per layer and layers; a part's nodes
// eliminated a few at a time (as the ADI stage does, right after their rows) must give the
// values of the part eliminated at once, to the bit, and the split solve must agree with the
// unsplit one to rounding.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "products/catalog.hpp"
#include "solvers/operators/axis_operator.hpp"
#include "solvers/problem/problem_builder.hpp"
#include "solvers/tridiagonal/split_solve.hpp"

namespace elsbench {
namespace {

constexpr double kThetaDt = 0.8 / 365.0;

Tridiagonal line_operator(std::size_t n) {
  std::vector<double> s(n);
  for (std::size_t i = 0; i < n; ++i) s[i] = 300.0 * std::pow(static_cast<double>(i) / static_cast<double>(n - 1), 1.3);
  return axis_operator(s, 0.3, 0.02, 0.03);
}

LayerParts parts_of(std::size_t n, std::size_t lines, std::size_t layers, bool split) {
  LayerParts lp;
  lp.layers = layers;
  lp.n = n;
  lp.stride = lines;
  lp.points = n * lines;
  lp.split = split ? n / 2 : 0;
  return lp;
}

template <class T>
struct Case {
  LayerParts lp;
  Tridiagonal op;
  std::vector<T> lower, diag, upper, z, f, v;
  LineFactorsT<T> top;
  SplitFactorsT<T> low;
  StageRhs<T> rhs;

  Case(std::size_t n, std::size_t lines, bool split, bool stencil) : lp(parts_of(n, lines, 2, split)), op(line_operator(n)) {
    lower.assign(op.lower.begin(), op.lower.end());
    diag.assign(op.diag.begin(), op.diag.end());
    upper.assign(op.upper.begin(), op.upper.end());
    const LineFactors f64 = factor_axis(op, kThetaDt);
    const SplitFactors s64 = factor_split(op, kThetaDt, f64, lp.split);
    if constexpr (std::is_same_v<T, double>) {
      top = f64;
      low = s64;
    } else {
      top = to_fp32(f64);
      low = to_fp32(s64);
    }
    std::mt19937 rng(static_cast<unsigned>(n * 131 + lines * 7));
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    const std::size_t size = lp.layers * lp.points;
    z.resize(size);
    f.resize(size);
    v.resize(size);
    for (std::size_t k = 0; k < size; ++k) {
      z[k] = static_cast<T>(100.0 * u(rng));
      f[k] = static_cast<T>(1000.0 * u(rng));
      v[k] = static_cast<T>(100.0 * u(rng));
    }
    rhs.z = z.data();
    rhs.g = static_cast<T>(-kThetaDt);
    if (stencil) {
      rhs.v = v.data();
      rhs.op = {lower.data(), diag.data(), upper.data()};
    } else {
      rhs.f = f.data();
    }
  }

  // Each part's nodes eliminated `chunk` at a time in the part's order (all at once: chunk 0),
  // every part of every layer, then every join.
  std::vector<T> solve(std::size_t chunk) const {
    std::vector<T> y(z.size()), edges(2 * lp.layers * lp.stride);
    for (std::size_t layer = 0; layer < lp.layers; ++layer)
      for (std::size_t part = 0; part < lp.parts(); ++part) {
        const auto [lo, hi] = lp.nodes(part);
        const std::size_t step = chunk ? chunk : hi - lo, blocks = (hi - lo + step - 1) / step;
        for (std::size_t k = 0; k < blocks; ++k) {
          const std::size_t a = lo + (part == 0 ? k : blocks - 1 - k) * step;
          eliminate_nodes(lp, top, low, rhs, y.data(), layer, part, a, std::min(hi, a + step),
                          edges.data() + (2 * layer + part) * lp.stride);
        }
      }
    for (std::size_t layer = 0; layer < lp.layers; ++layer)
      for (std::size_t part = 0; part < lp.parts(); ++part) {
        join_part(lp, top, low, y.data(), layer, part, edges.data() + 2 * layer * lp.stride,
                  edges.data() + (2 * layer + 1) * lp.stride);
        substitute_part(lp, top, low, y.data(), layer, part);
      }
    return y;
  }

  // The largest |(I - theta dt A) y - rhs| relative to 1 + |rhs|.
  double worst_residual(const std::vector<T>& y) const {
    double worst = 0;
    const std::size_t n = lp.n, s = lp.stride;
    for (std::size_t layer = 0; layer < lp.layers; ++layer)
      for (std::size_t l = 0; l < s; ++l)
        for (std::size_t i = 0; i < n; ++i) {
          const std::size_t at = layer * lp.points + i * s + l;
          const auto node = [&](const std::vector<T>& a, std::size_t j) {
            return static_cast<double>(a[layer * lp.points + j * s + l]);
          };
          const auto apply = [&](const std::vector<T>& a) {
            double r = op.diag[i] * node(a, i);
            if (i > 0) r += op.lower[i] * node(a, i - 1);
            if (i + 1 < n) r += op.upper[i] * node(a, i + 1);
            return r;
          };
          const double g = -kThetaDt;
          const double rhs_i = z[at] + g * (rhs.v ? apply(v) : static_cast<double>(f[at]));
          worst = std::max(worst, std::abs(node(y, i) - kThetaDt * apply(y) - rhs_i) / (1.0 + std::abs(rhs_i)));
        }
    return worst;
  }
};

template <class T>
void check(std::size_t n, std::size_t lines, bool split, bool stencil, double tolerance) {
  const Case<T> c(n, lines, split, stencil);
  const std::vector<T> whole = c.solve(0);
  for (std::size_t chunk : {1, 3, 16})
    BOOST_TEST((c.solve(chunk) == whole), "n " << n << " lines " << lines << " split " << split << " chunk " << chunk
                                               << ": differs from the parts eliminated at once");
  const double r = c.worst_residual(whole);
  BOOST_TEST(r < tolerance, "n " << n << " lines " << lines << " split " << split << " stencil " << stencil << ": " << r);
}

}  // namespace

BOOST_AUTO_TEST_CASE(split_stage_satisfies_the_system_in_any_chunks_of_nodes) {
  for (std::size_t n : {16, 17, 40, 101})
    for (std::size_t lines : {1, 5, 33, 70})
      for (bool split : {false, true})
        for (bool stencil : {false, true}) {
          check<double>(n, lines, split, stencil, 1e-12);
          check<float>(n, lines, split, stencil, 1e-4);
        }
}

BOOST_AUTO_TEST_CASE(split_and_unsplit_solves_agree_to_rounding) {
  for (std::size_t n : {16, 101, 400}) {
    const Case<double> whole(n, 9, false, true), split(n, 9, true, true);
    const std::vector<double> a = whole.solve(0), b = split.solve(0);
    double worst = 0, scale = 0;
    for (std::size_t k = 0; k < a.size(); ++k) {
      worst = std::max(worst, std::abs(a[k] - b[k]));
      scale = std::max(scale, std::abs(a[k]));
    }
    BOOST_TEST(worst <= 1e-13 * scale, "n " << n << ": " << worst << " of " << scale);
    BOOST_TEST((a != b || n < 16), "n " << n << ": the split changed no value (was it split?)");
  }
}

// A problem's own split: its last axis at about half the nodes (in 2-D on a row block's
// boundary), its layers; none for one asset.
BOOST_AUTO_TEST_CASE(a_problem_splits_its_last_axis) {
  GridOptions g;
  g.n = 40;
  const Problem two = build_problem(resolve_product("sample-2a-stepdown"), g);
  const LayerParts lp = layer_parts(two);
  BOOST_TEST(lp.n == two.axes[1].size());
  BOOST_TEST(lp.split % kRowsPerBlock == 0u);  // whole row blocks in the upper part
  BOOST_TEST(lp.split <= lp.n / 2);
  BOOST_TEST(lp.split + kRowsPerBlock > lp.n / 2);
  BOOST_TEST(lp.stride == two.axes[0].size());
  BOOST_TEST(lp.items() == 2u * static_cast<std::size_t>(two.layers));
  const Problem three = build_problem(resolve_product("els-3a-stepdown"), g);
  BOOST_TEST(layer_parts(three).stride == three.axes[0].size() * three.axes[1].size());
  const Problem one = build_problem(resolve_product("european-call"), g);
  BOOST_TEST(layer_parts(one).split == 0u);
}

}  // namespace elsbench
