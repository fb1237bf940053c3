// The error bar of the default grid (Richardson's value, solvers/contract/accuracy.hpp) on notes
// of `book generate` (one and two underlyings; seeds fixed), judged against the same note on a
// grid refined twice (4x the nodes per axis) whose own bar is at most a fifth of the bar judged:
// |default - refined| <= bar + refined bar. Minutes on 2 cores: label slow (ctest -L slow).
#include <boost/test/unit_test.hpp>
#include <cmath>

#include "products/book_generator.hpp"
#include "solvers/contract/accuracy.hpp"
#include "solvers/contract/solver.hpp"

using namespace elsbench;

namespace {

SolverOptions at_nodes(int n) {
  SolverOptions o;
  o.grid.n = n;
  o.device.threads = 2;
  return o;
}

void check_notes(int assets, std::uint64_t seed, int notes) {
  const SolverInfo& adi = SolverRegistry::instance().get("adi");
  BookSpec spec;
  spec.notes = notes;
  spec.assets = assets;
  spec.seed = seed;
  int judged = 0;
  for (const Product& p : generate_book(spec)) {
    const int n = default_nodes(p.dimension());
    const PriceResult r = price_with_bound(adi, p, at_nodes(n));
    const PriceResult ref = price_with_bound(adi, p, at_nodes(4 * n));
    const double actual = r.price - ref.price, bar = *r.accuracy->bound, ref_bar = *ref.accuracy->bound;
    BOOST_TEST_MESSAGE(p.id << " (" << assets << " asset): default " << r.price << " +- " << bar << (r.accuracy->erratic ? " erratic" : "")
                            << ", refined (n = " << 4 * n << ") " << ref.price << " +- " << ref_bar << ", actual "
                            << actual << " (" << (actual != 0 ? bar / std::abs(actual) : 0) << "x)");
    if (ref_bar > bar / 5) {
      BOOST_TEST_MESSAGE("  not judged: the refined bar is above a fifth of the bar judged");
      continue;
    }
    ++judged;
    BOOST_TEST(std::abs(actual) <= bar + ref_bar, p.id << ": |" << actual << "| > " << bar << " + " << ref_bar);
  }
  BOOST_TEST(judged > 0);
}

}  // namespace

BOOST_AUTO_TEST_CASE(one_asset_notes) { check_notes(1, 11, 12); }
BOOST_AUTO_TEST_CASE(two_asset_notes) { check_notes(2, 12, 12); }
