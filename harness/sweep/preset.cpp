#include "harness/sweep/preset.hpp"

#include <filesystem>

#include "harness/run/case_limits.hpp"
#include "platform/input_error.hpp"
#include "platform/input_file.hpp"
#include "platform/json_text.hpp"
#include "products/catalog.hpp"

namespace elsbench {
namespace fs = std::filesystem;

std::string presets_dir() { return project_root() + "/harness/presets"; }

SweepSpec load_preset(const std::string& name_or_file) {
  const fs::path file = shipped_or_given(name_or_file, presets_dir());
  std::error_code ec;
  if (!fs::exists(file, ec)) {
    std::string known;
    if (fs::is_directory(presets_dir()))
      for (const auto& e : fs::directory_iterator(presets_dir()))
        if (e.path().extension() == ".json") known += (known.empty() ? "" : ", ") + e.path().stem().string();
    throw InputError(name_or_file, "--preset", "no such file, and no preset of this name (known: " + known + ")");
  }
  return preset_from_text(read_input(file.string(), {kMaxPresetBytes, "a preset may hold"}), file.string());
}

SweepSpec preset_from_text(std::string_view text, const std::string& source) {
  return sweep_spec_from_json(parse_json(text, source, "(top level)"), source);
}

}  // namespace elsbench
