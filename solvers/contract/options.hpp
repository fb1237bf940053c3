#pragma once
// What a caller asks of a solver: grid, scheme, device, precision, threads.
#include <string>

#include "solvers/problem/problem_builder.hpp"

namespace elsbench {

enum class Precision { FP64, FP32 };
Precision parse_precision(const std::string& s);  // "fp64" | "fp32"
const char* to_string(Precision p);

struct Device {
  enum class Kind { Cpu, Cuda } kind = Kind::Cpu;
  int index = 0;
  bool is_auto = false;  // "auto": the best available, falling back to the CPU
  std::string str() const;
};
Device parse_device(const std::string& s);  // "auto" | "cpu" | "cuda" | "cuda:N"

struct SolverOptions {
  std::string scheme;  // empty: the solver's default
  GridSpec grid;
  Device device;
  Precision precision = Precision::FP64;
  int threads = 0;     // 0: all cores
};

}  // namespace elsbench
