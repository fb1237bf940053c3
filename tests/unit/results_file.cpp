// The results file: Google Benchmark's layout plus the elsbench fields of harness/results/RESULTS_SCHEMA.md,
// its CSV view, and atomic writes.
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "harness/machine/machine.hpp"
#include "harness/results/results_csv.hpp"
#include "harness/results/reporter.hpp"
#include "platform/input_error.hpp"
#include "harness/results/results_file.hpp"
#include "harness/sweep/sweep.hpp"
#include "platform/cuda_devices.hpp"
#include "tests/unit/scratch_dir.hpp"

using namespace elsbench;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

std::vector<fs::path> files_in(const fs::path& dir) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path().filename());
  std::sort(out.begin(), out.end());
  return out;
}

// Two explicit cases that run and one that is skipped (an unstable fixed step), written once.
struct SmallSweep {
  testing::ScratchDir dir{"results-file-sweep"};
  fs::path path;
  ResultsFile file;
  SmallSweep() {
    path = dir / "r.json";
    const SweepSpec spec = sweep_spec_from_json({{"name", "small"},
                                                 {"repetitions", 3},
                                                 {"groups",
                                                  {{{"solvers", {"explicit"}},
                                                    {"products", {"european-call"}},
                                                    {"n", {12, 16}},
                                                    {"devices", {"cpu:t1"}}},
                                                   {{"solvers", {"explicit"}},
                                                    {"products", {"european-call"}},
                                                    {"n", {12}},
                                                    {"nt_rules", {"fixed:1"}},
                                                    {"devices", {"cpu:t1"}}}}}},
                                                "test");
    SweepRun run;
    run.path = path.string();
    run.command = "elsbench sweep --preset small";
    run.instance = "aws:g4dn.xlarge";
    run_sweep(spec, run);
    file = read_results_file(path.string());
  }
  std::vector<json> entries_of(const std::string& id) const {
    std::vector<json> out;
    for (const auto& e : file.benchmarks)
      if (e.at("case_id") == id) out.push_back(e);
    return out;
  }
};

const SmallSweep& small_sweep() {
  static const SmallSweep s;
  return s;
}

const std::string kRan = "european-call/explicit/n=16/nt=auto/cpu/t1/fp64";
const std::string kSkipped = "european-call/explicit/n=12/nt=1/cpu/t1/fp64";

}  // namespace

BOOST_AUTO_TEST_SUITE(schema)

BOOST_AUTO_TEST_CASE(context_keeps_google_benchmarks_keys_and_adds_the_machine) {
  const json& c = small_sweep().file.context;
  for (const char* key : {"date", "host_name", "executable", "num_cpus", "mhz_per_cpu", "cpu_scaling_enabled", "caches",
                          "library_build_type"})
    BOOST_TEST(c.contains(key), "context." << key);
  const json& e = c.at("elsbench");
  BOOST_TEST(e.at("schema") == kResultsSchema);
  BOOST_TEST(e.at("preset") == "small");
  BOOST_TEST(e.at("command") == "elsbench sweep --preset small");
  BOOST_TEST(e.at("complete") == true);
  BOOST_TEST(e.at("cases_total") == 3);
  BOOST_TEST(e.at("started").is_string());
  BOOST_TEST(e.at("finished").is_string());
  BOOST_TEST(e.at("sweep").at("groups").size() == 2u);
  const json& m = e.at("machine");
  for (const char* key : {"hostname", "cpu_model", "cores", "omp_wait_policy", "memory_bytes", "os", "compiler",
                          "cxx_flags", "build_type", "git_commit", "cuda_built", "cuda_runtime", "cuda_driver", "gpus",
                          "gpus_note"})
    BOOST_TEST(m.contains(key), "machine." << key);
  BOOST_TEST(m.at("instance") == "aws:g4dn.xlarge");  // verbatim
  // Nothing guessed: without CUDA no runtime is claimed, and an empty GPU list says why.
  if (!cuda_built()) BOOST_TEST(m.at("cuda_runtime") == "none");
  if (m.at("gpus").empty()) BOOST_TEST(!m.at("gpus_note").get<std::string>().empty());
  BOOST_TEST(m.at("cores").get<int>() > 0);
}

BOOST_AUTO_TEST_CASE(every_entry_has_google_benchmarks_keys_and_the_elsbench_fields) {
  const char* gb[] = {"name", "run_name", "run_type", "repetitions", "threads", "iterations", "real_time", "cpu_time",
                      "time_unit"};
  const char* els[] = {"case_id", "product", "solver", "scheme", "n", "nt", "nt_rule", "shape", "grid_points",
                       "layers", "time_steps", "device", "threads", "precision", "status", "skip_reason", "price",
                       "delta", "gamma", "reference", "reference_stderr", "reference_source", "error", "tol",
                       "allowance", "peak_host_bytes", "peak_device_bytes", "process_peak_rss_bytes",
                       "memory_space", "model_bytes_per_point", "model_bytes", "measured_device_bytes",
                       "seconds", "seconds_per_step",
                       "points_per_second", "repetitions_run", "median_interval", "timing_stop", "noisy", "noise"};
  BOOST_TEST_REQUIRE(!small_sweep().file.benchmarks.empty());
  for (const auto& e : small_sweep().file.benchmarks) {
    for (const char* k : gb) BOOST_TEST(e.contains(k), e.value("name", "?") << " lacks " << k);
    for (const char* k : els) BOOST_TEST(e.contains(k), e.value("name", "?") << " lacks " << k);
    BOOST_TEST(e.at("time_unit") == "ms");
    BOOST_TEST(e.at("threads") == 1);  // the solver's threads (cpu:t1)
  }
}

BOOST_AUTO_TEST_CASE(a_case_that_ran_has_its_repetitions_and_aggregates) {
  const auto entries = small_sweep().entries_of(kRan);
  std::map<std::string, double> aggregate;
  int iterations = 0;
  for (const auto& e : entries) {
    if (e.at("run_type") == "iteration") {
      ++iterations;
      BOOST_TEST(e.at("real_time").get<double>() > 0.0);
    } else {
      aggregate[e.at("aggregate_name").get<std::string>()] = e.at("real_time").get<double>();
    }
  }
  // At least the preset's three; more while the median's interval is wider than the target.
  BOOST_TEST(iterations >= 3);
  BOOST_TEST(entries.front().at("repetitions_run") == iterations);
  const std::string stop = entries.front().at("timing_stop").get<std::string>();
  BOOST_TEST((stop == "target met" || stop == "time limit" || stop == "max repetitions"), stop);
  if (stop == "target met") BOOST_TEST(entries.front().at("median_interval").get<double>() <= 0.05);
  for (const char* a : {"mean", "median", "stddev", "min"}) BOOST_TEST(aggregate.count(a) == 1u, a);
  BOOST_TEST(aggregate["min"] <= aggregate["median"]);
  const json& e = entries.front();
  BOOST_TEST(e.at("seconds").get<double>() == aggregate["median"] / 1e3, boost::test_tools::tolerance(1e-12));
  const double work = e.at("grid_points").get<double>() * e.at("time_steps").get<double>();
  BOOST_TEST(e.at("points_per_second").get<double>() == work / e.at("seconds").get<double>(),
             boost::test_tools::tolerance(1e-12));
  BOOST_TEST(e.at("peak_host_bytes").get<double>() > 0.0);
  BOOST_TEST(e.at("process_peak_rss_bytes").get<double>() >= e.at("peak_host_bytes").get<double>());
  BOOST_TEST(e.at("model_bytes_per_point").get<double>() > 0.0);
  BOOST_TEST(e.at("measured_device_bytes").is_null());  // a CPU case: no device measured it
  // The verdict is the validation rule applied to the recorded numbers.
  if (!e.at("reference").is_null()) {
    const double error = e.at("price").get<double>() - e.at("reference").get<double>();
    BOOST_TEST(e.at("error").get<double>() == error, boost::test_tools::tolerance(1e-12));
    BOOST_TEST((e.at("status") == "pass") == (std::abs(error) <= e.at("allowance").get<double>()));
  } else {
    BOOST_TEST(e.at("status") == "no-reference");
  }
}

BOOST_AUTO_TEST_CASE(a_skipped_case_is_one_entry_with_its_reason) {
  const auto entries = small_sweep().entries_of(kSkipped);
  BOOST_TEST_REQUIRE(entries.size() == 1u);
  BOOST_TEST(entries[0].at("status") == "skipped");
  BOOST_TEST(entries[0].at("skip_reason").get<std::string>().rfind("unstable: ", 0) == 0u);
  BOOST_TEST(entries[0].at("run_type") == "aggregate");
  BOOST_TEST(entries[0].at("price").is_null());
  BOOST_TEST(entries[0].at("measured_device_bytes").is_null());
}

BOOST_AUTO_TEST_CASE(the_csv_has_one_row_per_case) {
  std::ifstream in(format_path(small_sweep().path.string(), "csv"));
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  BOOST_TEST_REQUIRE(lines.size() == 4u);
  BOOST_TEST(lines[0].rfind("case_id,product,solver,", 0) == 0u);
  BOOST_TEST(lines[0].find(",median_ms,mean_ms,stddev_ms,min_ms") != std::string::npos);
  BOOST_TEST(lines[3].rfind(kSkipped + ",", 0) == 0u);
  // The skip reason has commas in it, so it is quoted.
  BOOST_TEST(lines[3].find(",\"unstable: ") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(file)

BOOST_AUTO_TEST_CASE(an_atomic_write_replaces_the_file_and_leaves_no_temp_file) {
  const testing::ScratchDir scratch("results-file-atomic");
  const fs::path dir = scratch.dir;
  const std::string path = (dir / "a.json").string();
  write_file_atomically(path, "first");
  write_file_atomically(path, "second");
  std::ifstream in(path);
  std::stringstream content;
  content << in.rdbuf();
  BOOST_TEST(content.str() == "second");
  BOOST_TEST(files_in(dir) == std::vector<fs::path>{"a.json"}, boost::test_tools::per_element());
  // A failed write (the target is a folder) throws and leaves nothing behind.
  fs::create_directories(dir / "taken.json");
  BOOST_CHECK_THROW(write_file_atomically((dir / "taken.json").string(), "x"), std::runtime_error);
  BOOST_TEST(files_in(dir) == (std::vector<fs::path>{"a.json", "taken.json"}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(reading_refuses_what_is_not_a_results_file) {
  const testing::ScratchDir scratch("results-file-read");
  const fs::path dir = scratch.dir;
  const auto refused = [&](const std::string& text) {
    const std::string path = (dir / "x.json").string();
    write_file_atomically(path, text);
    try {
      read_results_file(path);
    } catch (const std::runtime_error& e) {
      return std::string(e.what()).find(path) != std::string::npos;  // the message names the file
    }
    return false;
  };
  BOOST_TEST(refused("{ not json"));
  BOOST_TEST(refused(R"({"benchmarks": []})"));
  BOOST_TEST(refused(R"({"context": {"elsbench": {"schema": 99}}, "benchmarks": []})"));
  BOOST_CHECK_THROW(read_results_file((dir / "missing.json").string()), std::runtime_error);
}

// A case's typed fields are refused by name when of another type: the report reads results
// through this reader (elsbench read), and plots or divides by these.
BOOST_AUTO_TEST_CASE(a_case_field_of_the_wrong_type_is_refused_by_name) {
  const nlohmann::json good = {{"case_id", "c"}, {"status", "pass"}, {"price", 1.5},   {"real_time", 2.0},
                               {"time_unit", "ms"}, {"n", 100},      {"shape", {100, 100}}, {"reference", nullptr}};
  const auto refusal = [&](const char* key, const nlohmann::json& value) {
    nlohmann::json e = good;
    if (value.is_discarded()) e.erase(key);
    else e[key] = value;
    try {
      check_results_entry(e, "r.json", "benchmarks[0]");
    } catch (const InputError& err) {
      return err.field();
    }
    return std::string("(taken)");
  };
  check_results_entry(good, "r.json", "benchmarks[0]");
  BOOST_TEST(refusal("time_unit", "fortnights") == "benchmarks[0].time_unit");
  BOOST_TEST(refusal("time_unit", nullptr) == "benchmarks[0].time_unit");
  BOOST_TEST(refusal("real_time", nlohmann::json::value_t::discarded) == "benchmarks[0].real_time");
  BOOST_TEST(refusal("real_time", "2") == "benchmarks[0].real_time");
  BOOST_TEST(refusal("n", "100") == "benchmarks[0].n");
  BOOST_TEST(refusal("reference", 93.2) == "(taken)");
  BOOST_TEST(refusal("solver", 7) == "benchmarks[0].solver");
  BOOST_TEST(refusal("shape", {100, 1.5}) == "benchmarks[0].shape");
}

BOOST_AUTO_TEST_CASE(cases_are_replaced_whole_and_kept_in_plan_order) {
  ResultsFile f;
  f.put_case("b", json::array({{{"case_id", "b"}, {"k", 1}}, {{"case_id", "b"}, {"k", 2}}}));
  f.put_case("a", json::array({{{"case_id", "a"}, {"k", 3}}}));
  f.put_case("b", json::array({{{"case_id", "b"}, {"k", 4}}}));
  BOOST_TEST(f.benchmarks.size() == 2u);
  f.sort_cases({"b", "a"});
  BOOST_TEST(f.case_ids() == (std::vector<std::string>{"b", "a"}), boost::test_tools::per_element());
  BOOST_TEST(f.benchmarks[0].at("k") == 4);
}

BOOST_AUTO_TEST_CASE(the_default_path_is_per_machine_and_never_overwrites) {
  const testing::ScratchDir scratch("results-file-root");
  const fs::path root = scratch.dir;
  const std::string first = default_results_path(root.string(), "vm", "2026-11-21", "abc123");
  BOOST_TEST(first == (root / "results" / "vm" / "2026-11-21-abc123.json").string());
  write_file_atomically(first, "{}");
  BOOST_TEST(default_results_path(root.string(), "vm", "2026-11-21", "abc123") ==
             (root / "results" / "vm" / "2026-11-21-abc123-2.json").string());
  BOOST_TEST(format_path(first, "csv") == (root / "results" / "vm" / "2026-11-21-abc123.csv").string());
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_CASE(a_machine_folder_is_named_after_its_hardware_not_its_hostname) {
  // Two different 2-core VMs, both called "vm", filed their results under results/vm/.
  MachineInfo epyc, xeon;
  epyc.hostname = xeon.hostname = "vm";
  epyc.cores = xeon.cores = 2;
  epyc.cpu_model = "AMD EPYC 7B13";
  xeon.cpu_model = "Intel(R) Xeon(R) CPU @ 2.60GHz";
  BOOST_TEST(machine_slug(epyc) == "2c-amd-epyc-7b13");
  BOOST_TEST(machine_slug(xeon) == "2c-intel-xeon-2.60ghz");
  MachineInfo h100 = xeon;
  h100.cores = 16;
  h100.gpus.push_back(GpuInfo{});
  h100.gpus.back().name = "NVIDIA H100 80GB HBM3";
  BOOST_TEST(machine_slug(h100) == "16c-intel-xeon-2.60ghz-1x-h100-80gb-hbm3");
  h100.instance = "aws:p5.48xlarge";
  BOOST_TEST(machine_slug(h100) == "aws-p5.48xlarge");
}

BOOST_AUTO_TEST_CASE(a_status_is_written_and_read_by_one_table) {
  std::set<std::string> words;
  for (CaseStatus s : {CaseStatus::Pass, CaseStatus::Fail, CaseStatus::NoReference, CaseStatus::Unconverged,
                       CaseStatus::Skipped}) {
    words.insert(to_string(s));
    BOOST_TEST((parse_case_status(to_string(s)) == s), to_string(s));
    BOOST_TEST((entry_status(nlohmann::json{{"status", to_string(s)}}) == s));
  }
  BOOST_TEST(words == (std::set<std::string>{"pass", "fail", "no-reference", "unconverged", "skipped"}));
  for (const char* other : {"ok", "Pass", "failed", "", "no_reference"}) BOOST_TEST(!parse_case_status(other), other);
  BOOST_TEST(!entry_status(nlohmann::json{{"status", 1}}));
  // An entry whose status the table does not know is refused, naming the field.
  try {
    check_results_entry(nlohmann::json{{"case_id", "a"}, {"status", "passed"}, {"price", 1.0}}, "f.json",
                        "benchmarks[0]");
    BOOST_FAIL("an unknown status was read");
  } catch (const std::runtime_error& e) {
    BOOST_TEST(std::string(e.what()).find("benchmarks[0].status") != std::string::npos, e.what());
  }
}
