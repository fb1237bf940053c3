#pragma once
// Bounds of the numeric flags, the same in every subcommand (and in presets: harness/run/case_limits.hpp).
#include "harness/run/case_limits.hpp"
#include "platform/device.hpp"

namespace elsbench {

inline constexpr int kMaxThreads = kMaxCpuThreads;

}  // namespace elsbench
