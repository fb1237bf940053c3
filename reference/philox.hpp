#pragma once
// Philox4x32-10 (Salmon, Moraes, Dror & Shaw, "Parallel random numbers: as easy as 1, 2, 3",
// SC'11): a counter-based generator. The Monte Carlo engine keys it by (seed, path) and counts
// through a path's normals, so any path's numbers are computed directly, whichever thread runs it:
// a price is the same bit for bit for any thread count. Everything here is branch-free, straight-line
// code on plain integers and doubles, compiled for the host and the device alike (the CUDA engine
// draws the very same numbers), so that a loop over a block of paths vectorises (AVX2: four doubles
// an instruction); no libm call is made, whose result could change with the library version.
#include <array>
#include <cstdint>

#include "platform/hd.hpp"
#include "reference/path_math.hpp"

namespace elsbench::philox {

using Counter = std::array<std::uint32_t, 4>;
using Key = std::array<std::uint32_t, 2>;

inline constexpr std::uint32_t kMul0 = 0xD2511F53u, kMul1 = 0xCD9E8D57u;
inline constexpr std::uint32_t kWeyl0 = 0x9E3779B9u, kWeyl1 = 0xBB67AE85u;

// The ten rounds on a counter held in four scalars (the form that vectorises across paths).
ELSBENCH_PATH_FN void rounds(std::uint32_t& c0, std::uint32_t& c1, std::uint32_t& c2, std::uint32_t& c3,
                   std::uint32_t k0, std::uint32_t k1) {
  for (int r = 0; r < 10; ++r) {
    const std::uint64_t p0 = std::uint64_t{kMul0} * c0;
    const std::uint64_t p1 = std::uint64_t{kMul1} * c2;
    const auto hi0 = static_cast<std::uint32_t>(p0 >> 32), lo0 = static_cast<std::uint32_t>(p0);
    const auto hi1 = static_cast<std::uint32_t>(p1 >> 32), lo1 = static_cast<std::uint32_t>(p1);
    c0 = hi1 ^ c1 ^ k0;
    c1 = lo1;
    c2 = hi0 ^ c3 ^ k1;
    c3 = lo0;
    k0 += kWeyl0;
    k1 += kWeyl1;
  }
}

inline Counter philox4x32_10(Counter c, Key k) {
  rounds(c[0], c[1], c[2], c[3], k[0], k[1]);
  return c;
}

// ---- normal transform: Box-Muller on 32-bit uniforms ----------------------------------------
// A 32-bit uniform bounds |z| by sqrt(-2 log 2^-33) = 6.75; the mass beyond (1.5e-11) is far below
// any standard error this engine reports.

// (x + 0.5) / 2^32, in (0, 1): never 0, so its logarithm is finite. The conversion goes through a
// signed int because x86 before AVX-512 has no vector unsigned-to-double instruction.
ELSBENCH_PATH_FN double open_uniform(std::uint32_t x) {
  const auto centred = static_cast<std::int32_t>(x ^ 0x80000000u);
  return (static_cast<double>(centred) + 2147483648.5) * 0x1p-32;
}

// Natural logarithm of u > 0 (finite, normal): u = m 2^e with m in [sqrt(1/2), sqrt(2)), then
// log m = 2 atanh(s), s = (m - 1) / (m + 1), |s| <= 0.172, summed to s^23 (error below 1e-17).
ELSBENCH_PATH_FN double log_positive(double u) {
  const auto bits = path_math::bits_of(u);
  const std::uint64_t mantissa = bits & 0x000FFFFFFFFFFFFFull;
  // m >= sqrt(2) decided on the mantissa bits: an integer test, where a floating-point compare
  // under the default -ftrapping-math would keep GCC from vectorising the loop.
  const std::uint64_t halve = mantissa >= 0x6A09E667F3BCDull ? 1u : 0u;
  const double m = path_math::double_of(mantissa | ((1023u - halve) << 52));
  // Exponent as a double without an int64 conversion (absent from AVX2): 2^52 + e, minus 2^52.
  const double e = path_math::double_of(0x4330000000000000ull | ((bits >> 52) + halve)) - (0x1p52 + 1023.0);
  const double s = (m - 1.0) / (m + 1.0);
  const double w = s * s;
  double series = 1.0 / 23;
  series = path_math::mul_add(series, w, 1.0 / 21);
  series = path_math::mul_add(series, w, 1.0 / 19);
  series = path_math::mul_add(series, w, 1.0 / 17);
  series = path_math::mul_add(series, w, 1.0 / 15);
  series = path_math::mul_add(series, w, 1.0 / 13);
  series = path_math::mul_add(series, w, 1.0 / 11);
  series = path_math::mul_add(series, w, 1.0 / 9);
  series = path_math::mul_add(series, w, 1.0 / 7);
  series = path_math::mul_add(series, w, 1.0 / 5);
  series = path_math::mul_add(series, w, 1.0 / 3);
  const double log_m = path_math::mul_add(2.0 * s * w, series, 2.0 * s);
  // ln 2 split so that e * ln2_hi is exact for |e| < 2^11.
  constexpr double ln2_hi = 6.93147180369123816490e-01, ln2_lo = 1.90821492927058770002e-10;
  return path_math::mul_add(e, ln2_hi, path_math::mul_add(e, ln2_lo, log_m));
}

// Square root of x > 0 by Newton steps on 1/sqrt(x) from the bit-level first guess (relative
// error 3.5e-2 -> 1.8e-3 -> 5e-6 -> 4e-11 -> 2e-21). std::sqrt would be one instruction, but its
// errno path (for x < 0) stops GCC vectorising the loop that calls it.
ELSBENCH_PATH_FN double sqrt_positive(double x) {
  double y = path_math::double_of(0x5FE6EB50C7B537A9ull - (path_math::bits_of(x) >> 1));
  const double half_x = 0.5 * x;
  for (int i = 0; i < 4; ++i) y = y * path_math::mul_add(-half_x * y, y, 1.5);
  return x * y;
}

// sin and cos of t, |t| <= pi/4, by Taylor series to t^18 (error below 1e-19).
ELSBENCH_PATH_FN void sincos_small(double t, double& s, double& c) {
  const double t2 = t * t;
  double ps = -1.0 / 355687428096000.0;  // -1/17!
  ps = path_math::mul_add(ps, t2, 1.0 / 1307674368000.0);
  ps = path_math::mul_add(ps, t2, -1.0 / 6227020800.0);
  ps = path_math::mul_add(ps, t2, 1.0 / 39916800.0);
  ps = path_math::mul_add(ps, t2, -1.0 / 362880.0);
  ps = path_math::mul_add(ps, t2, 1.0 / 5040.0);
  ps = path_math::mul_add(ps, t2, -1.0 / 120.0);
  ps = path_math::mul_add(ps, t2, 1.0 / 6.0);
  s = path_math::mul_add(-t * t2, ps, t);
  double pc = 1.0 / 6402373705728000.0;  // 1/18!
  pc = path_math::mul_add(pc, t2, -1.0 / 20922789888000.0);
  pc = path_math::mul_add(pc, t2, 1.0 / 87178291200.0);
  pc = path_math::mul_add(pc, t2, -1.0 / 479001600.0);
  pc = path_math::mul_add(pc, t2, 1.0 / 3628800.0);
  pc = path_math::mul_add(pc, t2, -1.0 / 40320.0);
  pc = path_math::mul_add(pc, t2, 1.0 / 720.0);
  pc = path_math::mul_add(pc, t2, -1.0 / 24.0);
  pc = path_math::mul_add(pc, t2, 0.5);
  c = path_math::mul_add(-t2, pc, 1.0);
}

// Two independent standard normals from two 32-bit words. The angle's top two bits pick a
// quadrant (an exact rotation), the other 30 bits a uniform angle in [-pi/4, pi/4): no range
// reduction of a large argument is ever needed.
ELSBENCH_PATH_FN void box_muller(std::uint32_t radius_bits, std::uint32_t angle_bits, double& z0, double& z1) {
  const double radius = sqrt_positive(-2.0 * log_positive(open_uniform(radius_bits)));
  const std::uint32_t quadrant = angle_bits >> 30;
  const double fraction = (static_cast<double>(static_cast<std::int32_t>(angle_bits & 0x3FFFFFFFu)) + 0.5) * 0x1p-30;
  double s = 0, c = 0;
  sincos_small((fraction - 0.5) * 1.5707963267948966, s, c);
  // Rotation by quadrant * pi/2: (c, s) -> (c, s), (-s, c), (-c, -s), (s, -c).
  const double odd = static_cast<double>(quadrant & 1u);
  const double sign = 1.0 - static_cast<double>(quadrant & 2u);
  z0 = radius * sign * path_math::mul_add(1.0 - odd, c, -(odd * s));
  z1 = radius * sign * path_math::mul_add(1.0 - odd, s, odd * c);
}

// Four standard normals from one Philox block.
ELSBENCH_PATH_FN void normals4(std::uint32_t c0, std::uint32_t c1, std::uint32_t c2, std::uint32_t c3,
                     std::uint32_t k0, std::uint32_t k1, double& z0, double& z1, double& z2,
                     double& z3) {
  rounds(c0, c1, c2, c3, k0, k1);
  box_muller(c0, c1, z0, z1);
  box_muller(c2, c3, z2, z3);
}

}  // namespace elsbench::philox
