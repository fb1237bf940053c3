// The error bars on notes of `book generate` (seeds fixed): the default grid's (Richardson's value,
// solvers/contract/accuracy.hpp) and plain grids' (--error-estimate, error_estimate.hpp) at
// n = 100, 200 and 400 (1-D), 100 and 200 (2-D), 32, 48 and 64 (3-D). Each is judged against a
// reference surely closer than the error it judges: the same note refined (Richardson's value at
// 4x the default's nodes, with its own bar; checked against the stored Monte Carlo value where the
// note has one) in 1-D and 2-D, and Monte Carlo in 3-D (a refined 3-D grid is beyond a 2-core
// machine), judged only where the reference's uncertainty (its bar, or 3 standard errors) is at
// most a fifth of the bar (tests/validation/bar_tally.hpp). Holds: |actual| <= bar + that
// uncertainty. How tight each bar is is printed, not asserted: docs/accuracy.md gives the figures.
// Minutes on 2 cores: label slow (ctest -L slow -V).
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "reference/monte_carlo.hpp"
#include "reference/stored_reference.hpp"
#include "solvers/contract/accuracy.hpp"
#include "solvers/contract/solver.hpp"
#include "tests/validation/bar_tally.hpp"

using namespace elsbench;
using namespace elsbench::testing;

namespace {

// 1-D and 2-D: the default and plain grids against Richardson's value at 4x the default's nodes.
void check_against_refined(int assets, std::uint64_t seed, int notes, const std::vector<int>& plain) {
  const SolverInfo& adi = SolverRegistry::instance().get("adi");
  BarTally tally;
  for (const Product& p : notes_of(assets, seed, notes)) {
    const int n = default_nodes(p);
    const PriceResult refined = price_with_bound(adi, p, at_nodes(4 * n));
    const Reference ref{refined.price, *refined.accuracy->bound, "refined (n = " + std::to_string(4 * n) + ")"};
    // The refined grid within its own bracket, where an independent value says so: the stored
    // sample's Monte Carlo references (validation.generated_notes).
    if (const auto stored = load_stored_reference(p.id); stored && prices_product(*stored, p)) {
      BOOST_TEST_MESSAGE(p.id << " refined " << refined.price << " against Monte Carlo " << stored->price << " +- "
                              << stored->std_error << ": " << (refined.price - stored->price) / stored->std_error
                              << " standard errors");
      BOOST_TEST(std::abs(refined.price - stored->price) <= ref.uncertainty + 3 * stored->std_error, p.id);
    }
    judge_default(tally, p, ref);
    for (int m : plain) judge_plain(tally, p, m, ref);
  }
  tally.print(std::to_string(assets) + "-asset");
  BOOST_TEST(!tally.empty());
}

}  // namespace

BOOST_AUTO_TEST_CASE(one_asset_notes) { check_against_refined(1, 11, 16, {100, 200, 400}); }
BOOST_AUTO_TEST_CASE(two_asset_notes) { check_against_refined(2, 12, 18, {100, 200}); }

BOOST_AUTO_TEST_CASE(three_asset_notes) {
  // Plain grids only: the default's error (about 1.5 bp on els-3a) would need 1e8 paths to judge.
  BarTally tally;
  for (const Product& p : notes_of(3, 13, 16)) {
    McOptions mc;
    mc.paths = 2'000'000;
    mc.threads = 2;
    const McResult m = monte_carlo_price(p, mc);
    const Reference ref{m.price, 3 * m.std_error, "Monte Carlo (2e6 paths)"};
    for (int n : {32, 48, 64}) judge_plain(tally, p, n, ref);
  }
  tally.print("3-asset");
  BOOST_TEST(!tally.empty());
}
