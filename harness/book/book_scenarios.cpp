#include "harness/book/book_scenarios.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "harness/placement/book_price.hpp"
#include "platform/input_error.hpp"
#include "products/product_bumps.hpp"
#include "harness/results/results_csv.hpp"

namespace elsbench {
namespace {

using nlohmann::json;

double number_in(const std::string& text, const char* flag) {
  std::size_t used = 0;
  double x = 0;
  try {
    x = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size() || !std::isfinite(x))
    throw InputError("(command line)", flag, "'" + text + "' is not a number");
  return x;
}

// The note with every spot moved by spot_pct percent and every vol by vol_points / 100; nothing
// where a vol would not stay > 0 (with_vol's rule): that note has no price at the rung.
std::optional<Product> moved(const Product& p, double spot_pct, double vol_points) {
  Product q = p;
  try {
    for (int a = 0; a < q.dimension(); ++a) {
      const Underlying u = q.assets[static_cast<std::size_t>(a)];
      q = with_vol(with_spot(std::move(q), a, u.spot * (1 + spot_pct / 100)), a, u.vol + vol_points / 100);
    }
  } catch (const std::invalid_argument&) {
    return std::nullopt;
  }
  return q;
}

// The shifts in order, 0 among them (the book as it stands), each once.
std::vector<double> rungs(std::vector<double> shifts) {
  shifts.push_back(0.0);
  std::sort(shifts.begin(), shifts.end());
  shifts.erase(std::unique(shifts.begin(), shifts.end(), [](double a, double b) { return std::abs(a - b) < 1e-12; }),
               shifts.end());
  return shifts;
}

}  // namespace

std::vector<double> parse_shifts(const std::string& text, const char* flag) {
  std::vector<double> out;
  if (text.empty()) return out;
  if (const auto colon = text.find(':'); colon != std::string::npos) {
    const auto second = text.find(':', colon + 1);
    if (second == std::string::npos) throw InputError("(command line)", flag, "expected from:to:step, got '" + text + "'");
    const double from = number_in(text.substr(0, colon), flag), to = number_in(text.substr(colon + 1, second - colon - 1), flag),
                 step = number_in(text.substr(second + 1), flag);
    if (!(step > 0) || to < from || (to - from) / step > 100)
      throw InputError("(command line)", flag, "from:to:step with from <= to, step > 0 and at most 100 rungs, got '" + text + "'");
    for (int k = 0; from + k * step <= to + 1e-9 * step; ++k) out.push_back(from + k * step);
  } else {
    std::stringstream list(text);
    for (std::string item; std::getline(list, item, ',');) out.push_back(number_in(item, flag));
  }
  return out;
}

json price_ladder(const SolverInfo& solver, const std::vector<const Product*>& notes, const std::vector<double>& base,
                  const SolverOptions& options, const BookPlacement& placement, const ScenarioLadder& ladder,
                  const NotePricing& pricing) {
  const std::vector<double> spots = rungs(ladder.spot_shifts), vols = rungs(ladder.vol_points);
  json per_note = json::object();
  for (const Product* p : notes) per_note[p->id] = json::array();
  json value = json::array();
  std::size_t failed = 0;
  for (double s : spots) {
    json row = json::array();
    std::vector<json> note_rows(notes.size(), json::array());
    for (double v : vols) {
      std::vector<double> prices(notes.size(), std::nan(""));
      if (std::abs(s) < 1e-12 && std::abs(v) < 1e-12) {
        prices = base;
      } else {
        std::vector<Product> shifted;
        std::vector<std::size_t> of;  // shifted[i] is notes[of[i]] moved
        for (std::size_t k = 0; k < notes.size(); ++k)
          if (std::optional<Product> q = moved(*notes[k], s, v)) {
            shifted.push_back(std::move(*q));
            of.push_back(k);
          }
        std::vector<const Product*> view;
        for (const Product& p : shifted) view.push_back(&p);
        price_book(solver, view, options, placement, [&](std::size_t index, const CaseOutcome& out) {
          if (out.result) prices[of[index]] = out.result->price;
        }, {}, pricing);
      }
      double total = 0;
      bool whole = true;  // a rung's book value is the sum of every note's, or none
      for (std::size_t k = 0; k < notes.size(); ++k) {
        if (std::isnan(prices[k])) {
          ++failed;
          whole = false;
          note_rows[k].push_back(nullptr);
        } else {
          total += prices[k];
          note_rows[k].push_back(prices[k]);
        }
      }
      row.push_back(whole ? json(total) : json());
    }
    value.push_back(row);
    for (std::size_t k = 0; k < notes.size(); ++k) per_note[notes[k]->id].push_back(note_rows[k]);
  }
  json vol_points = json::array(), spot_shifts = json::array();
  for (double s : spots) spot_shifts.push_back(s);
  for (double v : vols) vol_points.push_back(v);
  return {{"spot_shifts_pct", spot_shifts}, {"vol_points", vol_points}, {"book_value", value}, {"notes", per_note},
          {"failed", failed}};
}

std::string ladder_csv(const json& ladder) {
  std::ostringstream out;
  out << "product,spot_shift_pct,vol_points,price,pnl\n";
  const json& spots = ladder.at("spot_shifts_pct");
  const json& vols = ladder.at("vol_points");
  std::size_t base_s = 0, base_v = 0;
  for (std::size_t i = 0; i < spots.size(); ++i)
    if (std::abs(spots[i].get<double>()) < 1e-12) base_s = i;
  for (std::size_t j = 0; j < vols.size(); ++j)
    if (std::abs(vols[j].get<double>()) < 1e-12) base_v = j;
  const auto rows = [&](const std::string& id, const json& grid) {
    const json& at_base = grid[base_s][base_v];
    for (std::size_t i = 0; i < spots.size(); ++i)
      for (std::size_t j = 0; j < vols.size(); ++j) {
        const json& price = grid[i][j];
        const json pnl = price.is_null() || at_base.is_null() ? json() : json(price.get<double>() - at_base.get<double>());
        out << csv_cell(id) << ',' << csv_cell(spots[i]) << ',' << csv_cell(vols[j]) << ',' << csv_cell(price) << ','
            << csv_cell(pnl) << '\n';
      }
  };
  for (const auto& [id, grid] : ladder.at("notes").items()) rows(id, grid);
  rows("BOOK", ladder.at("book_value"));
  return out.str();
}

}  // namespace elsbench
