// The grid codec: one text form of the nodes (N or N1,N2,N3), one JSON form with one set of keys
// that round-trips every field, and the same bounds from a flag and from a file, each refusal
// naming its key (or flag).
#include <boost/test/unit_test.hpp>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "harness/sweep/validation_plan.hpp"
#include "harness/sweep/axes.hpp"
#include "platform/input_error.hpp"
#include "solvers/problem/grid_codec.hpp"

using namespace elsbench;
using nlohmann::json;

namespace {

GridOptions nodes(const std::string& text) {
  GridOptions g;
  parse_nodes(text, g);
  return g;
}

// The field an InputError names, or "" when `f` does not throw one.
template <class F>
std::string refused_field(F f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.field();
  }
  return "";
}

GridOptions unusual() {
  GridOptions g;
  parse_nodes("120,80", g);
  g.nt = 333;
  g.mesh = MeshKind::Uniform;
  g.s_max_multiple = 5.5;
  g.density = 0.25;
  g.damping_steps = 4;
  g.knock_in_damping = 3;
  g.knock_in_damping_fraction = 0.5;
  return g;
}

void same(const GridOptions& a, const GridOptions& b) {
  BOOST_TEST(a.n == b.n);
  BOOST_TEST(a.axis_nodes == b.axis_nodes);
  BOOST_TEST((a.nt == b.nt));
  BOOST_TEST((a.mesh == b.mesh));
  BOOST_TEST(a.s_max_multiple == b.s_max_multiple);
  BOOST_TEST(a.density == b.density);
  BOOST_TEST(a.damping_steps == b.damping_steps);
  BOOST_TEST(a.knock_in_damping == b.knock_in_damping);
  BOOST_TEST(a.knock_in_damping_fraction == b.knock_in_damping_fraction);
}

}  // namespace

BOOST_AUTO_TEST_CASE(nodes_are_one_count_or_one_per_axis) {
  BOOST_TEST(nodes("200").n == 200);
  BOOST_TEST(nodes("200").axis_nodes.empty());
  const GridOptions g = nodes("150,200");
  BOOST_TEST(g.n == 200);  // the largest: the time rule and the error estimate refine by it
  BOOST_TEST((g.axis_nodes == std::vector<int>{150, 200}));
  BOOST_TEST(g.nodes(0) == 150);
  BOOST_TEST(g.nodes(1) == 200);
  BOOST_TEST(g.points(2) == 30000.0);
  BOOST_TEST(nodes("40,30,20").points(3) == 24000.0);
  BOOST_TEST(nodes_text(g.n, g.axis_nodes) == "150,200");
  const GridOptions square = nodes("64");
  BOOST_TEST(nodes_text(square.n, square.axis_nodes) == "64");
  for (const char* bad : {"", "3", "100001", "1e3", "200,", ",200", "200,abc", "1,2,3,4", "20,20,20,20", "-5", "50 "})
    BOOST_CHECK_THROW(nodes(bad), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(steps_are_auto_or_a_positive_count) {
  GridOptions g;
  parse_steps("1", g);
  BOOST_TEST(*g.nt == 1);
  parse_steps("auto", g);
  BOOST_TEST(!g.nt.has_value());
  for (const char* bad : {"0", "-1", "2.5", "", "fixed:3"}) BOOST_CHECK_THROW(parse_steps(bad, g), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(json_round_trips_every_field_with_one_set_of_keys) {
  const GridOptions g = unusual();
  const json j = to_json(g);
  BOOST_TEST(j.size() == 8u);
  for (const char* key : {"n", "nt", "mesh", "s_max", "density", "damping", "ki_damping", "ki_damping_fraction"})
    BOOST_TEST(j.contains(key), key);
  BOOST_TEST((j["n"] == json({120, 80})));
  same(grid_from_json(j, "f.json", "grid", GridKeys::All), g);
  same(grid_from_json(to_json(GridOptions{}), "f.json", "grid", GridKeys::All), GridOptions{});
  BOOST_TEST(to_json(GridOptions{})["nt"] == "auto");
  // A mesh object leaves the sizes to the caller's axes.
  const json mesh = to_json(g, GridKeys::Mesh);
  BOOST_TEST(!mesh.contains("n"));
  BOOST_TEST(!mesh.contains("nt"));
  const GridOptions back = grid_from_json(mesh, "f.json", "grid", GridKeys::Mesh);
  BOOST_TEST(back.knock_in_damping == 3);
  BOOST_TEST(back.n == GridOptions{}.n);
}

BOOST_AUTO_TEST_CASE(a_bad_grid_is_refused_naming_its_key_or_flag) {
  const auto from = [](json j, GridKeys keys = GridKeys::All) {
    return refused_field([&] { grid_from_json(j, "p.json", "grid", keys); });
  };
  BOOST_TEST(from({{"s_max", 1.0}}) == "grid.s_max");
  BOOST_TEST(from({{"s_max", 101}}) == "grid.s_max");
  BOOST_TEST(from({{"density", 0}}) == "grid.density");
  BOOST_TEST(from({{"damping", 101}}) == "grid.damping");
  BOOST_TEST(from({{"damping", 1.5}}) == "grid.damping");
  BOOST_TEST(from({{"ki_damping", 9}}) == "grid.ki_damping");
  BOOST_TEST(from({{"ki_damping_fraction", 1.0}}) == "grid.ki_damping_fraction");
  BOOST_TEST(from({{"mesh", "cubic"}}) == "grid.mesh");
  BOOST_TEST(from({{"n", 3}}) == "grid.n");
  BOOST_TEST(from({{"n", json::array()}}) == "grid.n");
  BOOST_TEST(from({{"nt", 0}}) == "grid.nt");
  BOOST_TEST(from({{"s_max_multiple", 4}}) == "grid.s_max_multiple");  // an unknown key, not a silent default
  BOOST_TEST(from({{"n", 100}}, GridKeys::Mesh) == "grid.n");
  BOOST_TEST(from(json::array()) == "grid");
  BOOST_TEST(from({{"ki_damping", 0}, {"damping", 0}}).empty());
  // The same bounds named as flags.
  GridOptions g;
  g.knock_in_damping_fraction = 0;
  BOOST_TEST(refused_field([&] { check_grid(g, "(command line)", grid_flag); }) == "--ki-damping-fraction");
  g = GridOptions{};
  g.s_max_multiple = std::nan("");
  BOOST_TEST(refused_field([&] { check_grid(g, "(command line)", grid_flag); }) == "--s-max");
}

BOOST_AUTO_TEST_CASE(a_preset_grid_takes_every_mesh_setting_and_keeps_it_in_its_copy) {
  const json preset = {{"axes", {{"solvers", {"adi"}}, {"products", {"min-call"}}, {"n", {40}}}},
                       {"grid", {{"ki_damping", 0}, {"ki_damping_fraction", 0.2}, {"s_max", 5}}}};
  const SweepSpec spec = sweep_spec_from_json(preset, "p.json");
  BOOST_TEST(spec.grid.knock_in_damping == 0);
  BOOST_TEST(spec.grid.knock_in_damping_fraction == 0.2);
  const SweepSpec copy = sweep_spec_from_json(to_json(spec), "copy");
  BOOST_TEST(copy.grid.knock_in_damping == 0);
  BOOST_TEST(copy.grid.s_max_multiple == 5.0);
  BOOST_TEST(refused_field([&] {
               sweep_spec_from_json({{"axes", preset["axes"]}, {"grid", {{"n", 40}}}}, "p.json");
             }) == "grid.n");
}

// Each numeric setting is declared once (grid_settings): its bounds refuse the value just past
// each end from a file and from a flag, and its flag's help states them and its default.
BOOST_AUTO_TEST_CASE(each_setting_of_the_table_is_bounded_alike_in_files_and_flags) {
  for (const GridSetting& s : grid_settings()) {
    BOOST_TEST_CONTEXT(s.key) {
      const double step = s.whole ? 1 : 1e-9 * std::max(1.0, s.highest);
      for (double out : {s.lowest - step, s.highest + step}) {
        if (s.above_lowest && out < s.lowest) out = s.lowest;
        json j = {{s.key, s.whole ? json(static_cast<long long>(std::lround(out))) : json(out)}};
        BOOST_TEST(refused_field([&] { grid_from_json(j, "p.json", "grid", GridKeys::Mesh); }) ==
                   std::string("grid.") + s.key);
        GridOptions g;
        if (s.real) g.*s.real = out;
        if (s.count) g.*s.count = static_cast<int>(std::lround(out));
        BOOST_TEST(refused_field([&] { check_grid(g, "(command line)", grid_flag); }) == grid_flag(s.key));
      }
      GridOptions g;
      if (s.real) g.*s.real = s.highest;
      if (s.count) g.*s.count = static_cast<int>(s.highest);
      BOOST_TEST(refused_field([&] { check_grid(g, "(command line)", grid_flag); }).empty());
      BOOST_TEST(s.within(s.get(GridOptions{})));
    }
  }
  BOOST_TEST(grid_setting("s_max").range() == "(1, 100]");
  BOOST_TEST(grid_setting("ki_damping").range() == "[0, 8]");
}

// A validation preset's case reads its grid through the codec: nodes per axis, the codec's keys
// as the case's own settings (in its id), its bounds; an unknown key is refused, not ignored.
BOOST_AUTO_TEST_CASE(a_validation_case_reads_its_grid_through_the_codec) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("elsbench-grid-codec-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const auto plan_of = [&](const json& preset) {
    const fs::path path = dir / "v.json";
    std::ofstream(path) << preset.dump();
    return load_validation_plan(path.string());
  };
  const json call = {{"product", "european-call"}, {"solver", "adi"}, {"n", 40}};
  json with_grid = call;
  with_grid["n"] = json::array({40, 30});
  with_grid["ki_damping"] = 0;
  const ValidationPlan plan = plan_of({{"cases", {with_grid}}, {"grid", {{"s_max", 5}}}});
  const SweepCase& c = plan.cases.front();
  BOOST_TEST((c.axis_nodes == std::vector<int>{40, 30}));
  BOOST_TEST(c.grid["ki_damping"] == 0);
  BOOST_TEST(c.id().find("ki_damping=0") != std::string::npos, c.id());
  BOOST_TEST(plan.settings.grid.s_max_multiple == 5.0);
  json unknown = call;
  unknown["ki_dampign"] = 0;
  BOOST_TEST(refused_field([&] { plan_of({{"cases", {unknown}}}); }) == "cases[0].ki_dampign");
  json bad = call;
  bad["density"] = 1000;
  BOOST_TEST(refused_field([&] { plan_of({{"cases", {bad}}}); }) == "cases[0].density");
  fs::remove_all(dir);
}
