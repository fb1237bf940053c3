#pragma once
// What a caller asks of a solver: grid, scheme, device (with CPU threads) and precision.
#include <string>

#include "platform/device.hpp"
#include "solvers/problem/grid_options.hpp"

namespace elsbench {

// Mixed: fp64 values, each step's increment in fp32 (the CPU adi's; its errors are fp64's).
enum class Precision { FP64, FP32, Mixed };
Precision parse_precision(const std::string& s);  // "fp64" | "fp32" | "mixed"
const char* to_string(Precision p);

struct SolverOptions {
  std::string scheme;  // empty: the solver's default
  GridOptions grid;
  Device device;       // device.threads: CPU threads, 0 for every core
  Precision precision = Precision::FP64;
  double max_seconds = 0;  // > 0: refuse before building what cannot finish within it (preflight.hpp)
  // Plan, do not price: each pricing adds the steps it would march to march_progress().planned
  // and returns no price (zeros), so that a pricing's progress knows its total before it starts.
  bool plan_only = false;
};

}  // namespace elsbench
