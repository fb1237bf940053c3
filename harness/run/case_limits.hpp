#pragma once
// Bounds of a case, whether it comes from a flag or a preset (threads: platform/device.hpp).
namespace elsbench {

inline constexpr int kMaxCaseNodes = 100000;  // nodes per axis
inline constexpr int kMaxBookNotes = 100000;  // notes per timed run of a sweep's book axis
// The mesh: S_max as a multiple of the reference level in (1, 100], the sinh concentration in
// (0, 100] (beyond them the mesh leaves fp64's range and the operator weights turn NaN).
inline constexpr double kMaxSMaxMultiple = 100, kMaxDensity = 100;
inline constexpr int kMaxDampingSteps = 100;
inline constexpr int kMaxRepetitions = 1000;  // timed repetitions of a sweep case

}  // namespace elsbench
