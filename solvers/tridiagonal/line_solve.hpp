#pragma once
// The batched tridiagonal solve of the CPU variants: (I - theta dt A_d) x = rhs along one axis of
// the grid, every line sharing one LU factorisation (the GPU's chunked solve, chunked_solve.hpp,
// starts from the same factors). It acts on every layer at once (a layer is one more outer
// dimension: no line crosses layers). OpenMP threads take equal shares of whole lines, so the
// result does not depend on the thread count.
#include <vector>

#include "solvers/operators/stencils.hpp"
#include "solvers/problem/problem.hpp"

namespace elsbench {

// LU factors of I - theta_dt * A for one axis; every line of that axis shares them.
template <class T>
struct LineFactorsT {
  std::vector<T> lower, upper_ratio, inv_pivot;
};
using LineFactors = LineFactorsT<double>;
LineFactors factor_axis(const Tridiagonal& op, double theta_dt);
// The fp64 factors rounded once to fp32 (an fp32 march).
LineFactorsT<float> to_fp32(const LineFactors& f);
// x <- (I - theta_dt A_d)^{-1} x along axis d.
void solve_axis(const Problem& pb, int d, const LineFactors& f, double* x);
// y <- (I - theta_dt A_d)^{-1} (z + g f) along axis d; y may alias z, f may be null.
void solve_axis(const Problem& pb, int d, const LineFactors& fac, const double* z, const double* f,
                double g, double* y);
// The same with the factors of theta_dt computed here (an ADI stage).
void solve_axis_rhs(const Problem& pb, int d, double theta_dt, const double* z, const double* f,
                    double g, double* y);

// The same work in pieces, for callers that hold their own parallel region (the fused ADI
// stages): `count` whole lines of axis 0 (rows, n nodes each, z, f and y at the first), and the
// calling thread's share of the lines along axis d, in T = double or float. `buf` holds
// line_buffer_size(pb) values.
std::size_t line_buffer_size(const Problem& pb);
inline constexpr std::size_t kRowsPerBlock = 16;  // rows transposed and solved together
// Rows per register tile of the transposes (4 doubles, 8 floats). A block's whole tiles and its
// last few rows take different code, which compilers that do not contract a * b + c (an -O1
// build) round differently: callers that want the same rows whatever the thread count start
// every block at a multiple of it, so that only the grid's last rows are ever left over.
template <class T>
inline constexpr std::size_t kRowsPerTile = 32 / sizeof(T);
template <class T>
void solve_rows(std::size_t n, const LineFactorsT<T>& fac, std::size_t count, const T* z, const T* f, T g, T* y,
                T* buf);
// Equal shares (to within 8 lines) in blocks, so that two threads finish a stage together.
template <class T>
void solve_axis_share(const Problem& pb, int d, const LineFactorsT<T>& fac, const T* z, const T* f, T g, T* y,
                      T* buf);
// The same share of y <- (I - theta_dt A_d)^{-1} (z + g A_d v) for an axis d > 0, A_d v formed from
// v inside the solve as the explicit pass forms it (the same value to the bit), so that it is
// never stored; v must not be y.
template <class T>
void solve_axis_share_stencil(const Problem& pb, int d, const LineFactorsT<T>& fac, const Stencil<T>& op, const T* z,
                              const T* v, T g, T* y);

}  // namespace elsbench
