#pragma once
// The one codec of GridOptions: its key names, bounds, text and JSON forms. The CLI flags, sweep
// and validation presets, results files, books and resume read and write a grid through it, so a
// setting has one name and one range everywhere, and every setting that changes a price is part
// of what a results file records (and a resume compares). A key's flag: "s_max" -> --s-max.
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "solvers/problem/grid_options.hpp"

namespace elsbench {

inline constexpr int kMinNodes = 4, kMaxNodes = 100000;  // per axis
// Beyond these the mesh leaves fp64's range and the operator weights turn NaN.
inline constexpr double kMaxSMaxMultiple = 100, kMaxDensity = 100;
// Below it the sinh mesh crowds its nodes onto one level and leaves the rest of the domain coarse:
// a scale of 1e-9 of the strike priced the catalog's call at 9.59 against 9.227 at n = 100 (0.01:
// 9.252). The problem builder's own concentration (a note of short life) stops here too.
inline constexpr double kMinDensity = 0.01;
inline constexpr int kMaxDampingSteps = 100, kMaxKnockInDamping = 8;

// A numeric grid setting, declared once: its key (JSON; the CLI flag is grid_flag(key)), whether
// it is a whole number, its bounds, its help, and where GridOptions keeps it. The CLI flags, the
// bounds check and the JSON forms all read this table; n, nt and mesh have text forms of their own.
struct GridSetting {
  const char* key;
  bool whole;            // a whole number, else any real within the bounds
  double lowest, highest;
  bool above_lowest;     // lowest itself excluded: (lowest, highest]
  const char* help;      // the flag's help, before its range and default
  double GridOptions::*real = nullptr;
  int GridOptions::*count = nullptr;

  double get(const GridOptions& g) const { return real ? g.*real : g.*count; }
  bool within(double v) const { return (above_lowest ? v > lowest : v >= lowest) && v <= highest; }
  std::string range() const;  // "(1, 100]", "[0, 8]"
};
// s_max, density, damping, ki_damping, ki_damping_fraction, in the codec's order.
const std::vector<GridSetting>& grid_settings();
// The setting of `key`; throws std::out_of_range for a key not in the table.
const GridSetting& grid_setting(const std::string& key);

// Which keys a grid object holds: every one, or the mesh's only (a sweep declares n and nt as axes).
enum class GridKeys { All, Mesh };

// The keys of a grid object, in the codec's order.
std::vector<std::string> grid_keys(GridKeys keys);
// The flag of a key: "s_max" -> "--s-max".
std::string grid_flag(const std::string& key);

// "200" or "200,150" (N1, N2, N3: one per asset). Throws std::invalid_argument.
void parse_nodes(const std::string& text, GridOptions& g);
// "200" | "200,150": a grid's (or a case's) n and per-axis nodes as text.
std::string nodes_text(int n, const std::vector<int>& axis_nodes);
// "auto" (the solver's rule) or a positive whole number of time steps. Throws std::invalid_argument.
void parse_steps(const std::string& text, GridOptions& g);

// Every field within its bounds; throws InputError(source, name(key), ...).
void check_grid(const GridOptions& g, const std::string& source,
                const std::function<std::string(const std::string& key)>& name);

nlohmann::json to_json(const GridOptions& g, GridKeys keys = GridKeys::All);
// Keys absent from `j` keep `base`'s value; an unknown key is refused with its field
// (`field`.key), and so is a value out of bounds.
GridOptions grid_from_json(const nlohmann::json& j, const std::string& source, const std::string& field,
                           GridKeys keys, GridOptions base = {});

// The grid of the same shape with each axis's nodes scaled by `factor` (rounded down).
GridOptions scaled_nodes(GridOptions g, double factor);

}  // namespace elsbench
