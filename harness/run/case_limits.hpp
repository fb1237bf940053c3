#pragma once
// Bounds of a case, whether it comes from a flag or a preset (the grid's: its codec; threads:
// platform/device.hpp).
#include "solvers/problem/grid_codec.hpp"

namespace elsbench {

inline constexpr int kMaxBookNotes = 100000;  // notes per timed run of a sweep's book axis
inline constexpr int kMaxRepetitions = 1000;  // timed repetitions of a sweep case

}  // namespace elsbench
