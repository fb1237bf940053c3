#pragma once
// Bounds of a case, whether it comes from a flag or a preset (threads: platform/device.hpp).
namespace elsbench {

inline constexpr int kMaxCaseNodes = 100000;  // nodes per axis
inline constexpr int kMaxBookNotes = 100000;  // notes per timed run of a sweep's book axis

}  // namespace elsbench
