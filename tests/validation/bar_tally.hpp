#pragma once
// Error bars judged against references (validation.generated_notes, slow.accuracy_generated).
// A bar is judged where its reference is surely closer than the bar (the reference's uncertainty
// at most a fifth of it) and holds where |actual| <= bar + that uncertainty. How tight it is,
// bar / |actual|, is counted where the actual is above 0.1 bp of the notional and is itself known
// (the reference's uncertainty at most a fifth of it): an actual within its reference's
// uncertainty says nothing of how tight the bar is. Erratic bars are counted apart: they are
// widened on purpose.
#include <boost/test/unit_test.hpp>
#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "platform/solver_error.hpp"
#include "products/book_generator.hpp"
#include "products/product.hpp"
#include "solvers/contract/accuracy.hpp"
#include "solvers/contract/error_estimate.hpp"
#include "solvers/contract/solver.hpp"

namespace elsbench::testing {

struct Reference {
  double price = 0;
  double uncertainty = 0;  // a refined grid's bar, or 3 Monte Carlo standard errors
  std::string what;
};

// What one judged bar showed.
struct Judged {
  bool holds = false;
  bool tight_known = false;  // the actual is above 0.1 bp and known to a fifth
  double tightness = 0;      // bar / |actual|
};

class BarTally {
 public:
  // Bars per grid ("default", "n = 100", ...).
  Judged judge(const Product& p, const std::string& grid, double price, double bar, bool erratic, const Reference& ref) {
    const double actual = price - ref.price;
    std::ostringstream line;
    line << p.id << " " << grid << ": " << price << " +- " << bar << (erratic ? " (erratic)" : "") << ", " << ref.what
         << " " << ref.price << " +- " << ref.uncertainty << ", actual " << actual;
    Judged j;
    if (ref.uncertainty > bar / 5) {
      ++skipped_[grid];
      BOOST_TEST_MESSAGE(line.str() << ": not judged (the reference's uncertainty is above a fifth of the bar)");
      return j;
    }
    ++judged_[grid];
    j.holds = std::abs(actual) <= bar + ref.uncertainty;
    held_[grid] += j.holds;
    const double bp = 1e-5 * p.notional;  // a tenth of a basis point of the notional
    j.tightness = bar / std::abs(actual);
    j.tight_known = std::abs(actual) > bp && ref.uncertainty <= std::abs(actual) / 5;
    if (j.tight_known) (erratic ? erratic_tightness_ : tightness_)[grid].push_back(j.tightness);
    else if (std::abs(actual) > bp) ++unknown_[grid];
    line << (j.tight_known ? ", bar/actual " + std::to_string(j.tightness) : "");
    BOOST_TEST_MESSAGE(line.str());
    BOOST_TEST(j.holds, p.id << " " << grid << ": |" << actual << "| > " << bar << " + " << ref.uncertainty);
    return j;
  }

  void refused(const Product& p, const std::string& grid, const std::string& why) {
    ++refused_[grid];
    BOOST_TEST_MESSAGE(p.id << " " << grid << ": refused: " << why);
  }

  bool empty() const { return judged_.empty(); }

  void print(const std::string& notes) const {
    std::map<std::string, int> grids = judged_;
    for (const auto* other : {&skipped_, &refused_})
      for (const auto& entry : *other) grids.emplace(entry.first, 0);
    for (const auto& [grid, count] : grids) {
      std::ostringstream line;
      line << notes << " " << grid << ": " << (count ? held_.at(grid) : 0) << " of " << count << " bars hold";
      if (skipped_.count(grid)) line << " (" << skipped_.at(grid) << " not judged)";
      if (refused_.count(grid)) line << " (" << refused_.at(grid) << " refused)";
      line << "; bar/actual where the actual is above 0.1 bp and known: " << spread(tightness_, grid)
           << "; erratic: " << spread(erratic_tightness_, grid);
      if (unknown_.count(grid)) line << "; " << unknown_.at(grid) << " actuals within their reference's uncertainty";
      BOOST_TEST_MESSAGE(line.str());
    }
  }

 private:
  static std::string spread(const std::map<std::string, std::vector<double>>& of, const std::string& grid) {
    if (!of.count(grid)) return "none";
    std::vector<double> t = of.at(grid);
    std::sort(t.begin(), t.end());
    const auto within3 = std::count_if(t.begin(), t.end(), [](double x) { return x <= 3; });
    std::ostringstream out;
    out.precision(3);
    out << t.size() << " bars, " << t.front() << "-" << t.back() << ", median " << t[t.size() / 2] << ", " << within3
        << " within 3x";
    return out.str();
  }

  std::map<std::string, int> judged_, held_, skipped_, refused_, unknown_;
  std::map<std::string, std::vector<double>> tightness_, erratic_tightness_;
};

inline SolverOptions at_nodes(int n) {
  SolverOptions o;
  o.grid.n = n;
  o.device.threads = 2;
  return o;
}

// The first `notes` of the book `book generate --assets A --seed S` writes.
inline std::vector<Product> notes_of(int assets, std::uint64_t seed, int notes) {
  BookSpec spec;
  spec.notes = notes;
  spec.assets = assets;
  spec.seed = seed;
  return generate_book(spec);
}

// The default grid's bar: Richardson's value from default_nodes and half as many.
inline void judge_default(BarTally& tally, const Product& p, const Reference& ref) {
  const SolverInfo& adi = SolverRegistry::instance().get("adi");
  const PriceResult r = price_with_bound(adi, p, at_nodes(default_nodes(p)));
  tally.judge(p, "default", r.price, *r.accuracy->bound, r.accuracy->erratic, ref);
}

// A plain grid's bar (--error-estimate). One whose coarse levels leave the price's bounds (3-D at
// n/4 = 8 nodes) is refused, exit 3: counted, not judged.
inline void judge_plain(BarTally& tally, const Product& p, int n, const Reference& ref) {
  const SolverInfo& adi = SolverRegistry::instance().get("adi");
  const std::string grid = "n = " + std::to_string(n);
  try {
    PriceResult r = price_with(adi, p, at_nodes(n));
    add_error_estimate(adi, p, at_nodes(n), r);
    tally.judge(p, grid, r.price, r.error_estimate->bound, r.error_estimate->erratic, ref);
  } catch (const SolverError& e) {
    tally.refused(p, grid, e.what());
  }
}

}  // namespace elsbench::testing
