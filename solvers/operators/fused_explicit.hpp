#pragma once
// One pass over the grid that evaluates every explicit term of an ADI stage at once: the 1-D
// operator of each axis and the mixed terms, read from one 3^dim neighbourhood, combined with up
// to three base arrays. ADI stages are memory bound, so reading the values once matters more
// than the arithmetic.
#include "solvers/problem/problem.hpp"

namespace elsbench {

struct ExplicitPass {
  const double* v = nullptr;               // the values the operators act on
  double* axis_out[3] = {nullptr, nullptr, nullptr};  // A_d v per axis, when wanted
  double* mixed_out = nullptr;             // sum of mixed terms M v, when wanted
  double* out = nullptr;                   // sum_k base_coeff[k] base[k] + mixed_coeff M v + axes_coeff sum_d A_d v
  const double* base[3] = {nullptr, nullptr, nullptr};
  double base_coeff[3] = {0, 0, 0};
  double mixed_coeff = 0;
  double axes_coeff = 0;
};

void run_explicit_pass(const Problem& pb, const ExplicitPass& pass);

}  // namespace elsbench
