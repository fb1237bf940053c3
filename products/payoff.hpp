#pragma once
// Payoff semantics of docs/products.md, written once, for host and device: the PDE builder, the CPU Monte
// Carlo and the CUDA Monte Carlo all call these functions on a PayoffTerms, the product's terms
// flattened into plain numbers that a kernel can take by value.
#include "platform/hd.hpp"
#include "products/product.hpp"

namespace elsbench {

inline constexpr int kMaxAssets = 3;
inline constexpr int kMaxAutocallDates = 64;

struct PayoffTerms {
  ProductType type = ProductType::StepdownEls;
  int dim = 0;
  bool worst_of = true;
  double reference[kMaxAssets] = {};
  double notional = 0;
  double dummy_amount = 0;      // notional * (1 + dummy_coupon): redeemed without knock-in
  double knock_in_barrier = 0;  // fraction of reference
  int dates = 0;                // autocall dates; the last is maturity
  double barrier[kMaxAutocallDates] = {};
  double amount[kMaxAutocallDates] = {};  // notional * (1 + coupon_k)
  double strike[2] = {};        // validation products: one strike, or one per asset
  double cash = 0;              // cash-or-nothing payout
};

// Throws std::invalid_argument past kMaxAssets assets or kMaxAutocallDates dates (the loader
// refuses such files first).
PayoffTerms payoff_terms(const Product& product);

// min (worst-of) or max (best-of) over assets of S_i / reference_i.
ELSBENCH_HD double performance(const PayoffTerms& t, const double* spots) {
  double perf = spots[0] / t.reference[0];
  for (int i = 1; i < t.dim; ++i) {
    const double x = spots[i] / t.reference[i];
    perf = t.worst_of ? (x < perf ? x : perf) : (x > perf ? x : perf);
  }
  return perf;
}

// Strict: knock-in happens when performance < barrier at a monitoring date.
ELSBENCH_HD bool knocks_in(const PayoffTerms& t, double perf) { return perf < t.knock_in_barrier; }

ELSBENCH_HD bool autocalls(const PayoffTerms& t, int date, double perf) { return perf >= t.barrier[date]; }

ELSBENCH_HD double autocall_amount(const PayoffTerms& t, int date) { return t.amount[date]; }

// Redemption at maturity for a note that was not redeemed early.
ELSBENCH_HD double maturity_amount(const PayoffTerms& t, double perf, bool knocked_in) {
  const int last = t.dates - 1;
  if (autocalls(t, last, perf)) return autocall_amount(t, last);
  if (!knocked_in) return t.dummy_amount;
  return t.notional * (perf < 1.0 ? perf : 1.0);
}

// Payoff at maturity of the validation products (spots at T).
ELSBENCH_HD double option_payoff(const PayoffTerms& t, const double* s) {
  const auto positive = [](double x) { return x > 0.0 ? x : 0.0; };
  const double k = t.strike[0];
  switch (t.type) {
    case ProductType::EuropeanCall: return positive(s[0] - k);
    case ProductType::EuropeanPut: return positive(k - s[0]);
    case ProductType::MinCall: return positive((s[0] < s[1] ? s[0] : s[1]) - k);
    case ProductType::MaxCall: return positive((s[0] > s[1] ? s[0] : s[1]) - k);
    case ProductType::MinPut: return positive(k - (s[0] < s[1] ? s[0] : s[1]));
    case ProductType::MaxPut: return positive(k - (s[0] > s[1] ? s[0] : s[1]));
    case ProductType::Exchange: return positive(s[0] - s[1]);
    case ProductType::CashOrNothing2: return (s[0] > t.strike[0] && s[1] > t.strike[1]) ? t.cash : 0.0;
    case ProductType::StepdownEls: break;
  }
  return 0.0;
}

}  // namespace elsbench
