#pragma once
// Sweep presets: harness/presets/<name>.json (quick, ci, cloud, full), or any file in that format.
#include <string>
#include <string_view>

#include "harness/sweep/axes.hpp"

namespace elsbench {

std::string presets_dir();
// `name_or_file`: a preset name, or a path to a preset JSON file. Errors name the file and field.
SweepSpec load_preset(const std::string& name_or_file);
// The text of a preset file named `source`.
SweepSpec preset_from_text(std::string_view text, const std::string& source);

}  // namespace elsbench
