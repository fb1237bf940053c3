#include "solvers/problem/grid_codec.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "platform/input_error.hpp"
#include "platform/whole_number.hpp"

namespace elsbench {
namespace {

using nlohmann::json;

const char* const kTextKeys[] = {"n", "nt", "mesh"};

bool is_size_key(const std::string& key) { return key == "n" || key == "nt"; }

bool is_grid_key(const std::string& key) {
  if (std::find(std::begin(kTextKeys), std::end(kTextKeys), key) != std::end(kTextKeys)) return true;
  const auto& all = grid_settings();
  return std::any_of(all.begin(), all.end(), [&](const GridSetting& s) { return key == s.key; });
}

std::string number_text(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

std::string expected_keys(GridKeys keys) {
  std::string out;
  for (const std::string& k : grid_keys(keys)) out += (out.empty() ? "" : ", ") + k;
  return out;
}

void check_nodes(const std::vector<int>& axes) {
  if (axes.empty() || axes.size() > 3) throw std::invalid_argument("expected 1 to 3 node counts (N1,N2,N3)");
  for (int n : axes)
    if (n < kMinNodes || n > kMaxNodes)
      throw std::invalid_argument("nodes per axis must be in [" + std::to_string(kMinNodes) + ", " +
                                  std::to_string(kMaxNodes) + "], got " + std::to_string(n));
}

void set_nodes(const std::vector<int>& axes, GridOptions& g) {
  check_nodes(axes);
  g.n = *std::max_element(axes.begin(), axes.end());
  g.axis_nodes = axes.size() > 1 ? axes : std::vector<int>{};
}

int whole(const std::string& text) {
  const std::optional<long long> v = whole_number(text);
  if (!v || *v < 0 || *v > std::numeric_limits<int>::max())
    throw std::invalid_argument("expected a whole number, got '" + text + "'");
  return static_cast<int>(*v);
}

}  // namespace

const std::vector<GridSetting>& grid_settings() {
  static const std::vector<GridSetting> settings = {
      {"s_max", false, 1, kMaxSMaxMultiple, true,
       "S_max at least this multiple of max(reference or strike, spot); wider where the model's range of S\n"
       "over the note's life needs it",
       &GridOptions::s_max_multiple},
      {"density", false, kMinDensity, kMaxDensity, false,
       "sinh concentration, fraction of the center level; less where S's spread over the note's life is\n"
       "narrower",
       &GridOptions::density},
      {"damping", true, 0, kMaxDampingSteps, false,
       "implicit steps after the payoff and each payment date (an ELS without a daily knock-in:\n"
       "sub-steps, together 0.35 of the step)",
       nullptr,
       &GridOptions::damping_steps},
      {"ki_damping", true, 0, kMaxKnockInDamping, false,
       "implicit sub-steps opening the step after each daily knock-in date; 0: none", nullptr,
       &GridOptions::knock_in_damping},
      {"ki_damping_fraction", false, 1e-3, 0.999, false, "fraction of that step they take together",
       &GridOptions::knock_in_damping_fraction},
  };
  return settings;
}

const GridSetting& grid_setting(const std::string& key) {
  for (const GridSetting& s : grid_settings())
    if (key == s.key) return s;
  throw std::out_of_range("no grid setting '" + key + "'");
}

std::string GridSetting::range() const {
  return (above_lowest ? "(" : "[") + number_text(lowest) + ", " + number_text(highest) + "]";
}

std::vector<std::string> grid_keys(GridKeys keys) {
  std::vector<std::string> out;
  for (const char* k : kTextKeys)
    if (keys == GridKeys::All || !is_size_key(k)) out.push_back(k);
  for (const GridSetting& s : grid_settings()) out.push_back(s.key);
  return out;
}

std::string grid_flag(const std::string& key) {
  std::string flag = "--" + key;
  std::replace(flag.begin(), flag.end(), '_', '-');
  return flag;
}

void parse_nodes(const std::string& text, GridOptions& g) {
  std::vector<int> axes;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    axes.push_back(whole(text.substr(start, comma - start)));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  set_nodes(axes, g);
}

void parse_steps(const std::string& text, GridOptions& g) {
  if (text == "auto") {
    g.nt.reset();
    return;
  }
  const int steps = whole(text);
  if (steps < 1) throw std::invalid_argument("expected a positive whole number or auto, got '" + text + "'");
  g.nt = steps;
}

std::string nodes_text(int n, const std::vector<int>& axis_nodes) {
  if (axis_nodes.empty()) return std::to_string(n);
  std::string out;
  for (int k : axis_nodes) out += (out.empty() ? "" : ",") + std::to_string(k);
  return out;
}

void check_grid(const GridOptions& g, const std::string& source,
                const std::function<std::string(const std::string& key)>& name) {
  const auto refuse = [&](const char* key, const std::string& why) { throw InputError(source, name(key), why); };
  try {
    check_nodes(g.axis_nodes.empty() ? std::vector<int>{g.n} : g.axis_nodes);
  } catch (const std::invalid_argument& e) {
    refuse("n", e.what());
  }
  if (g.nt && *g.nt < 1) refuse("nt", "expected a positive whole number or auto");
  // Finite and bounded (NaN and inf fail every comparison).
  for (const GridSetting& s : grid_settings())
    if (!s.within(s.get(g))) refuse(s.key, std::string("must be ") + (s.whole ? "a whole number " : "") + "in " + s.range());
}

json to_json(const GridOptions& g, GridKeys keys) {
  json j;
  if (keys == GridKeys::All) {
    j["n"] = g.axis_nodes.empty() ? json(g.n) : json(g.axis_nodes);
    j["nt"] = g.nt ? json(*g.nt) : json("auto");
  }
  j["mesh"] = to_string(g.mesh);
  for (const GridSetting& s : grid_settings()) j[s.key] = s.real ? json(g.*s.real) : json(g.*s.count);
  return j;
}

GridOptions grid_from_json(const json& j, const std::string& source, const std::string& field, GridKeys keys,
                           GridOptions g) {
  const auto at = [&](const std::string& key) { return field.empty() ? key : field + "." + key; };
  if (!j.is_object()) throw InputError(source, field.empty() ? "(top level)" : field, "expected an object");
  for (const auto& item : j.items()) {
    const std::string& key = item.key();
    if (!is_grid_key(key) || (keys == GridKeys::Mesh && is_size_key(key)))
      throw InputError(source, at(key), "unknown key (expected " + expected_keys(keys) + ")");
  }
  const auto number = [&](const char* key, double& out) {
    if (!j.contains(key)) return;
    if (!j[key].is_number()) throw InputError(source, at(key), "expected a number");
    out = j[key].get<double>();
  };
  const auto integer = [&](const char* key, int& out) {
    if (!j.contains(key)) return;
    if (!j[key].is_number_integer() || j[key].get<long long>() < 0 || j[key].get<long long>() > std::numeric_limits<int>::max())
      throw InputError(source, at(key), "expected a whole number");
    out = j[key].get<int>();
  };
  if (j.contains("n")) {
    const json& n = j["n"];
    std::vector<int> axes;
    for (const json& x : n.is_array() ? n : json::array({n})) {
      if (!x.is_number_integer() || x.get<long long>() < 0 || x.get<long long>() > kMaxNodes)
        throw InputError(source, at("n"), "expected nodes per axis: a whole number or [N1, N2, N3]");
      axes.push_back(x.get<int>());
    }
    try {
      set_nodes(axes, g);
    } catch (const std::invalid_argument& e) {
      throw InputError(source, at("n"), e.what());
    }
  }
  if (j.contains("nt")) {
    if (j["nt"] == "auto") {
      g.nt.reset();
    } else {
      int nt = 0;
      integer("nt", nt);
      g.nt = nt;
    }
  }
  if (j.contains("mesh")) {
    if (!j["mesh"].is_string()) throw InputError(source, at("mesh"), "expected a string");
    try {
      g.mesh = parse_mesh_kind(j["mesh"].get<std::string>());
    } catch (const std::invalid_argument& e) {
      throw InputError(source, at("mesh"), e.what());
    }
  }
  for (const GridSetting& s : grid_settings()) {
    if (s.real) number(s.key, g.*s.real);
    if (s.count) integer(s.key, g.*s.count);
  }
  check_grid(g, source, at);
  return g;
}

GridOptions scaled_nodes(GridOptions g, double factor) {
  const auto scale = [factor](int n) { return static_cast<int>(std::floor(n * factor)); };
  for (int& n : g.axis_nodes) n = scale(n);
  g.n = scale(g.n);
  return g;
}

}  // namespace elsbench
