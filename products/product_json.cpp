#include "products/product_json.hpp"

#include <Eigen/Cholesky>
#include <Eigen/Dense>
#include <algorithm>
#include <cctype>
#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string_view>
#include <vector>

#include "platform/input_error.hpp"
#include "platform/input_file.hpp"
#include "platform/json_text.hpp"
#include "platform/nearest_word.hpp"
#include "products/calendar.hpp"
#include "products/payoff.hpp"
#include "products/product_limits.hpp"

namespace elsbench {
namespace {

using nlohmann::json;

using Keys = std::vector<std::string_view>;

// The keys of each object, as product_to_json writes them; docs/product.schema.json lists the same.
const Keys kCommonKeys = {"id", "type", "notional", "underlyings", "correlation", "rate", "isin", "tags", "valuation_date",
                           "day_count"};
const Keys kUnderlyingKeys = {"name", "spot", "reference", "vol", "div_yield"};
const Keys kAutocallKeys = {"time", "date", "barrier", "coupon"};
const Keys kKnockInKeys = {"monitoring", "barrier", "days_per_year", "calendar"};
const Keys kCouponKeys = {"per_year", "barrier", "coupon", "memory"};
const Keys kLizardKeys = {"autocall", "barrier", "coupon"};
const Keys kElsKeys = {"performance", "autocall", "knock_in", "coupons", "lizard", "dummy_coupon", "knocked_in"};

std::string joined(const Keys& keys) {
  std::string out;
  for (const std::string_view k : keys) out += (out.empty() ? "" : ", ") + std::string(k);
  return out;
}

// Reads fields of one JSON object and reports errors with the full path of the field.
class Reader {
 public:
  Reader(const json& j, std::string file, std::string path)
      : j_(j), file_(std::move(file)), path_(std::move(path)) {
    if (!j_.is_object()) fail("", "expected an object");
  }

  [[noreturn]] void fail(const std::string& key, const std::string& what) const {
    throw InputError(file_, field(key), what);
  }
  std::string field(const std::string& key) const {
    if (key.empty()) return path_.empty() ? "<root>" : path_;
    if (key[0] == '[') return path_ + key;
    return path_.empty() ? key : path_ + "." + key;
  }
  bool has(const std::string& key) const { return j_.contains(key); }

  // Refuses a key this object does not have: a misspelt optional field ('notionl') would otherwise
  // take its default without a word. Names the known key it most likely meant.
  void refuse_unknown_keys(const Keys& known) const {
    for (const auto& item : j_.items()) {
      const std::string& key = item.key();
      if (std::find(known.begin(), known.end(), key) != known.end()) continue;
      const std::string near = nearest_word(key, known);
      // Joined with '.' whatever the key holds, so that a key like "[0]" reads as a key, not an index.
      throw InputError(file_, path_.empty() ? key : path_ + "." + key,
                       near.empty() ? "unknown key (expected " + joined(known) + ")"
                                    : "unknown key; did you mean '" + near + "'?");
    }
  }

  const json& at(const std::string& key) const {
    if (!j_.contains(key)) fail(key, "missing");
    return j_.at(key);
  }
  double number(const std::string& key) const {
    const json& v = at(key);
    if (!v.is_number()) fail(key, "expected a number, got " + std::string(v.type_name()));
    const double x = v.get<double>();
    if (!std::isfinite(x)) fail(key, "not finite");
    return x;
  }
  double number_or(const std::string& key, double fallback) const {
    return has(key) ? number(key) : fallback;
  }
  double positive(const std::string& key) const {
    const double x = number(key);
    if (!(x > 0)) fail(key, "must be > 0, got " + fmt(x));
    return x;
  }
  // A number in [lo, hi] (NaN and inf excluded by number()).
  double within(const std::string& key, double lo, double hi) const {
    const double x = number(key);
    if (x < lo || x > hi) fail(key, "must be in [" + fmt(lo) + ", " + fmt(hi) + "], got " + fmt(x));
    return x;
  }
  double non_negative(const std::string& key) const {
    const double x = number(key);
    if (x < 0) fail(key, "must be >= 0, got " + fmt(x));
    return x;
  }
  std::string text(const std::string& key) const {
    const json& v = at(key);
    if (!v.is_string()) fail(key, "expected a string, got " + std::string(v.type_name()));
    return v.get<std::string>();
  }
  bool boolean_or(const std::string& key, bool fallback) const {
    if (!has(key)) return fallback;
    const json& v = at(key);
    if (!v.is_boolean()) fail(key, "expected true or false, got " + std::string(v.type_name()));
    return v.get<bool>();
  }
  const json& array(const std::string& key) const {
    const json& v = at(key);
    if (!v.is_array()) fail(key, "expected an array, got " + std::string(v.type_name()));
    return v;
  }
  Reader child(const json& v, const std::string& key) const { return Reader(v, file_, field(key)); }
  const std::string& file() const { return file_; }

  static std::string fmt(double x) {
    std::ostringstream s;
    s << x;
    return s.str();
  }

 private:
  const json& j_;
  std::string file_, path_;
};

template <class Enum, std::size_t N>
Enum parse_enum(const Reader& r, const std::string& key,
                const std::pair<const char*, Enum> (&names)[N]) {
  const std::string value = r.text(key);
  std::string known;
  for (const auto& [name, e] : names) {
    if (value == name) return e;
    known += (known.empty() ? "" : ", ") + std::string(name);
  }
  r.fail(key, "unknown value '" + value + "' (expected one of: " + known + ")");
}

constexpr std::pair<const char*, ProductType> kTypes[] = {
    {"stepdown-els", ProductType::StepdownEls}, {"european-call", ProductType::EuropeanCall},
    {"european-put", ProductType::EuropeanPut}, {"min-call", ProductType::MinCall},
    {"max-call", ProductType::MaxCall},         {"min-put", ProductType::MinPut},
    {"max-put", ProductType::MaxPut},           {"exchange", ProductType::Exchange},
    {"cash-or-nothing-2", ProductType::CashOrNothing2}};
constexpr std::pair<const char*, Performance> kPerformances[] = {
    {"worst-of", Performance::WorstOf}, {"best-of", Performance::BestOf}};
constexpr std::pair<const char*, Monitoring> kMonitorings[] = {
    {"none", Monitoring::None}, {"daily", Monitoring::Daily}, {"continuous", Monitoring::Continuous}};

// The root's keys: the common ones and the terms of its type, so that an ELS with a strike or an
// exchange option with one is refused rather than priced without it.
Keys product_keys(ProductType t) {
  Keys keys = kCommonKeys;
  const Keys terms = t == ProductType::StepdownEls      ? kElsKeys
                     : t == ProductType::CashOrNothing2 ? Keys{"maturity", "strikes", "cash"}
                     : t == ProductType::Exchange       ? Keys{"maturity"}
                                                        : Keys{"maturity", "strike"};
  keys.insert(keys.end(), terms.begin(), terms.end());
  return keys;
}

int required_assets(ProductType t) {
  switch (t) {
    case ProductType::EuropeanCall:
    case ProductType::EuropeanPut: return 1;
    case ProductType::StepdownEls: return 0;  // 1, 2 or 3
    default: return 2;
  }
}

std::vector<Underlying> read_assets(const Reader& r) {
  const json& list = r.array("underlyings");
  if (list.empty() || list.size() > static_cast<std::size_t>(kMaxAssets))
    r.fail("underlyings", "expected 1 to " + std::to_string(kMaxAssets) + " underlyings");
  std::vector<Underlying> assets;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const Reader a = r.child(list[i], "underlyings[" + std::to_string(i) + "]");
    a.refuse_unknown_keys(kUnderlyingKeys);
    Underlying u;
    u.name = a.has("name") ? a.text("name") : "S" + std::to_string(i + 1);
    u.spot = a.within("spot", limits::kMinLevel, limits::kMaxLevel);
    u.reference = a.has("reference") ? a.within("reference", limits::kMinLevel, limits::kMaxLevel) : u.spot;
    if (u.spot > limits::kMaxLevelRatio * u.reference || u.reference > limits::kMaxLevelRatio * u.spot)
      a.fail("spot", "spot / reference must be within [1/100, 100], got " + Reader::fmt(u.spot / u.reference));
    u.vol = a.positive("vol");
    if (u.vol > limits::kMaxVol) a.fail("vol", "implausible volatility " + Reader::fmt(u.vol) + " (> 300 %)");
    u.div_yield = a.has("div_yield") ? a.within("div_yield", -limits::kMaxRate, limits::kMaxRate) : 0.0;
    assets.push_back(u);
  }
  return assets;
}

std::vector<std::vector<double>> read_correlation(const Reader& r, std::size_t n) {
  std::vector<std::vector<double>> c(n, std::vector<double>(n, 0.0));
  for (std::size_t i = 0; i < n; ++i) c[i][i] = 1.0;
  if (!r.has("correlation")) {
    if (n > 1) r.fail("correlation", "missing (required for more than one underlying)");
    return c;
  }
  const json& m = r.array("correlation");
  if (m.size() != n) r.fail("correlation", "expected a " + std::to_string(n) + "x" +
                                                std::to_string(n) + " matrix");
  for (std::size_t i = 0; i < n; ++i) {
    const std::string row = "correlation[" + std::to_string(i) + "]";
    if (!m[i].is_array() || m[i].size() != n) r.fail(row, "expected " + std::to_string(n) + " numbers");
    for (std::size_t k = 0; k < n; ++k) {
      const std::string cell = row + "[" + std::to_string(k) + "]";
      if (!m[i][k].is_number()) r.fail(cell, "expected a number");
      c[i][k] = m[i][k].get<double>();
      if (!(std::abs(c[i][k]) <= 1.0)) r.fail(cell, "must lie in [-1, 1]");
    }
    if (std::abs(c[i][i] - 1.0) > 1e-12) r.fail(row + "[" + std::to_string(i) + "]", "diagonal must be 1");
  }
  Eigen::MatrixXd e(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(n));
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t k = 0; k < n; ++k) {
      if (std::abs(c[i][k] - c[k][i]) > 1e-12) r.fail("correlation", "matrix is not symmetric");
      e(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(k)) = c[i][k];
    }
  // Strictly positive definite: a singular matrix (|rho| = 1) has no Cholesky factor for the
  // Monte Carlo engine and makes the PDE degenerate.
  Eigen::LLT<Eigen::MatrixXd> llt(e);
  if (llt.info() != Eigen::Success || e.eigenvalues().real().minCoeff() < 1e-10)
    r.fail("correlation", "matrix is not positive definite");
  return c;
}

std::string coupon_refusal(double coupon) {
  std::string why = "must be in (-1, 1] (a fraction of notional), got " + Reader::fmt(coupon);
  if (coupon > limits::kMaxCoupon) why += ": a percentage? " + Reader::fmt(coupon) + " % is " + Reader::fmt(coupon / 100);
  return why;
}

// The day of an ISO date field; refuses text that is not a date of the calendar.
int read_date(const Reader& r, const std::string& key) {
  const std::string text = r.text(key);
  const std::optional<int> day = parse_iso_date(text);
  if (!day) r.fail(key, "expected an ISO date (YYYY-MM-DD), got '" + text + "'");
  return *day;
}

// A note's calendar: its valuation date and day count, where its dates are calendar dates.
struct Dating {
  std::optional<int> valuation;
  double days_a_year = 365.0;  // ACT/365F unless the note names another day count
  double years(int from, int to) const { return static_cast<double>(to - from) / days_a_year; }
};

// A date's years from the valuation date (by the day count), or its `time`: one of the two.
double read_time(const Reader& d, const Dating& dating, std::string& date) {
  const std::optional<int>& valuation = dating.valuation;
  if (!d.has("date")) return d.positive("time");
  if (d.has("time")) d.fail("date", "give date or time, not both");
  if (!valuation) d.fail("date", "a calendar date needs the note's valuation_date to count from");
  const int day = read_date(d, "date");
  if (!(day > *valuation)) d.fail("date", "must be after the valuation_date " + iso_date(*valuation) + ", got " + d.text("date"));
  date = d.text("date");
  return dating.years(*valuation, day);
}

// Daily monitoring on a calendar's business days between the valuation date and maturity (the
// last, maturity, always observed).
void read_calendar(const Reader& ki, KnockIn& k, const Dating& dating, double maturity) {
  const std::optional<int>& valuation = dating.valuation;
  if (ki.has("days_per_year")) ki.fail("days_per_year", "not with a calendar: its business days are the monitoring dates");
  if (k.monitoring != Monitoring::Daily) ki.fail("calendar", "a calendar is for daily monitoring");
  if (!valuation) ki.fail("calendar", "a calendar needs the note's valuation_date");
  k.calendar = ki.text("calendar");
  const int last = *valuation + static_cast<int>(std::lround(maturity * dating.days_a_year));  // maturity's day
  try {  // an unknown calendar, or years its holidays do not cover
    for (int day : business_days(k.calendar, *valuation, last)) k.dates.push_back(dating.years(*valuation, day));
  } catch (const std::invalid_argument& e) {
    ki.fail("calendar", e.what());
  }
  k.dates.push_back(maturity);
}

// Periodic coupons: a whole number of dates a year (12: monthly), a barrier and a coupon.
Coupons read_coupons(const Reader& c) {
  c.refuse_unknown_keys(kCouponKeys);
  Coupons k;
  const double per_year = c.number("per_year");
  if (per_year < 1 || per_year > 52 || per_year != std::floor(per_year))
    c.fail("per_year", "must be a whole number of coupon dates a year in [1, 52] (12: monthly), got " + Reader::fmt(per_year));
  k.per_year = static_cast<int>(per_year);
  k.barrier = c.positive("barrier");
  if (k.barrier > limits::kMaxAutocallBarrier)
    c.fail("barrier", "implausible barrier " + Reader::fmt(k.barrier) + " (fraction of reference, at most 2)");
  k.coupon = c.number("coupon");
  if (!(k.coupon > 0) || k.coupon > limits::kMaxCoupon) c.fail("coupon", coupon_refusal(k.coupon) + "; and above 0");
  k.memory = c.boolean_or("memory", false);
  return k;
}

// A lizard on autocall date `autocall` (1-based, before maturity), observed on the daily knock-in
// dates: its barrier at or above the knock-in's.
Lizard read_lizard(const Reader& z, const ElsTerms& t) {
  z.refuse_unknown_keys(kLizardKeys);
  Lizard l;
  const double date = z.number("autocall");
  const auto dates = static_cast<double>(t.autocall.size());
  if (date < 1 || date >= dates || date != std::floor(date))
    z.fail("autocall", "the autocall date it redeems on, a whole number from 1 to " + Reader::fmt(dates - 1) +
                           " (before maturity), got " + Reader::fmt(date));
  l.autocall = static_cast<int>(date) - 1;
  if (t.knock_in.monitoring != Monitoring::Daily)
    z.fail("", "a lizard is observed on the daily knock-in dates: it needs knock_in.monitoring daily");
  l.barrier = z.positive("barrier");
  if (l.barrier < t.knock_in.barrier || l.barrier > 1)
    z.fail("barrier", "must lie between the knock-in barrier " + Reader::fmt(t.knock_in.barrier) + " and 1, got " +
                          Reader::fmt(l.barrier));
  l.coupon = z.number("coupon");
  if (l.coupon <= -1 || l.coupon > limits::kMaxCoupon) z.fail("coupon", coupon_refusal(l.coupon));
  return l;
}

ElsTerms read_els(const Reader& r, const Dating& dating) {
  ElsTerms t;
  t.performance = r.has("performance") ? parse_enum(r, "performance", kPerformances)
                                       : Performance::WorstOf;
  const json& dates = r.array("autocall");
  if (dates.empty()) r.fail("autocall", "expected at least one date (the last is maturity)");
  if (dates.size() > static_cast<std::size_t>(kMaxAutocallDates))
    r.fail("autocall", "at most " + std::to_string(kMaxAutocallDates) + " dates (a monthly note over five years has 60)");
  double previous = 0.0;
  for (std::size_t i = 0; i < dates.size(); ++i) {
    const std::string key = "autocall[" + std::to_string(i) + "]";
    const Reader d = r.child(dates[i], key);
    d.refuse_unknown_keys(kAutocallKeys);
    AutocallDate a;
    a.time = read_time(d, dating, a.date);
    const std::string when = a.date.empty() ? "time" : "date";
    if (a.time > limits::kMaxMaturityYears) d.fail(when, "beyond 30 years, got " + Reader::fmt(a.time));
    if (!(a.time > previous))
      d.fail(when, i == 0 ? "must be > 0" : "dates must be strictly increasing (got " +
                                                  Reader::fmt(a.time) + " after " +
                                                  Reader::fmt(previous) + ")");
    if (a.time - previous < limits::kMinTimeYears)
      d.fail(when, "less than 1e-4 years after the previous date (or the start), got " + Reader::fmt(a.time));
    previous = a.time;
    a.barrier = d.positive("barrier");
    if (a.barrier > limits::kMaxAutocallBarrier)
      d.fail("barrier", "implausible barrier " + Reader::fmt(a.barrier) + " (fraction of reference, at most 2)");
    a.coupon = d.number("coupon");
    if (a.coupon <= -1 || a.coupon > limits::kMaxCoupon) d.fail("coupon", coupon_refusal(a.coupon));
    t.autocall.push_back(a);
  }
  const Reader ki = r.child(r.at("knock_in"), "knock_in");
  ki.refuse_unknown_keys(kKnockInKeys);
  t.knock_in.monitoring = parse_enum(ki, "monitoring", kMonitorings);
  if (t.knock_in.monitoring != Monitoring::None) {
    t.knock_in.barrier = ki.positive("barrier");
    if (t.knock_in.barrier > limits::kMaxKnockInBarrier)
      ki.fail("barrier", "a knock-in barrier lies at or below the reference (at most 1), got " +
                             Reader::fmt(t.knock_in.barrier));
  }
  if (ki.has("calendar")) {
    read_calendar(ki, t.knock_in, dating, t.autocall.back().time);
  } else if (t.knock_in.monitoring == Monitoring::Daily) {
    const double days = ki.number_or("days_per_year", 252);
    if (days < 1 || days > 366 || days != std::floor(days))
      ki.fail("days_per_year", "must be a whole number in [1, 366]");
    t.knock_in.days_per_year = static_cast<int>(days);
  }
  if (r.has("coupons")) t.coupons = read_coupons(r.child(r.at("coupons"), "coupons"));
  if (r.has("lizard")) t.lizard = read_lizard(r.child(r.at("lizard"), "lizard"), t);
  t.dummy_coupon = r.number("dummy_coupon");
  if (t.dummy_coupon <= -1 || t.dummy_coupon > limits::kMaxCoupon) r.fail("dummy_coupon", coupon_refusal(t.dummy_coupon));
  t.knocked_in = r.boolean_or("knocked_in", false);
  return t;
}

// A strike within kMaxLevelRatio of the largest spot: far beyond it the price underflows to 0 or
// the grid's levels overflow.
void check_strike(const Reader& r, const std::string& key, double strike, double spot) {
  if (strike < limits::kMinLevel || strike > limits::kMaxLevel || strike > limits::kMaxLevelRatio * spot ||
      spot > limits::kMaxLevelRatio * strike)
    r.fail(key, "must be in [1e-06, 1e+09] and within [1/100, 100] of the spot, got " + Reader::fmt(strike));
}

OptionTerms read_option(const Reader& r, ProductType type, double spot) {
  OptionTerms o;
  o.maturity = r.positive("maturity");
  if (o.maturity > limits::kMaxMaturityYears) r.fail("maturity", "beyond 30 years, got " + Reader::fmt(o.maturity));
  if (o.maturity < limits::kMinTimeYears) r.fail("maturity", "below 1e-4 years, got " + Reader::fmt(o.maturity));
  if (type == ProductType::CashOrNothing2) {
    const json& k = r.array("strikes");
    if (k.size() != 2) r.fail("strikes", "expected two strikes, one per underlying");
    for (std::size_t i = 0; i < 2; ++i) {
      const std::string key = "strikes[" + std::to_string(i) + "]";
      if (!k[i].is_number() || !(k[i].get<double>() > 0)) r.fail(key, "must be a number > 0");
      check_strike(r, key, k[i].get<double>(), spot);
      o.strikes.push_back(k[i].get<double>());
    }
    o.cash = r.positive("cash");
    if (o.cash > limits::kMaxNotional) r.fail("cash", "beyond 1e12, got " + Reader::fmt(o.cash));
  } else if (type != ProductType::Exchange) {
    o.strikes.push_back(r.positive("strike"));
    check_strike(r, "strike", o.strikes.back(), spot);
  }
  return o;
}

}  // namespace

bool is_safe_product_id(const std::string& id) {
  if (id.empty() || id.size() > static_cast<std::size_t>(limits::kMaxIdLength) || !std::isalnum(static_cast<unsigned char>(id[0])))
    return false;
  return std::all_of(id.begin(), id.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-';
  });
}

// ISO 6166: two letters, nine letters or digits, a check digit (letters as 10..35, then Luhn
// over the digits), so that a mistyped ISIN is caught where it is read, not in a desk's report.
bool is_isin(const std::string& s) {
  if (s.size() != 12 || !std::isupper(static_cast<unsigned char>(s[0])) ||
      !std::isupper(static_cast<unsigned char>(s[1])) || !std::isdigit(static_cast<unsigned char>(s[11])))
    return false;
  std::string digits;
  for (char c : s) {
    if (std::isdigit(static_cast<unsigned char>(c))) {
      digits += c;
    } else if (std::isupper(static_cast<unsigned char>(c))) {
      digits += std::to_string(c - 'A' + 10);
    } else {
      return false;
    }
  }
  int sum = 0;
  bool twice = false;  // from the right, every second digit doubled (the check digit is not)
  for (auto it = digits.rbegin(); it != digits.rend(); ++it) {
    int d = *it - '0';
    if (twice && (d *= 2) > 9) d -= 9;
    sum += d;
    twice = !twice;
  }
  return sum % 10 == 0;
}

constexpr std::size_t kMaxTags = 16, kMaxTagBytes = 64;

std::vector<std::string> read_tags(const Reader& r) {
  std::vector<std::string> tags;
  if (!r.has("tags")) return tags;
  const json& list = r.array("tags");
  if (list.size() > kMaxTags) r.fail("tags", "at most " + std::to_string(kMaxTags) + " tags, got " + std::to_string(list.size()));
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string at = "[" + std::to_string(i) + "]";
    if (!list[i].is_string()) r.fail("tags" + at, "expected a string, got " + std::string(list[i].type_name()));
    const std::string tag = list[i].get<std::string>();
    if (tag.empty() || tag.size() > kMaxTagBytes ||
        !std::all_of(tag.begin(), tag.end(), [](char c) { return std::isprint(static_cast<unsigned char>(c)); }))
      r.fail("tags" + at, "a tag is 1 to 64 printable characters, got '" + tag + "'");
    tags.push_back(tag);
  }
  return tags;
}

Product product_from_json(const json& j, const std::string& source) {
  const Reader r(j, source, "");
  Product p;
  p.source = source;
  p.type = parse_enum(r, "type", kTypes);
  r.refuse_unknown_keys(product_keys(p.type));
  p.id = r.text("id");
  if (!is_safe_product_id(p.id))
    r.fail("id", "must be 1 to 64 letters, digits, '.', '_' or '-', beginning with a letter or digit (it names files)");
  if (r.has("isin")) {
    p.isin = r.text("isin");
    if (!is_isin(p.isin))
      r.fail("isin", "not an ISIN: '" + p.isin + "' (two letters, nine letters or digits, a check digit that matches)");
  }
  p.tags = read_tags(r);
  p.notional = r.has("notional") ? r.positive("notional") : 1.0;
  if (p.notional > limits::kMaxNotional) r.fail("notional", "beyond 1e12, got " + Reader::fmt(p.notional));
  p.assets = read_assets(r);
  const int need = required_assets(p.type);
  if (need != 0 && p.dimension() != need)
    r.fail("underlyings", std::string(to_string(p.type)) + " needs exactly " +
                              std::to_string(need) + " underlying(s), got " +
                              std::to_string(p.dimension()));
  p.correlation = read_correlation(r, p.assets.size());
  p.rate = r.number("rate");
  if (std::abs(p.rate) > limits::kMaxRate)
    r.fail("rate", "implausible rate " + Reader::fmt(p.rate) + " (a continuously compounded fraction: 0.03 for 3 %)");
  Dating dating;
  if (r.has("valuation_date")) {
    dating.valuation = read_date(r, "valuation_date");
    p.valuation_date = r.text("valuation_date");
  }
  if (r.has("day_count")) {
    p.day_count = r.text("day_count");
    try {
      dating.days_a_year = days_a_year(p.day_count);
    } catch (const std::invalid_argument& e) {
      r.fail("day_count", e.what());
    }
    if (!dating.valuation) r.fail("day_count", "a day count is for calendar dates: give the note's valuation_date");
  }
  if (p.is_els()) {
    p.terms = read_els(r, dating);
  } else {
    double spot = 0;
    for (const auto& a : p.assets) spot = std::max(spot, a.spot);
    p.terms = read_option(r, p.type, spot);
  }
  return p;
}

Product product_from_text(std::string_view text, const std::string& source) {
  return product_from_json(parse_json(text, source, "<file>"), source);
}

Product load_product_file(const std::string& path) {
  return product_from_text(read_input(path, {kMaxProductFileBytes, "a product file may hold"}), path);
}

json product_to_json(const Product& p) {
  json j;
  j["id"] = p.id;
  if (!p.isin.empty()) j["isin"] = p.isin;
  if (!p.tags.empty()) j["tags"] = p.tags;
  j["type"] = to_string(p.type);
  j["notional"] = p.notional;
  for (const auto& a : p.assets)
    j["underlyings"].push_back({{"name", a.name}, {"spot", a.spot}, {"reference", a.reference},
                                {"vol", a.vol}, {"div_yield", a.div_yield}});
  j["correlation"] = p.correlation;
  j["rate"] = p.rate;
  if (!p.valuation_date.empty()) j["valuation_date"] = p.valuation_date;
  if (!p.day_count.empty()) j["day_count"] = p.day_count;
  if (p.is_els()) {
    j["performance"] = to_string(p.els().performance);
    for (const auto& a : p.els().autocall)
      j["autocall"].push_back({{a.date.empty() ? "time" : "date", a.date.empty() ? json(a.time) : json(a.date)},
                               {"barrier", a.barrier},
                               {"coupon", a.coupon}});
    j["knock_in"] = {{"barrier", p.els().knock_in.barrier}, {"monitoring", to_string(p.els().knock_in.monitoring)}};
    if (p.els().knock_in.calendar.empty()) j["knock_in"]["days_per_year"] = p.els().knock_in.days_per_year;
    else j["knock_in"]["calendar"] = p.els().knock_in.calendar;
    const Coupons& c = p.els().coupons;
    if (p.pays_coupons())
      j["coupons"] = {{"per_year", c.per_year}, {"barrier", c.barrier}, {"coupon", c.coupon}, {"memory", c.memory}};
    const Lizard& z = p.els().lizard;
    if (z.autocall >= 0) j["lizard"] = {{"autocall", z.autocall + 1}, {"barrier", z.barrier}, {"coupon", z.coupon}};
    j["dummy_coupon"] = p.els().dummy_coupon;
    j["knocked_in"] = p.els().knocked_in;
  } else {
    j["maturity"] = p.option().maturity;
    if (p.type == ProductType::CashOrNothing2) {
      j["strikes"] = p.option().strikes;
      j["cash"] = p.option().cash;
    } else if (!p.option().strikes.empty()) {
      j["strike"] = p.option().strikes[0];
    }
  }
  return j;
}

const std::vector<TermObject>& els_term_objects() {
  static const std::vector<TermObject> objects = {
      {"knock_in", kKnockInKeys}, {"coupons", kCouponKeys}, {"lizard", kLizardKeys}};
  return objects;
}

}  // namespace elsbench
