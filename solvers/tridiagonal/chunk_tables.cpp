#include "solvers/tridiagonal/chunk_tables.hpp"

#include <algorithm>
#include <cstddef>

#include "solvers/tridiagonal/chunked_solve.hpp"
#include "solvers/tridiagonal/line_solve.hpp"

namespace elsbench::gpu {
namespace {

struct TableRefs {
  double *a, *p, *u, *alpha, *beta, *G, *Q, *H;
};

TableRefs refs(std::vector<double>& t, std::size_t n) {
  const std::size_t K = static_cast<std::size_t>(chunks_of(static_cast<int>(n)));
  double* b = t.data();
  return {b, b + n, b + 2 * n, b + 3 * n, b + 4 * n, b + 5 * n, b + 5 * n + K, b + 5 * n + 2 * K};
}

// Coefficients of chunk [s, e] (e included), from the derivation in chunked_solve.hpp:
//   forward values  y_i = zl_i + g_i y_{s-1}, zl the chunk's own forward sweep from y_{s-1} = 0;
//   Z = zl_e = sum alpha_j r_j, G = g_e;
//   first solution  x_s = sum_i c_i y_i + h_s x_{e+1}, c_i = prod_{l<i} (-u_l), h_s = H;
//   V = sum_i c_i zl_i = sum_j beta_j r_j, Q = sum_i c_i g_i.
void fill_chunk(const TableRefs& t, std::size_t k, std::size_t s, std::size_t e) {
  const auto m = [&](std::size_t j) { return -t.p[j] * t.a[j]; };  // zl_j = p_j r_j + m_j zl_{j-1}
  double carry = 1.0;
  for (std::size_t j = e + 1; j-- > s;) {
    t.alpha[j] = t.p[j] * carry;
    carry *= m(j);
  }
  t.G[k] = carry;

  double c = 1.0, g = 1.0, q = 0.0, h = 1.0;
  std::vector<double> cs(e - s + 1);
  for (std::size_t i = s; i <= e; ++i) {
    g *= m(i);
    cs[i - s] = c;
    q += c * g;
    h *= -t.u[i];
    c *= -t.u[i];
  }
  t.Q[k] = q;
  t.H[k] = h;

  double B = cs[e - s];
  t.beta[e] = t.p[e] * B;
  for (std::size_t j = e; j-- > s;) {
    B = cs[j - s] + m(j + 1) * B;
    t.beta[j] = t.p[j] * B;
  }
}

}  // namespace

std::vector<double> chunk_table_values(const Tridiagonal& op, double theta_dt) {
  const std::size_t n = op.size();
  const LineFactors f = factor_axis(op, theta_dt);
  std::vector<double> table(static_cast<std::size_t>(table_elements(static_cast<int>(n))));
  const TableRefs t = refs(table, n);
  for (std::size_t i = 0; i < n; ++i) {
    t.a[i] = i == 0 ? 0.0 : f.lower[i];
    t.p[i] = f.inv_pivot[i];
    t.u[i] = i + 1 == n ? 0.0 : f.upper_ratio[i];
  }
  const std::size_t K = static_cast<std::size_t>(chunks_of(static_cast<int>(n)));
  for (std::size_t k = 0; k < K; ++k) {
    const std::size_t s = k * static_cast<std::size_t>(kChunk);
    const std::size_t e = std::min(s + static_cast<std::size_t>(kChunk), n) - 1;
    fill_chunk(t, k, s, e);
  }
  return table;
}

}  // namespace elsbench::gpu
