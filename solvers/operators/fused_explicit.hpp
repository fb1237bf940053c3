#pragma once
// One pass over the grid that evaluates every explicit term of an ADI stage at once: the 1-D
// operator of each axis and the mixed terms, read from one 3^dim neighbourhood, combined with up
// to three base arrays. ADI stages are memory bound, so reading the values once matters more
// than the arithmetic. Values are T (double, or float for an fp32 march); the stencils come in T
// from GridStencils<T>. The output may be O, narrower than T: a mixed march's first pass reads its
// fp64 values and writes the fp32 increment dt F(X).
#include <cstddef>

#include "solvers/operators/stencils.hpp"
#include "solvers/problem/problem.hpp"

namespace elsbench {

template <class T, class O = T>
struct ExplicitPassT {
  const T* v = nullptr;                          // the values the operators act on
  T* axis_out[3] = {nullptr, nullptr, nullptr};  // A_d v per axis, when wanted
  T* mixed_out = nullptr;                        // sum of mixed terms M v, when wanted
  O* out = nullptr;  // sum_k base_coeff[k] base[k] + mixed_coeff M v + axes_coeff sum_d A_d v
  const T* base[3] = {nullptr, nullptr, nullptr};
  double base_coeff[3] = {0, 0, 0};
  double mixed_coeff = 0;
  double axes_coeff = 0;
};
using ExplicitPass = ExplicitPassT<double>;

// The whole pass (fp64), on the threads of its own parallel region.
void run_explicit_pass(const Problem& pb, const ExplicitPass& pass);

// Rows are the lines of axis 0 over every layer, in memory order (row k starts at k * n0).
std::size_t explicit_rows(const Problem& pb);

// One thread's row buffers and its cache of S0 d/dS0 rows, kept across passes.
template <class T>
class PassScratch {
 public:
  explicit PassScratch(std::size_t n0);
  ~PassScratch();
  PassScratch(PassScratch&&) noexcept;
  PassScratch& operator=(PassScratch&&) noexcept;
  struct Parts;
  Parts& parts() { return *parts_; }

 private:
  Parts* parts_;
};

// Rows [first, last) of a pass, on the calling thread (inside a caller's parallel region). With
// `axis0_rows`, A_0 v of those rows goes there (row first at its start) instead of
// pass.axis_out[0]: a caller that solves axis 0 on the rows next keeps them out of memory.
template <class T, class O>
void run_explicit_rows(const Problem& pb, const GridStencils<T>& stencils, const ExplicitPassT<T, O>& pass,
                       std::size_t first, std::size_t last, PassScratch<T>& scratch, T* axis0_rows = nullptr);

}  // namespace elsbench
