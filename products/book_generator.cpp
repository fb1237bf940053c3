#include "products/book_generator.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <random>
#include <stdexcept>

#include "products/product_json.hpp"

namespace elsbench {
namespace {

constexpr double kTenor = 3.0;  // years from issue
constexpr double kRate = 0.03;  // KRW, continuously compounded

// Draws from the raw 64-bit engine only: std's distributions differ between libraries.
class Draw {
 public:
  explicit Draw(std::uint64_t seed) : engine_(seed) {}
  double uniform() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }
  double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }
  int pick(int count) { return static_cast<int>(uniform() * count) % count; }
  bool chance(double p) { return uniform() < p; }

 private:
  std::mt19937_64 engine_;
};

// Correlations of book_asset_table() (symmetric, positive definite: the loader checks it).
constexpr double kCorrelations[5][5] = {{1.00, 0.45, 0.50, 0.60, 0.70},
                                        {0.45, 1.00, 0.75, 0.45, 0.35},
                                        {0.50, 0.75, 1.00, 0.50, 0.40},
                                        {0.60, 0.45, 0.50, 1.00, 0.55},
                                        {0.70, 0.35, 0.40, 0.55, 1.00}};

// Step-down schedules as issued: six-monthly (6 dates) and four-monthly (9 dates).
const std::vector<std::vector<double>> kSixMonthly = {
    {0.95, 0.90, 0.85, 0.85, 0.80, 0.75}, {0.90, 0.90, 0.85, 0.85, 0.80, 0.80}, {0.85, 0.85, 0.80, 0.80, 0.75, 0.70}};
const std::vector<std::vector<double>> kFourMonthly = {{0.95, 0.95, 0.90, 0.90, 0.85, 0.85, 0.80, 0.80, 0.75},
                                                       {0.90, 0.90, 0.90, 0.85, 0.85, 0.85, 0.80, 0.80, 0.80}};

int asset_count(int asked, Draw& d) {
  if (asked >= 1 && asked <= 3) return asked;
  const double u = d.uniform();
  return u < 0.2 ? 1 : u < 0.7 ? 2 : 3;
}

std::vector<std::size_t> pick_assets(int count, Draw& d) {
  std::vector<std::size_t> all(book_asset_table().size());
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
  std::vector<std::size_t> chosen;
  for (int k = 0; k < count; ++k) {
    const auto at = static_cast<std::size_t>(d.pick(static_cast<int>(all.size())));
    chosen.push_back(all[at]);
    all.erase(all.begin() + static_cast<std::ptrdiff_t>(at));
  }
  return chosen;
}

double round_to(double x, double step) { return std::round(x / step) * step; }

// The issued term sheet (times from issue), then seasoned: only the dates still ahead remain,
// their times counted from today.
void add_schedule(Product& p, double elapsed, Draw& d) {
  const auto& schedules = d.chance(0.5) ? kSixMonthly : kFourMonthly;
  const auto& barriers = schedules[static_cast<std::size_t>(d.pick(static_cast<int>(schedules.size())))];
  const double coupon_pa = round_to(d.uniform(0.04, 0.12), 0.001);
  const double period = kTenor / static_cast<double>(barriers.size());
  for (std::size_t i = 0; i < barriers.size(); ++i) {
    const double issued_at = period * static_cast<double>(i + 1);
    // Korean notes pay the coupon accrued since issue on the date they are called.
    if (issued_at - elapsed > 0.5 / 252) p.els.autocall.push_back({issued_at - elapsed, barriers[i], coupon_pa * issued_at});
  }
  p.els.dummy_coupon = coupon_pa * kTenor;
  p.els.knock_in.barrier = 0.45 + 0.05 * d.pick(5);  // 45-65 %
  p.els.knock_in.monitoring = Monitoring::Daily;
  p.els.knock_in.days_per_year = 252;
}

Product generate_note(int index, const BookSpec& spec, Draw& d) {
  Product p;
  char id[64];
  std::snprintf(id, sizeof id, "book-s%llu-%05d", static_cast<unsigned long long>(spec.seed), index + 1);
  p.id = id;
  p.source = "generated";
  p.type = ProductType::StepdownEls;
  p.notional = 100.0;
  p.rate = kRate;
  const auto chosen = pick_assets(asset_count(spec.assets, d), d);
  double worst = 10.0;
  for (std::size_t k : chosen) {
    const IndexAsset& a = book_asset_table()[k];
    const double ratio = round_to(d.uniform(0.60, 1.30), 0.0001);
    worst = std::min(worst, ratio);
    p.assets.push_back({a.name, a.level * ratio, a.level, a.vol, a.div_yield});
  }
  p.correlation.assign(chosen.size(), std::vector<double>(chosen.size()));
  for (std::size_t i = 0; i < chosen.size(); ++i)
    for (std::size_t k = 0; k < chosen.size(); ++k) p.correlation[i][k] = book_asset_correlation(chosen[i], chosen[k]);
  const double remaining = round_to(d.uniform(0.25, kTenor), 1.0 / 252.0);
  add_schedule(p, kTenor - remaining, d);
  // A note whose worst performance is below its knock-in has knocked in; one above it may have
  // dipped below it earlier in its life.
  const bool dipped = d.chance(0.25 * (kTenor - remaining) / kTenor);
  p.els.knocked_in = worst < p.els.knock_in.barrier || dipped;
  return p;
}

}  // namespace

const std::vector<IndexAsset>& book_asset_table() {
  static const std::vector<IndexAsset> table = {{"KOSPI200", 350.0, 0.22, 0.020},
                                                {"SPX", 5000.0, 0.18, 0.015},
                                                {"SX5E", 4500.0, 0.20, 0.030},
                                                {"NKY", 38000.0, 0.24, 0.018},
                                                {"HSCEI", 6500.0, 0.32, 0.035}};
  return table;
}

double book_asset_correlation(std::size_t i, std::size_t k) { return kCorrelations[i][k]; }

std::vector<Product> generate_book(const BookSpec& spec) {
  if (spec.notes < 1) throw std::invalid_argument("--notes: must be at least 1");
  if (spec.assets < 0 || spec.assets > 3) throw std::invalid_argument("--assets: 1, 2, 3 or mixed");
  Draw d(spec.seed);
  std::vector<Product> book;
  book.reserve(static_cast<std::size_t>(spec.notes));
  for (int i = 0; i < spec.notes; ++i) book.push_back(generate_note(i, spec, d));
  return book;
}

std::string book_jsonl(const std::vector<Product>& notes) {
  std::string out;
  for (const Product& p : notes) out += product_to_json(p).dump() + '\n';
  return out;
}

}  // namespace elsbench
