#pragma once
// Bounds of a case, whether it comes from a flag or a preset (the grid's: its codec; threads:
// platform/device.hpp).
#include <cstdint>

#include "solvers/problem/grid_codec.hpp"

namespace elsbench {

inline constexpr int kMaxBookNotes = 100000;  // notes per timed run of a sweep's book axis
inline constexpr int kMaxRepetitions = 1000;  // timed repetitions of a sweep case
// A sweep or validation preset file larger than this is refused unread (the largest is 7 KiB).
inline constexpr std::uintmax_t kMaxPresetBytes = 1ULL << 20;

}  // namespace elsbench
