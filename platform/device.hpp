#pragma once
// Where a pricing runs, as the user names it. One parser for every command, preset and results
// file: "auto", "cpu" (every core), "cpu:tN" (N threads), "cuda" (device 0) or "cuda:N".
#include <string>

namespace elsbench {

// CPU threads a device may ask for, in a flag, a preset or cpu:tN (tens of thousands fail or crash
// in thread creation).
inline constexpr int kMaxCpuThreads = 1024;

struct Device {
  enum class Kind { Cpu, Cuda } kind = Kind::Cpu;
  int index = 0;         // CUDA device number, as CUDA numbers them
  int threads = 0;       // CPU threads; 0: every core of this machine
  bool is_auto = false;  // "auto": the best available, falling back to the CPU

  bool is_cpu() const { return kind == Kind::Cpu; }
  // "cpu" or "cuda:N": where it ran, without the thread count.
  std::string str() const;
  // "cpu:tN" (threads resolved) or "cuda:N": the form a sweep records.
  std::string spec() const;
};

// Throws std::invalid_argument naming the accepted forms.
Device parse_device(const std::string& s);
// The CPU threads a pricing on `d` runs with: its own count, or every core when it says 0.
int resolved_threads(const Device& d);
// The CPUs this process may use (its affinity mask), at least 1.
int hardware_threads();

}  // namespace elsbench
