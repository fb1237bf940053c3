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

constexpr int kDaysPerYear = 252;
constexpr int kTenorDays = 3 * kDaysPerYear;  // from issue
constexpr int kTenorMonths = 36;
constexpr double kRate = 0.03;                // KRW, continuously compounded

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

// Every drawn level is a whole count of its unit (days, thousandths, hundredths) divided once, so
// that a note's numbers are the same bits whatever the compiler fuses: the count of units in x.
int units(double x, int per_unit) { return static_cast<int>(std::lround(x * per_unit)); }
double years(int days) { return static_cast<double>(days) / kDaysPerYear; }

// The issued term sheet (times from issue), then seasoned: only the dates still ahead remain,
// their times counted from today.
void add_schedule(Product& p, int elapsed_days, Draw& d) {
  const auto& schedules = d.chance(0.5) ? kSixMonthly : kFourMonthly;
  const auto& barriers = schedules[static_cast<std::size_t>(d.pick(static_cast<int>(schedules.size())))];
  const int coupon_pa_milli = units(d.uniform(0.04, 0.12), 1000);
  const int period_days = kTenorDays / static_cast<int>(barriers.size());
  for (std::size_t i = 0; i < barriers.size(); ++i) {
    const int issued_days = period_days * static_cast<int>(i + 1);
    // Korean notes pay the coupon accrued since issue on the date they are called.
    if (issued_days > elapsed_days)
      p.els().autocall.push_back({years(issued_days - elapsed_days), barriers[i],
                                coupon_pa_milli * issued_days / (1000.0 * kDaysPerYear), {}});
  }
  p.els().dummy_coupon = coupon_pa_milli * kTenorDays / (1000.0 * kDaysPerYear);
  p.els().knock_in.barrier = (45 + 5 * d.pick(5)) / 100.0;  // 45-65 %
  p.els().knock_in.monitoring = Monitoring::Daily;
  p.els().knock_in.days_per_year = 252;
}

// Digital-heavy terms (BookFamily::Digital): one redemption date at maturity or a date every
// four or six months, barriers of 60-80 % stepping down, the coupon a jump of up to 40 %, a
// knock-in of 45-60 % below them.
void add_digital_schedule(Product& p, int remaining_days, Draw& d) {
  const int dates = d.chance(0.4) ? 1 : d.chance(0.5) ? 6 : 9;
  const int coupon_milli = units(d.uniform(0.05, 0.40), 1000);
  int barrier_pct = units(d.uniform(0.70, 0.80), 100);
  for (int i = 1; i <= dates; ++i) {
    p.els().autocall.push_back({remaining_days * i / (static_cast<double>(dates) * kDaysPerYear), barrier_pct / 100.0,
                              coupon_milli * i / (1000.0 * dates), {}});
    barrier_pct = std::max(60, barrier_pct - units(d.uniform(0.0, 0.04), 100));
  }
  p.els().dummy_coupon = d.chance(0.5) ? coupon_milli / 1000.0 : 0.0;
  const int last_pct = units(p.els().autocall.back().barrier, 100);
  p.els().knock_in.barrier = std::min(45 + 5 * d.pick(4), last_pct - 5) / 100.0;  // 45-60 %
  p.els().knock_in.monitoring = Monitoring::Daily;
  p.els().knock_in.days_per_year = 252;
}

// Monthly-coupon terms (BookFamily::Monthly), seasoned a whole number of months: six-monthly
// redemption dates that repay the notional alone, a coupon of 0.3-0.7 % a month while the worst
// performance is at or above 60-75 %, and a knock-in of 45-55 %.
void add_monthly_schedule(Product& p, int remaining_months, Draw& d) {
  const auto& barriers = kSixMonthly[static_cast<std::size_t>(d.pick(static_cast<int>(kSixMonthly.size())))];
  const int elapsed = kTenorMonths - remaining_months;
  for (std::size_t i = 0; i < barriers.size(); ++i) {
    const int issued_months = 6 * static_cast<int>(i + 1);
    if (issued_months > elapsed) p.els().autocall.push_back({(issued_months - elapsed) / 12.0, barriers[i], 0.0, {}});
  }
  p.els().coupons = {12, (60 + 5 * d.pick(4)) / 100.0, units(d.uniform(0.003, 0.007), 10000) / 10000.0, false};
  p.els().knock_in.barrier = (45 + 5 * d.pick(3)) / 100.0;  // 45-55 %
  p.els().knock_in.monitoring = Monitoring::Daily;
  p.els().knock_in.days_per_year = 252;
}

// A lizard on the next redemption date, observed from today: a barrier of 60-70 % (at least the
// knock-in), paying that date's coupon.
void add_lizard(Product& p, Draw& d) {
  const double barrier = std::max(p.els().knock_in.barrier, (60 + 5 * d.pick(3)) / 100.0);
  p.els().lizard = {0, barrier, p.els().autocall.front().coupon};
}

// A note whose worst performance is below its knock-in has knocked in; one above it may have
// dipped below it earlier in its life (elapsed of tenor: days or months).
void seasoned_knock_in(Product& p, double worst, int elapsed, int tenor, Draw& d) {
  const bool dipped = d.chance(0.25 * elapsed / static_cast<double>(tenor));
  p.els().knocked_in = worst < p.els().knock_in.barrier || dipped;
}

const char* id_prefix(BookFamily f) {
  switch (f) {
    case BookFamily::Issued: return "book";
    case BookFamily::Digital: return "digital";
    case BookFamily::Monthly: return "monthly";
    case BookFamily::Lizard: return "lizard";
  }
  return "?";
}

Product generate_note(int index, const BookSpec& spec, Draw& d) {
  Product p;
  char id[64];
  std::snprintf(id, sizeof id, "%s-s%llu-%05d", id_prefix(spec.family), static_cast<unsigned long long>(spec.seed),
                index + 1);
  p.id = id;
  p.source = "generated";
  p.type = ProductType::StepdownEls;
  p.notional = 100.0;
  p.rate = kRate;
  const auto chosen = pick_assets(asset_count(spec.assets, d), d);
  double worst = 10.0;
  for (std::size_t k : chosen) {
    const IndexAsset& a = book_asset_table()[k];
    const double ratio = units(d.uniform(0.60, 1.30), 10000) / 10000.0;
    worst = std::min(worst, ratio);
    p.assets.push_back({a.name, a.level * ratio, a.level, a.vol, a.div_yield});
  }
  p.correlation.assign(chosen.size(), std::vector<double>(chosen.size()));
  for (std::size_t i = 0; i < chosen.size(); ++i)
    for (std::size_t k = 0; k < chosen.size(); ++k) p.correlation[i][k] = book_asset_correlation(chosen[i], chosen[k]);
  if (spec.family == BookFamily::Monthly) {
    const int remaining_months = 3 + d.pick(kTenorMonths - 2);  // 3-36
    add_monthly_schedule(p, remaining_months, d);
    seasoned_knock_in(p, worst, kTenorMonths - remaining_months, kTenorMonths, d);
    return p;
  }
  const int remaining_days = units(d.uniform(0.25, kTenorDays / static_cast<double>(kDaysPerYear)), kDaysPerYear);
  if (spec.family == BookFamily::Digital) {
    add_digital_schedule(p, remaining_days, d);
    p.els().knocked_in = worst < p.els().knock_in.barrier || d.chance(0.5);
    return p;
  }
  add_schedule(p, kTenorDays - remaining_days, d);
  seasoned_knock_in(p, worst, kTenorDays - remaining_days, kTenorDays, d);
  if (spec.family == BookFamily::Lizard && p.els().autocall.size() > 1) add_lizard(p, d);
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

const std::vector<std::string>& book_family_words() {
  static const std::vector<std::string> words = {"issued", "digital", "monthly", "lizard"};
  return words;
}

BookFamily parse_book_family(const std::string& word) {
  const auto& words = book_family_words();
  const auto at = std::find(words.begin(), words.end(), word);
  if (at == words.end()) throw std::invalid_argument("--family: expected issued, digital, monthly or lizard, got '" + word + "'");
  return static_cast<BookFamily>(at - words.begin());
}

std::string book_jsonl(const std::vector<Product>& notes) {
  std::string out;
  for (const Product& p : notes) out += product_to_json(p).dump() + '\n';
  return out;
}

}  // namespace elsbench
