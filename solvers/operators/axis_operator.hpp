#pragma once
// The 1-D operator of one asset, A_d = 1/2 sigma^2 S^2 d2/dS2 + (r - q) S d/dS - r / dim, as
// three diagonals on a non-uniform mesh, and the S d/dS weights that the mixed term is built from.
#include <vector>

namespace elsbench {

struct Tridiagonal {
  std::vector<double> lower, diag, upper;  // row i couples i-1, i, i+1; lower[0] = upper[n-1] = 0
  std::size_t size() const { return diag.size(); }
};

// At S = 0 the diffusion and drift vanish (no boundary condition needed); at S_max the value is
// taken as linear in S (second derivative zero, one-sided first derivative).
Tridiagonal axis_operator(const std::vector<double>& s, double vol, double drift, double reaction);

// Weights of S dV/dS (central inside, one-sided at S_max): the mixed term
// rho sigma_a sigma_b S_a S_b d2V/dS_a dS_b is the tensor product of two of these.
Tridiagonal scaled_first_derivative(const std::vector<double>& s);

}  // namespace elsbench
