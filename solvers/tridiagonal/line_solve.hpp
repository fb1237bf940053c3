#pragma once
// The batched tridiagonal solve of the CPU variants: (I - theta dt A_d) x = rhs along one axis of
// the grid, every line sharing one LU factorisation (the GPU's chunked solve, chunked_solve.hpp,
// starts from the same factors). It acts on every layer at once (a layer is one more outer
// dimension: no line crosses layers). In solve_axis, OpenMP threads take fixed blocks of whole
// lines, in equal shares, and a thread that has finished its own share takes the rest of
// another's: the result does not depend on the thread count, nor on which thread solves a line.
// The ADI's own threads split the last axis's lines instead (split_solve.hpp).
#include <type_traits>
#include <vector>

#include "solvers/operators/stencils.hpp"
#include "solvers/problem/problem.hpp"
#include "solvers/tridiagonal/node_rhs.hpp"

namespace elsbench {

// LU factors of I - theta_dt * A for one axis; every line of that axis shares them.
template <class T>
struct LineFactorsT {
  std::vector<T> lower, upper_ratio, inv_pivot;
};
using LineFactors = LineFactorsT<double>;
LineFactors factor_axis(const Tridiagonal& op, double theta_dt);
// Row i of I - theta_dt * A: a x_{i-1} + b x_i + c x_{i+1} (what factor_axis and factor_split factor).
struct SystemRow {
  double a, b, c;
};
inline SystemRow system_row(const Tridiagonal& op, double theta_dt, std::size_t i) {
  return {-theta_dt * op.lower[i], 1.0 - theta_dt * op.diag[i], -theta_dt * op.upper[i]};
}
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
// lines of whole groups along axis d, in T = double or float. `buf` holds
// line_buffer_size(pb) values.
std::size_t line_buffer_size(const Problem& pb);
inline constexpr std::size_t kRowsPerBlock = 16;  // rows transposed and solved together
// Rows per register tile of the transposes (AVX: 4 doubles, 8 floats; AVX-512: 8 doubles). A block's
// whole tiles and its last few rows take different code, which compilers that do not contract
// a * b + c (an -O1 build) round differently: callers that want the same rows whatever the thread
// count start every block at a multiple of it, so that only the grid's last rows are ever left
// over. kRowsPerBlock is a multiple of it.
#if defined(__AVX512F__)
inline constexpr std::size_t kDoubleTileRows = 8;
#else
inline constexpr std::size_t kDoubleTileRows = 4;
#endif
template <class T>
inline constexpr std::size_t kRowsPerTile = std::is_same_v<T, double> ? kDoubleTileRows : 8;
template <class T>
void solve_rows(std::size_t n, const LineFactorsT<T>& fac, std::size_t count, const T* z, const T* f, T g, T* y,
                T* buf);
// Lines along axis d > 0 solved together: a block's lines times the nodes of a line stay in L2
// between elimination and substitution.
inline constexpr std::size_t kLinesPerBlock = 32;

// The lines of axis d > 0 in groups [first_group, last_group) (layers in 2-D, planes in 3-D; a
// group's lines share one node stride), all on the calling thread, in blocks of kLinesPerBlock.
template <class T>
void solve_axis_groups(const Problem& pb, int d, const LineFactorsT<T>& fac, const StageRhs<T>& rhs, T* y,
                       std::size_t first_group, std::size_t last_group);

}  // namespace elsbench
