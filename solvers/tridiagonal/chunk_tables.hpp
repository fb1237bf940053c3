#pragma once
// Host side of the chunked tridiagonal solve (chunked_solve.hpp): the LU factors of I - theta dt A_d
// and the chunk coefficients derived from them, which depend on the matrix only and are therefore
// computed once per distinct theta dt and shared by every line of the axis.
#include <vector>

#include "solvers/operators/axis_operator.hpp"

namespace elsbench::gpu {

// gpu::table_elements(n) values in the layout of gpu::chunk_table: a, p, u, alpha, beta (per
// node) and G, Q, H (per chunk). a and p, u are factor_axis's lower, inv_pivot and upper_ratio,
// with a[0] = u[n-1] = 0 (the CPU never reads them).
std::vector<double> chunk_table_values(const Tridiagonal& op, double theta_dt);

}  // namespace elsbench::gpu
