// Grids with a node count per axis (--n N1,N2[,N3]): one per axis changes nothing against a
// square grid, an oblong one converges like a square one to the closed form, and the axes are not
// mixed up (a note whose two assets are alike prices the same on N1,N2 and N2,N1).
#include <boost/test/unit_test.hpp>
#include <algorithm>
#include <cmath>

#include "products/catalog.hpp"
#include "reference/closed_form.hpp"
#include "solvers/contract/solver.hpp"

using namespace elsbench;

namespace {

PriceResult price(const std::string& solver, const std::string& product, std::vector<int> axes,
                  std::optional<int> nt, int threads = 1) {
  SolverOptions o;
  o.grid.n = *std::max_element(axes.begin(), axes.end());
  if (axes.size() > 1) o.grid.axis_nodes = axes;
  o.grid.nt = nt;
  o.device = parse_device("cpu");
  o.device.threads = threads;
  return price_with(SolverRegistry::instance().get(solver), resolve_product(product), o);
}

}  // namespace

BOOST_AUTO_TEST_CASE(equal_axis_nodes_price_as_the_square_grid_to_the_bit) {
  for (const char* solver : {"adi", "cn-direct"}) {
    const PriceResult square = price(solver, "sample-2a-stepdown", {40}, 80);
    const PriceResult axes = price(solver, "sample-2a-stepdown", {40, 40}, 80);
    BOOST_TEST(square.price == axes.price, solver);
    BOOST_TEST(square.delta == axes.delta, solver);
  }
  const PriceResult cube = price("adi", "els-3a-stepdown", {16}, 60);
  BOOST_TEST(cube.price == price("adi", "els-3a-stepdown", {16, 16, 16}, 60).price);
}

BOOST_AUTO_TEST_CASE(an_oblong_grid_has_as_many_points_as_its_axes_say) {
  const PriceResult r = price("adi", "min-call", {60, 40}, 40);
  BOOST_TEST(r.grid_points() == 60u * 40u);
  BOOST_TEST(price("adi", "els-3a-stepdown", {20, 16, 12}, 40).grid_points() == 20u * 16u * 12u);
}

BOOST_AUTO_TEST_CASE(the_axes_are_not_mixed_up) {
  // The min call's two assets are alike: swapping N1 and N2 mirrors the grid, and the price.
  for (const char* solver : {"adi", "cn-direct"}) {
    const double a = price(solver, "min-call", {64, 40}, 64).price;
    const double b = price(solver, "min-call", {40, 64}, 64).price;
    BOOST_TEST_MESSAGE(solver << " min call 64x40 " << a << ", 40x64 " << b);
    BOOST_TEST(std::abs(a - b) < 1e-9 * a, solver);
  }
}

BOOST_AUTO_TEST_CASE(an_oblong_grid_converges_at_second_order_like_a_square_one) {
  const double exact = *closed_form_price(resolve_product("min-call"));
  const auto error = [&](std::vector<int> axes) {
    const int n = *std::max_element(axes.begin(), axes.end());
    return std::abs(price("adi", "min-call", axes, n).price - exact);
  };
  const double oblong_coarse = error({80, 60}), oblong_fine = error({160, 120});
  const double order = std::log2(oblong_coarse / oblong_fine);
  BOOST_TEST_MESSAGE("min call: error " << oblong_coarse << " at 80x60, " << oblong_fine << " at 160x120, order "
                                        << order);
  BOOST_TEST(order > 1.6);
  // Between the square grids of its coarse and fine axes, as a second-order error in each should be.
  const double square_120 = error({120}), square_160 = error({160});
  BOOST_TEST_MESSAGE("square 120: " << square_120 << ", square 160: " << square_160);
  BOOST_TEST(oblong_fine <= square_120 * 1.05);
  BOOST_TEST(oblong_fine >= square_160 * 0.95);
}

BOOST_AUTO_TEST_CASE(oblong_grids_give_the_same_price_on_any_thread_count) {
  const double one = price("adi", "sample-2a-stepdown", {72, 56}, std::nullopt, 1).price;
  const double one_3a = price("adi", "els-3a-stepdown", {20, 18, 14}, std::nullopt, 1).price;
  for (const int threads : {2, 3}) {
    BOOST_TEST(price("adi", "sample-2a-stepdown", {72, 56}, std::nullopt, threads).price == one, threads);
    BOOST_TEST(price("adi", "els-3a-stepdown", {20, 18, 14}, std::nullopt, threads).price == one_3a, threads);
  }
}

BOOST_AUTO_TEST_CASE(a_grid_must_name_every_axis_or_one) {
  BOOST_CHECK_THROW(price("adi", "els-3a-stepdown", {20, 16}, 40), std::invalid_argument);
  BOOST_CHECK_THROW(price("adi", "european-call", {20, 16}, 40), std::invalid_argument);
}
