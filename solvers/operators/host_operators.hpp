#pragma once
// CPU kernels on the shared problem: 1-D operators along an axis, the mixed term, and batched
// tridiagonal solves (I - theta dt A_d) x = rhs along an axis. All of them act on every layer at
// once (a layer is just one more outer dimension: no line crosses layers). OpenMP threads take
// whole lines, so the result does not depend on the thread count.
#include <vector>

#include "solvers/problem/problem.hpp"

namespace elsbench {

// out = op_d v, or out += scale * op_d v when accumulate is set.
void apply_axis(const Problem& pb, int d, const Tridiagonal& op, const double* v, double* out,
                double scale, bool accumulate);
// out += coeff * (S_a d/dS_a)(S_b d/dS_b) v; tmp has the size of v.
void apply_mixed(const Problem& pb, const MixedTerm& m, const double* v, double* out, double* tmp);
// out = (sum_d A_d + mixed) v.
void apply_full(const Problem& pb, const double* v, double* out, double* tmp);

// LU factors of I - theta_dt * A for one axis; every line of that axis shares them.
struct LineFactors {
  std::vector<double> lower, upper_ratio, inv_pivot;
};
LineFactors factor_axis(const Tridiagonal& op, double theta_dt);
// x <- (I - theta_dt A_d)^{-1} x along axis d.
void solve_axis(const Problem& pb, int d, const LineFactors& f, double* x);
// y <- (I - theta_dt A_d)^{-1} (z + g f) along axis d; y may alias z, f may be null.
void solve_axis(const Problem& pb, int d, const LineFactors& fac, const double* z, const double* f,
                double g, double* y);

// The explicit Euler stability bound: 2 / max row sum of |A| (Gershgorin) over the full operator.
double explicit_dt_bound(const Problem& pb);

}  // namespace elsbench
