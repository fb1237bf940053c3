#pragma once
// The ADI schemes by name, as plain numbers: the CPU stepper, the GPU plan and the device code
// (which reads them from step records) share this one enumeration.
namespace elsbench {

enum class SchemeKind : int { Douglas = 0, CraigSneyd = 1, ModifiedCraigSneyd = 2, HundsdorferVerwer = 3 };

}  // namespace elsbench
