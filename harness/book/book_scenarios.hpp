#pragma once
// `book price --spot-shifts -20:20:5 --vol-shifts -2:2:2`: the book's value under a ladder of
// scenarios, every underlying's spot moved by the same fraction and every volatility by the same
// points, each note priced again at each rung (as the book prices it: same solver, grid rule and
// placement; on the default grid Richardson's value without the bar), per note and summed. A
// desk's P&L ladder; the rung (0, 0) is the book's own prices.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "products/book_file.hpp"
#include "solvers/contract/options.hpp"

namespace elsbench {

struct BookPlacement;  // harness/placement/book_price.hpp
struct NotePricing;
struct SolverInfo;

struct ScenarioLadder {
  std::vector<double> spot_shifts;  // percent: -20 moves every spot to 80 % of itself
  std::vector<double> vol_points;   // vol points: 2 adds 0.02 to every vol
  bool empty() const { return spot_shifts.empty() && vol_points.empty(); }
};

// "-20:20:5" (from:to:step) or "-10,0,10", in the flag's unit; throws InputError naming `flag`.
// The ladder adds the rung 0 where it is missing.
std::vector<double> parse_shifts(const std::string& text, const char* flag);

// Every rung's price of every priced note (base: the book's own prices, by note id), and the sums:
// {"spot_shifts_pct", "vol_points", "book_value": [spot][vol], "notes": {id: [spot][vol]}, "failed": n}.
// A rung a note cannot be priced at (its pricing fails, or a vol would not stay > 0) is null for
// it and counted, and the book's value there is null: a partial sum would read as a loss.
nlohmann::json price_ladder(const SolverInfo& solver, const std::vector<const Product*>& notes,
                            const std::vector<double>& base, const SolverOptions& options,
                            const BookPlacement& placement, const ScenarioLadder& ladder, const NotePricing& pricing);

// The ladder as CSV rows: product, spot_shift_pct, vol_points, price, pnl (price less the base), the
// book's total as product "BOOK".
std::string ladder_csv(const nlohmann::json& ladder);

}  // namespace elsbench
