#pragma once
// The few transcendental functions a Monte Carlo path needs, written out on plain doubles for the
// host and the device alike: libm's exp and CUDA's exp may differ in the last bit, and a CPU run
// and a GPU run of the same paths must not. Everything is straight-line code, so a loop over a
// block of paths still vectorises on the CPU.
#include <cstdint>
#if !defined(__CUDA_ARCH__)
#include <bit>
#endif

#include "platform/hd.hpp"

// The CPU engine's path loops vectorise only if every call in them is inlined; GCC's heuristics
// give up on the normal transform once it holds a few dozen FMAs.
#if defined(__CUDACC__)
#define ELSBENCH_PATH_FN ELSBENCH_HD
#else
#define ELSBENCH_PATH_FN inline __attribute__((always_inline))
#endif

namespace elsbench::path_math {

ELSBENCH_PATH_FN std::uint64_t bits_of(double x) {
#if defined(__CUDA_ARCH__)
  return static_cast<std::uint64_t>(__double_as_longlong(x));
#else
  return std::bit_cast<std::uint64_t>(x);
#endif
}

ELSBENCH_PATH_FN double double_of(std::uint64_t bits) {
#if defined(__CUDA_ARCH__)
  return __longlong_as_double(static_cast<long long>(bits));
#else
  return std::bit_cast<double>(bits);
#endif
}

// a * b + c in one rounding where the machine has FMA (every CUDA device; x86-64-v3), so that
// the polynomials below cost one instruction a term and give the same bits on the CPU and a GPU;
// two roundings on a CPU without FMA, whose results then differ from a GPU's in the last bits.
ELSBENCH_PATH_FN double mul_add(double a, double b, double c) {
#if defined(__CUDA_ARCH__)
  return fma(a, b, c);
#elif defined(__FMA__)
  return __builtin_fma(a, b, c);
#else
  return a * b + c;
#endif
}

// e^x for x in [-708, 709] (clamped there: below, e^x < 3.3e-308 is as good as 0 for a
// probability; above, no path level comes near). x = k ln 2 + r, |r| <= ln 2 / 2, e^r by Taylor
// to r^13 (relative error below 1e-16), 2^k put straight into the exponent bits.
ELSBENCH_PATH_FN double exp_bounded(double x) {
  x = x < -708.0 ? -708.0 : x;
  x = x > 709.0 ? 709.0 : x;
  // Round x / ln 2 to the nearest integer by adding 1.5 * 2^52: the integer lands in the low
  // mantissa bits, where no int64 conversion (absent from AVX2) is needed to read it.
  constexpr double kRound = 6755399441055744.0;
  const double shifted = x * 1.4426950408889634 + kRound;
  const double k = shifted - kRound;
  constexpr double ln2_hi = 6.93147180369123816490e-01, ln2_lo = 1.90821492927058770002e-10;
  const double r = (x - k * ln2_hi) - k * ln2_lo;
  double p = 1.0 / 6227020800.0;  // 1/13!
  p = mul_add(p, r, 1.0 / 479001600.0);
  p = mul_add(p, r, 1.0 / 39916800.0);
  p = mul_add(p, r, 1.0 / 3628800.0);
  p = mul_add(p, r, 1.0 / 362880.0);
  p = mul_add(p, r, 1.0 / 40320.0);
  p = mul_add(p, r, 1.0 / 5040.0);
  p = mul_add(p, r, 1.0 / 720.0);
  p = mul_add(p, r, 1.0 / 120.0);
  p = mul_add(p, r, 1.0 / 24.0);
  p = mul_add(p, r, 1.0 / 6.0);
  p = mul_add(p, r, 0.5);
  const double e_r = 1.0 + r + r * r * p;
  // k in [-1022, 1023]: the biased exponent k + 1023 is read from the low bits of `shifted`.
  const std::uint64_t biased = (bits_of(shifted) + 1023u) & 0x7FFu;
  return e_r * double_of(biased << 52);
}

}  // namespace elsbench::path_math
