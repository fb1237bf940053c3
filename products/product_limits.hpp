#pragma once
// Bounds on every product field that no real note exceeds (docs/reliability.md). They keep the
// work a file can ask for bounded (daily monitoring over the maturity), and every level the
// solvers and Monte Carlo compute within fp64's range, so a finite input gives a finite price.
// The loader refuses a field outside them, naming it.

namespace elsbench::limits {

inline constexpr double kMaxMaturityYears = 30;      // autocall dates and option maturities
inline constexpr double kMinTimeYears = 1e-4;        // a maturity, and the gap between autocall dates (under an hour)
inline constexpr double kMinLevel = 1e-6;            // spot, reference, strike, in currency units
inline constexpr double kMaxLevel = 1e9;
inline constexpr double kMaxLevelRatio = 100;        // spot / reference and strike / spot, either way
inline constexpr double kMaxNotional = 1e12;         // notional and cash amounts
inline constexpr double kMaxVol = 3;                 // 300 % a year
inline constexpr double kMaxRate = 1;                // |rate|, |div_yield|: continuously compounded
inline constexpr double kMaxAutocallBarrier = 2;     // fraction of the reference
inline constexpr double kMaxKnockInBarrier = 1;      // a knock-in lies at or below the reference
// A coupon is a fraction of notional: above 1 (100 %) it is a percentage written as a number (a
// coupon of 5 meant as 5 % priced a 10,000 note at 31,389).
inline constexpr double kMaxCoupon = 1;
inline constexpr int kMaxIdLength = 64;              // ids name files: [A-Za-z0-9][A-Za-z0-9._-]*

}  // namespace elsbench::limits
