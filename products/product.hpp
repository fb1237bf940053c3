#pragma once
// The product model: what a file in products/catalog/ describes. Every solver and the Monte Carlo
// engine read the same struct, and the semantics of docs/products.md from one place each: the
// redemption at maturity (payoff.hpp), the note's events (note_events.hpp, event_kind.hpp).
#include <string>
#include <variant>
#include <vector>

namespace elsbench {

enum class ProductType {
  StepdownEls,     // autocallable worst-of/best-of note with knock-in
  EuropeanCall,    // 1 asset
  EuropeanPut,     // 1 asset
  MinCall,         // Stulz: max(min(S1,S2) - K, 0)
  MaxCall,         // Stulz: max(max(S1,S2) - K, 0)
  MinPut,          // max(K - min(S1,S2), 0)
  MaxPut,          // max(K - max(S1,S2), 0)
  Exchange,        // Margrabe: max(S1 - S2, 0)
  CashOrNothing2,  // pays cash if S1 > K1 and S2 > K2
};

enum class Performance { WorstOf, BestOf };
enum class Monitoring { None, Daily, Continuous };

struct Underlying {
  std::string name;
  double spot = 0;
  double reference = 0;  // level that performance is measured against (ELS); strike scale otherwise
  double vol = 0;
  double div_yield = 0;
};

struct AutocallDate {
  double time = 0;     // years from the valuation date (ACT/365F where the term sheet gave `date`)
  double barrier = 0;  // fraction of reference
  double coupon = 0;   // paid as notional * (1 + coupon)
  std::string date;    // the term sheet's ISO date, where it gave one (written back as given)
};

struct KnockIn {
  double barrier = 0;
  Monitoring monitoring = Monitoring::None;
  int days_per_year = 252;
  // Daily monitoring on a calendar's business days (products/calendar.hpp) instead of every
  // 1 / days_per_year: their times from the valuation date, ACT/365F, maturity last.
  std::string calendar;
  std::vector<double> dates;
};

// Periodic coupons (monthly ones: per_year 12): on each date i / per_year up to maturity, a
// coupon of notional * coupon is paid while the performance is at or above the barrier; with
// memory, it also pays the coupons missed since the last one paid.
struct Coupons {
  int per_year = 0;  // 0: the note pays none
  double barrier = 0;
  double coupon = 0;
  bool memory = false;
};

// A lizard: an extra early redemption on one autocall date before maturity, paying notional x
// (1 + coupon) when the note is not called there and no underlying has closed below the barrier
// on a knock-in monitoring day up to it (the note's daily knock-in dates).
struct Lizard {
  int autocall = -1;  // index into ElsTerms::autocall; -1: the note has none
  double barrier = 0;
  double coupon = 0;
};

struct ElsTerms {
  Performance performance = Performance::WorstOf;
  std::vector<AutocallDate> autocall;  // sorted; the last date is maturity
  KnockIn knock_in;
  Coupons coupons;
  Lizard lizard;
  double dummy_coupon = 0;
  bool knocked_in = false;
};

struct OptionTerms {
  std::vector<double> strikes;  // one strike, or one per asset (cash-or-nothing)
  double maturity = 0;
  double cash = 0;  // cash-or-nothing payout
};

struct Product {
  std::string id;
  std::string isin;               // optional: carried into every output, checked as an ISIN
  std::vector<std::string> tags;  // optional free labels (desk, book, trader), carried into every output
  std::string valuation_date;     // optional ISO date: the day the term sheet's dates count from
  std::string day_count;          // optional: "ACT/365F" (the default) or "ACT/360", for those dates
  std::string source;  // file it was loaded from, for error messages and provenance
  ProductType type = ProductType::StepdownEls;
  double notional = 1.0;
  std::vector<Underlying> assets;
  std::vector<std::vector<double>> correlation;
  double rate = 0;
  // A step-down ELS is its terms plus its list of events (note_events.hpp); a validation product
  // keeps an option's terms. One or the other, as `type` says: els() and option() refuse the other
  // (std::bad_variant_access).
  std::variant<ElsTerms, OptionTerms> terms;

  ElsTerms& els() { return std::get<ElsTerms>(terms); }
  const ElsTerms& els() const { return std::get<ElsTerms>(terms); }
  OptionTerms& option() { return std::get<OptionTerms>(terms); }
  const OptionTerms& option() const { return std::get<OptionTerms>(terms); }

  int dimension() const { return static_cast<int>(assets.size()); }
  double maturity() const;
  bool is_els() const { return type == ProductType::StepdownEls; }
  // The note can still knock in: an ELS with a monitored barrier that has not knocked in yet.
  bool can_knock_in() const {
    return is_els() && els().knock_in.monitoring != Monitoring::None && !els().knocked_in;
  }
  // It can still knock in, on a barrier observed every day: the grids take a step a day at least.
  bool knocks_in_daily() const { return can_knock_in() && els().knock_in.monitoring == Monitoring::Daily; }
  // An ELS with no daily knock-in to come (knocked in, or monitored otherwise): its grids' steps
  // span days (n/2 a year) rather than one a day.
  bool steps_span_days() const { return is_els() && !knocks_in_daily(); }
  // Daily monitoring dates: the calendar's (knock_in.dates), or i / days_per_year, i = 1 ..
  // round(T * days_per_year).
  std::vector<double> monitoring_dates() const;
  bool pays_coupons() const { return is_els() && els().coupons.per_year > 0; }
  // The lizard can still pay: the note has one and can still knock in (a knocked-in note has
  // closed below the knock-in barrier, so below the lizard's too).
  bool has_lizard() const { return can_knock_in() && els().lizard.autocall >= 0; }
  // Coupon dates i / per_year up to maturity; one within a day of maturity is maturity.
  std::vector<double> coupon_dates() const;
};

const char* to_string(ProductType t);
const char* to_string(Performance p);
const char* to_string(Monitoring m);

}  // namespace elsbench
