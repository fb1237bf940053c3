#pragma once
// Sweep presets: harness/presets/<name>.json (quick, ci, cloud, full), or any file in that format.
#include <string>

#include "harness/sweep/axes.hpp"

namespace elsbench {

std::string presets_dir();
// `name_or_file`: a preset name, or a path to a preset JSON file. Errors name the file and field.
SweepSpec load_preset(const std::string& name_or_file);

}  // namespace elsbench
