#include "products/product.hpp"

#include <cmath>

namespace elsbench {

double Product::maturity() const {
  return is_els() ? els().autocall.back().time : option().maturity;
}

std::vector<double> Product::monitoring_dates() const {
  std::vector<double> dates;
  if (!is_els() || els().knock_in.monitoring != Monitoring::Daily) return dates;
  if (!els().knock_in.calendar.empty()) return els().knock_in.dates;
  const int days = els().knock_in.days_per_year;
  const auto count = static_cast<int>(std::lround(maturity() * days));
  dates.reserve(static_cast<std::size_t>(count));
  for (int i = 1; i <= count; ++i) dates.push_back(static_cast<double>(i) / days);
  // The last monitoring date is maturity itself, even when T * days is not a whole number.
  if (!dates.empty()) dates.back() = maturity();
  return dates;
}

std::vector<double> Product::coupon_dates() const {
  std::vector<double> dates;
  if (!pays_coupons()) return dates;
  const double per_year = els().coupons.per_year, T = maturity(), day = 1.0 / 365.0;
  for (int i = 1; i / per_year <= T + day; ++i) {
    dates.push_back(T - i / per_year < day ? T : i / per_year);
    if (dates.back() == T) break;
  }
  return dates;
}

const char* to_string(ProductType t) {
  switch (t) {
    case ProductType::StepdownEls: return "stepdown-els";
    case ProductType::EuropeanCall: return "european-call";
    case ProductType::EuropeanPut: return "european-put";
    case ProductType::MinCall: return "min-call";
    case ProductType::MaxCall: return "max-call";
    case ProductType::MinPut: return "min-put";
    case ProductType::MaxPut: return "max-put";
    case ProductType::Exchange: return "exchange";
    case ProductType::CashOrNothing2: return "cash-or-nothing-2";
  }
  return "?";
}

const char* to_string(Performance p) { return p == Performance::WorstOf ? "worst-of" : "best-of"; }

const char* to_string(Monitoring m) {
  switch (m) {
    case Monitoring::None: return "none";
    case Monitoring::Daily: return "daily";
    case Monitoring::Continuous: return "continuous";
  }
  return "?";
}

}  // namespace elsbench
