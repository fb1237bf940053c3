// A validation runs through the one case loop: its results file, --resume keeping the cases
// already validated under the same settings, and the attempts log's rule for a case that took the
// process down (priced alone after one death, recorded unpriced after two).
#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <fstream>

#include "harness/results/results_file.hpp"
#include "harness/sweep/axes.hpp"
#include "harness/sweep/plan.hpp"
#include "harness/sweep/validation_run.hpp"
#include "platform/input_error.hpp"
#include "solvers/contract/solver.hpp"
#include "tests/unit/scratch_dir.hpp"

using namespace elsbench;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

// A case file of `cases` cheap cases of the european call (closed form), explicit at n = 16..
void write_preset(const fs::path& path, int cases, double k = 3) {
  json j = {{"k", k}, {"cases", json::array()}};
  for (int i = 0; i < cases; ++i)
    j["cases"].push_back({{"product", "european-call"}, {"solver", "explicit"}, {"n", 16 + 8 * i}});
  std::ofstream(path) << j.dump(1);
}

ValidationRun run_to(const fs::path& file, bool resume) {
  ValidationRun run;
  run.path = file.string();
  run.command = "test";
  run.resume = resume;
  return run;
}

// The field of a case file's refusal ("cases[0].scheme"), or "" when it was accepted.
std::string refused_field(const fs::path& path, const json& c) {
  std::ofstream(path) << json{{"cases", {c}}}.dump();
  try {
    load_validation_plan(path.string());
    return "";
  } catch (const InputError& e) {
    return e.field();
  }
}

// Each case's median entry, by case id.
std::map<std::string, json> medians(const fs::path& file) {
  std::map<std::string, json> out;
  for (const json& e : read_results_file(file.string()).benchmarks)
    if (e.value("run_type", "") == "aggregate") out[e.at("case_id").get<std::string>()] = e;
  return out;
}

}  // namespace

BOOST_AUTO_TEST_CASE(a_resumed_validation_keeps_the_cases_in_its_file_and_prices_the_rest) {
  const testing::ScratchDir scratch("validation-resume");
  const fs::path preset = scratch / "cases.json", file = scratch / "v.json";
  write_preset(preset, 2);
  const ValidationSummary first = run_validation(load_validation_plan(preset.string()), run_to(file, false));
  BOOST_TEST(first.ran == 2u);
  BOOST_TEST(first.all_passed(), first.table);
  const auto before = medians(file);

  write_preset(preset, 3);  // the same case file, grown by a case
  const ValidationSummary second = run_validation(load_validation_plan(preset.string()), run_to(file, true));
  BOOST_TEST(second.cases == 3u);
  BOOST_TEST(second.kept == 2u);
  BOOST_TEST(second.ran == 1u);
  BOOST_TEST(second.all_passed(), second.table);
  const auto after = medians(file);
  BOOST_TEST(after.size() == 3u);
  for (const auto& [id, e] : before) BOOST_TEST(after.at(id) == e, id);  // kept as priced, time included
  const ResultsFile f = read_results_file(file.string());
  BOOST_TEST(f.elsbench().at("complete") == true);
  BOOST_TEST(f.elsbench().at("resumed").size() == 1u);
  BOOST_TEST(!fs::exists(file.string() + ".attempts"));
  // Every case, kept or priced, is a line of the table.
  for (const auto& [id, e] : after)
    BOOST_TEST(second.table.find("n=" + e.at("n").dump()) != std::string::npos, second.table);
}

BOOST_AUTO_TEST_CASE(a_resume_under_another_setting_is_refused_naming_it) {
  const testing::ScratchDir scratch("validation-resume-k");
  const fs::path preset = scratch / "cases.json", file = scratch / "v.json";
  write_preset(preset, 1);
  run_validation(load_validation_plan(preset.string()), run_to(file, false));
  const std::string written = read_results_file(file.string()).benchmarks.dump();
  write_preset(preset, 1, 4);
  try {
    run_validation(load_validation_plan(preset.string()), run_to(file, true));
    BOOST_FAIL("a resume with another k was accepted");
  } catch (const InputError& e) {
    BOOST_TEST(std::string(e.what()).find("context.elsbench.validation.k") != std::string::npos, e.what());
  }
  BOOST_TEST(read_results_file(file.string()).benchmarks.dump() == written);  // untouched
}

// As deaths leave the attempts log: a run that started a case and never ended it.
BOOST_AUTO_TEST_CASE(a_case_that_took_the_process_down_is_priced_again_once_and_recorded_unpriced_after_two) {
  const testing::ScratchDir scratch("validation-deaths");
  const fs::path preset = scratch / "cases.json";
  write_preset(preset, 2);
  const ValidationPlan plan = load_validation_plan(preset.string());
  const std::string victim = plan.cases[1].id();
  for (int deaths : {1, 2}) {
    const fs::path file = scratch / ("v" + std::to_string(deaths) + ".json");
    {
      std::ofstream log(file.string() + ".attempts");
      for (int k = 0; k < deaths; ++k) log << "{\"event\":\"run\"}\n{\"event\":\"start\",\"id\":\"" << victim << "\"}\n";
    }
    const ValidationSummary s = run_validation(plan, run_to(file, true));
    const json e = medians(file).at(victim);
    if (deaths == 1) {
      BOOST_TEST(e.at("status") == "pass");
      BOOST_TEST(s.all_passed(), s.table);
    } else {
      BOOST_TEST(e.at("status") == "skipped");
      BOOST_TEST(e.at("price").is_null());
      BOOST_TEST(e.at("skip_reason").get<std::string>().find("died 2 times") != std::string::npos);
      BOOST_TEST(!s.all_passed());
    }
    BOOST_TEST(!fs::exists(file.string() + ".attempts"));  // every case is in the file
  }
}

BOOST_AUTO_TEST_CASE(the_table_says_why_a_case_failed) {
  ValidationPlan plan = load_validation_plan("quick");
  SweepCase c;
  c.product = "min-call";
  c.solver = "adi-nocorr";  // drops the correlation term: far from the closed form
  c.n = 60;
  plan.cases = {c};
  const ValidationSummary s = run_validation(plan, ValidationRun{});
  BOOST_TEST(!s.all_passed());
  BOOST_TEST(s.table.find("adi-nocorr") != std::string::npos, s.table);
  BOOST_TEST(s.table.find("  fail") != std::string::npos, s.table);
}

// A validation case's product, solver, scheme, device and precision go through the sweep axes:
// the same values make the same case (and id) as in a sweep, and what a sweep refuses, a case
// file refuses, naming the case's key.
BOOST_AUTO_TEST_CASE(a_validation_case_is_the_sweep_case_of_the_same_values) {
  const testing::ScratchDir scratch("validation-axes");
  const fs::path preset = scratch / "cases.json";
  const json one = {{"product", "min-call"}, {"solver", "adi"}, {"scheme", "douglas"}, {"device", "cpu:t1"},
                    {"precision", "fp32"}, {"n", 40}};
  std::ofstream(preset) << json{{"cases", {one}}}.dump();
  const ValidationPlan plan = load_validation_plan(preset.string());
  const SweepPlan sweep = plan_sweep(sweep_spec_from_json(
      {{"name", "test"},
       {"axes",
        {{"products", {"min-call"}}, {"solvers", {"adi"}}, {"schemes", {"douglas"}}, {"devices", {"cpu:t1"}},
         {"precisions", {"fp32"}}, {"n", {40}}}}},
      "test"));
  BOOST_TEST_REQUIRE(sweep.cases.size() == 1u);
  BOOST_TEST(plan.cases.front().id() == sweep.cases.front().id());
  // Left out, the scheme is the solver's default, as a sweep's; --threads names a CPU case's threads.
  json plain = one;
  plain.erase("scheme");
  plain.erase("device");
  std::ofstream(preset) << json{{"cases", {plain}}}.dump();
  const SweepCase c = load_validation_plan(preset.string(), 3).cases.front();
  BOOST_TEST(c.scheme == SolverRegistry::instance().get("adi").default_scheme());
  BOOST_TEST(c.device.threads == 3);

  const auto with = [&](const char* key, const json& value) {
    json changed = one;
    changed[key] = value;
    return changed;
  };
  BOOST_TEST(refused_field(preset, with("scheme", "all")) == "cases[0].scheme");  // several cases, not one
  BOOST_TEST(refused_field(preset, with("scheme", "no-such")) == "cases[0].scheme");
  BOOST_TEST(refused_field(preset, with("device", "auto")) == "cases[0].device");
  BOOST_TEST(refused_field(preset, with("precision", "fp16")) == "cases[0].precision");
  BOOST_TEST(refused_field(preset, with("solver", "no-such")) == "cases[0].solver");
  BOOST_TEST(refused_field(preset, with("product", 7)) == "cases[0].product");
}
