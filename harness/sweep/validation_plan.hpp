#pragma once
// A validation preset (harness/presets/validation/<name>.json, or a case file) read into a plan:
// each case's product, solver, scheme, device and precision through the sweep axes that read
// them in a sweep, and its grid through the grid codec, so that a case means what the same
// values mean in a sweep. A bad preset is refused, naming the file and field, before any case runs.
#include <string>

#include "harness/run/validation.hpp"

namespace elsbench {

// `threads` > 0: the CPU cases that name no thread count (device "cpu" or none) take that many.
ValidationPlan load_validation_plan(const std::string& name_or_path, int threads = 0);

}  // namespace elsbench
