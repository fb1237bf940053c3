#pragma once
// One case of a sweep: one product priced by one solver (and scheme) on one grid, device and
// precision. Its id is the key of the results file: --resume and `compare` match cases by it.
#include <string>

#include "harness/sweep/axes.hpp"

namespace elsbench {

struct SweepCase {
  std::string product;  // product id
  std::string solver;
  std::string scheme;   // empty: the solver has no scheme choice
  int n = 100;
  NtRule nt;
  DeviceSpec device;
  Precision precision = Precision::FP64;
  // Set when planning already knows that the case cannot run (a scheme the solver lacks).
  std::string skip_reason;

  // "sample-2a-stepdown/adi:hundsdorfer-verwer/n=100/nt=200/cpu/t2/fp64"
  std::string id() const;
  SolverOptions options(const SweepGrid& grid) const;
};

}  // namespace elsbench
