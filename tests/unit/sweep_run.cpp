// Running sweeps: skipped cases keep their reason and the sweep goes on; an interrupted sweep
// leaves a valid partial file that --resume completes to the same case set as a fresh run.
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <boost/test/unit_test.hpp>
#include <csignal>
#include <fstream>
#include <filesystem>
#include <map>
#include <stdexcept>

#include "harness/results/reporter.hpp"
#include "harness/results/results_file.hpp"
#include "harness/sweep/sweep.hpp"
#include "platform/cuda_devices.hpp"
#include "platform/solver_error.hpp"
#include "products/catalog.hpp"
#include "solvers/contract/solver.hpp"

using namespace elsbench;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

// Test-only variants (hidden from `list`): one per way a case can fail.
SolverInfo test_solver(const std::string& name, std::vector<Device::Kind> devices, MarchFn march) {
  SolverInfo s;
  s.name = name;
  s.description = "test double";
  s.devices = std::move(devices);
  s.test_only = true;
  s.march = std::move(march);
  return s;
}

// A constant 5: inside the european call's no-arbitrage bounds [2.90, 98.02] (products/price_bounds.hpp).
MarchResult constant_values(const Problem& pb, const SolverOptions&) {
  MarchResult m;
  m.values.assign(pb.values(), 5.0);
  return m;
}

SolverInfo out_of_memory_info() {
  return test_solver("test-out-of-memory", {Device::Kind::Cpu}, [](const Problem&, const SolverOptions&) -> MarchResult {
    throw SolverError(SolverError::Kind::OutOfMemory, "test: needs 1 TB");
  });
}
SolverInfo throwing_info() {
  return test_solver("test-throws", {Device::Kind::Cpu},
                     [](const Problem&, const SolverOptions&) -> MarchResult { throw std::runtime_error("boom"); });
}
SolverInfo gpu_only_info() { return test_solver("test-gpu-only", {Device::Kind::Cuda}, constant_values); }
// Prices once (the untimed first pricing), then fails every timed repetition.
SolverInfo flaky_info() {
  return test_solver("test-flaky", {Device::Kind::Cpu}, [](const Problem& pb, const SolverOptions& o) {
    static int calls = 0;
    if (++calls % 3 != 1) throw SolverError(SolverError::Kind::Unstable, "test: diverged");
    return constant_values(pb, o);
  });
}
// A sticky CUDA error as the GPU variants raise it (platform/cuda/cuda_check.cpp); on the CPU too,
// so that a machine without a GPU can run the sweep's handling of it.
SolverInfo device_fault_info() {
  return test_solver("test-device-fault", {Device::Kind::Cpu, Device::Kind::Cuda},
                     [](const Problem&, const SolverOptions&) -> MarchResult {
                       throw SolverError(SolverError::Kind::DeviceFault,
                                         "kernel axis0_stage (checked mode) failed: cudaErrorIllegalAddress");
                     });
}
// Counts its marches: a book case's timed run must march every note of its book.
std::atomic<int> counted_marches{0};
SolverInfo counting_info() {
  return test_solver("test-counting", {Device::Kind::Cpu}, [](const Problem& pb, const SolverOptions& o) {
    ++counted_marches;
    return constant_values(pb, o);
  });
}
ELSBENCH_REGISTER_SOLVER(counting_info);
ELSBENCH_REGISTER_SOLVER(device_fault_info);
ELSBENCH_REGISTER_SOLVER(out_of_memory_info);
ELSBENCH_REGISTER_SOLVER(throwing_info);
ELSBENCH_REGISTER_SOLVER(gpu_only_info);
ELSBENCH_REGISTER_SOLVER(flaky_info);

fs::path scratch(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("elsbench-sweep-run-" + std::to_string(::getpid())) / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// Exactly `repetitions` timed runs (timing target 0): these tests count the pricings.
SweepSpec spec_of(const json& axes, int repetitions = 2) {
  return sweep_spec_from_json(
      {{"name", "test"}, {"repetitions", repetitions}, {"timing", {{"target", 0}}}, {"axes", axes}}, "test");
}

// Four small explicit cases, a few milliseconds each.
SweepSpec four_cases() {
  return spec_of({{"solvers", {"explicit"}},
                  {"products", {"european-call", "min-call"}},
                  {"n", {12, 16}},
                  {"nt_rules", {"auto"}},
                  {"devices", {"cpu:t1"}}});
}

SweepRun run_to(const fs::path& file) {
  SweepRun r;
  r.path = file.string();
  r.command = "test";
  return r;
}

// The first entry of each case, by id.
std::map<std::string, json> first_entries(const ResultsFile& f) {
  std::map<std::string, json> out;
  for (const auto& e : f.benchmarks) out.emplace(e.at("case_id").get<std::string>(), e);
  return out;
}

bool no_temp_files(const fs::path& dir) {
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".tmp") return false;
  return true;
}

}  // namespace

// First in the file: the child is forked before this process has started any thread pool.
BOOST_AUTO_TEST_CASE(a_signal_stops_the_sweep_and_leaves_a_valid_partial_file) {
  const fs::path dir = scratch("signal");
  const fs::path file = dir / "r.json";
  const pid_t child = ::fork();
  BOOST_REQUIRE(child >= 0);
  if (child == 0) {
    ::dup2(::open("/dev/null", O_WRONLY), STDERR_FILENO);  // the stop message is expected
    SweepRun run = run_to(file);
    run.handle_signals = true;
    run.after_case = [](std::size_t done) {
      if (done == 1) ::raise(SIGTERM);
    };
    try {
      run_sweep(four_cases(), run);
    } catch (...) {
    }
    ::_exit(1);  // not reached when the signal stops the sweep
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  BOOST_TEST(WIFEXITED(status));
  BOOST_TEST(WEXITSTATUS(status) == 128 + SIGTERM);
  const ResultsFile partial = read_results_file(file.string());
  BOOST_TEST(partial.elsbench().at("complete") == false);
  BOOST_TEST(partial.case_ids().size() == 1u);
  BOOST_TEST(no_temp_files(dir));
}

BOOST_AUTO_TEST_CASE(cases_that_cannot_run_are_skipped_with_their_reason_and_the_sweep_goes_on) {
  const fs::path file = scratch("skips") / "r.json";
  const SweepSpec spec = spec_of({{"solvers", {"explicit", "test-out-of-memory", "test-throws", "test-gpu-only", "test-flaky"}},
                                  {"products", {"european-call"}},
                                  {"n", {12}},
                                  {"nt_rules", {"auto", "fixed:1"}},
                                  {"devices", {"cpu:t1", "cuda:0"}}});
  const SweepSummary s = run_sweep(spec, run_to(file));
  BOOST_TEST(s.cases == 20u);
  BOOST_TEST(s.ran == 20u);
  const ResultsFile f = read_results_file(file.string());
  BOOST_TEST(f.elsbench().at("complete") == true);
  const auto cases = first_entries(f);
  BOOST_TEST_REQUIRE(cases.size() == 20u);
  const auto reason = [&](const std::string& solver, const std::string& nt, const std::string& device) {
    const json& e = cases.at("european-call/" + solver + "/n=12/nt=" + nt + "/" + device + "/fp64");
    return e.at("status") == "skipped" ? e.at("skip_reason").get<std::string>() : "ran: " + e.at("status").get<std::string>();
  };
  const auto starts = [](const std::string& text, const std::string& prefix) { return text.rfind(prefix, 0) == 0; };
  // The explicit solver refuses an unstable step; it runs where it can, after the skips.
  BOOST_TEST(starts(reason("explicit", "1", "cpu/t1"), "unstable: explicit: time step"));
  BOOST_TEST(starts(reason("explicit", "auto", "cpu/t1"), "ran: "));
  BOOST_TEST(starts(reason("explicit", "auto", "cuda:0"), "unsupported: "));
  BOOST_TEST(reason("test-out-of-memory", "auto", "cpu/t1") == "out-of-memory: test: needs 1 TB");
  BOOST_TEST(reason("test-throws", "auto", "cpu/t1") == "error: boom");
  BOOST_TEST(starts(reason("test-gpu-only", "auto", "cpu/t1"), "unsupported: "));
  if (cuda_devices().empty()) {
    BOOST_TEST(starts(reason("test-gpu-only", "auto", "cuda:0"), "unavailable: "));
  }
  // A failure in the timed repetitions (after a good first pricing) is Google Benchmark's error.
  BOOST_TEST(reason("test-flaky", "auto", "cpu/t1") == "unstable: test: diverged");
  BOOST_TEST(s.skipped == (cuda_devices().empty() ? 19u : 17u));
  // A skipped case is one zero-time median entry with null prices.
  const json& skipped = cases.at("european-call/test-throws/n=12/nt=auto/cpu/t1/fp64");
  BOOST_TEST(skipped.at("aggregate_name") == "median");
  BOOST_TEST(skipped.at("real_time") == 0.0);
  BOOST_TEST(skipped.at("price").is_null());
  BOOST_TEST(skipped.at("error_occurred") == true);
}

BOOST_AUTO_TEST_CASE(resume_runs_only_the_missing_cases_and_ends_with_a_fresh_runs_case_set) {
  const fs::path dir = scratch("resume");
  const fs::path fresh = dir / "fresh.json", partial = dir / "partial.json";
  run_sweep(four_cases(), run_to(fresh));

  // An interruption after two cases, as a crash would leave it.
  SweepRun interrupted = run_to(partial);
  interrupted.after_case = [](std::size_t done) {
    if (done == 2) throw std::runtime_error("interrupted");
  };
  BOOST_CHECK_THROW(run_sweep(four_cases(), interrupted), std::runtime_error);
  const ResultsFile before = read_results_file(partial.string());
  BOOST_TEST(before.elsbench().at("complete") == false);
  BOOST_TEST(before.elsbench().at("cases_total") == 4);
  BOOST_TEST(before.case_ids().size() == 2u);

  SweepRun resume;
  resume.command = "test --resume";
  resume.progress = nullptr;
  const SweepSummary s = resume_sweep(partial.string(), resume);
  BOOST_TEST(s.ran == 2u);
  BOOST_TEST(s.cases == 4u);

  const ResultsFile after = read_results_file(partial.string());
  BOOST_TEST(after.elsbench().at("complete") == true);
  BOOST_TEST(after.elsbench().at("resumed").size() == 1u);
  BOOST_TEST(after.case_ids() == read_results_file(fresh.string()).case_ids(), boost::test_tools::per_element());
  // The cases that were already there are kept as they were measured.
  const auto kept = first_entries(before), now = first_entries(after);
  for (const auto& [id, entry] : kept) BOOST_TEST(now.at(id) == entry);
  BOOST_TEST(no_temp_files(dir));
}

// A case during which the process died (killed out of memory, say) is named in the run's attempts
// log; a resume retries it once, and skips it after a second death instead of dying forever.
BOOST_AUTO_TEST_CASE(resume_retries_a_case_that_ended_the_process_once_and_skips_it_after_twice) {
  const fs::path dir = scratch("died");
  for (int attempts : {1, 2}) {
    const fs::path file = dir / ("r" + std::to_string(attempts) + ".json");
    SweepRun first = run_to(file);
    first.after_case = [](std::size_t done) {
      if (done == 1) throw std::runtime_error("interrupted");
    };
    BOOST_CHECK_THROW(run_sweep(four_cases(), first), std::runtime_error);
    const std::string next = "european-call/explicit/n=16/nt=auto/cpu/t1/fp64";
    {  // as deaths leave the run's attempts log: a run that started the case and never ended it
      std::ofstream log(file.string() + ".attempts", std::ios::app);
      for (int k = 0; k < attempts; ++k) log << "{\"event\":\"run\"}\n{\"event\":\"start\",\"id\":\"" << next << "\"}\n";
    }

    BOOST_TEST(resume_sweep(file.string(), SweepRun{}).cases == 4u);
    const ResultsFile after = read_results_file(file.string());
    const json e = first_entries(after).at(next);
    if (attempts == 1) {
      BOOST_TEST(e.at("status") != "skipped");
    } else {
      BOOST_TEST(e.at("status") == "skipped");
      BOOST_TEST(e.at("skip_reason").get<std::string>().find("died 2 times") != std::string::npos);
    }
    BOOST_TEST(!after.elsbench().contains("running"));
  }
}

BOOST_AUTO_TEST_CASE(resume_refuses_a_file_that_is_not_a_sweep) {
  const fs::path file = scratch("not-a-sweep") / "x.json";
  write_file_atomically(file.string(), R"({"context": {}, "benchmarks": []})");
  BOOST_CHECK_THROW(resume_sweep(file.string(), SweepRun{}), std::runtime_error);
}

BOOST_AUTO_TEST_CASE(device_auto_without_a_gpu_refuses_a_gpu_only_solver_as_unavailable) {
  if (!cuda_devices().empty()) return;  // with a GPU, auto takes it: nothing to refuse
  SolverOptions o;
  o.device = parse_device("auto");
  try {
    price_with(SolverRegistry::instance().get("test-gpu-only"), resolve_product("european-call"), o);
    BOOST_FAIL("a GPU-only solver priced without a GPU");
  } catch (const SolverError& e) {
    BOOST_TEST((e.kind() == SolverError::Kind::Unavailable));
    BOOST_TEST(std::string(e.what()).find("'adi'") != std::string::npos);  // names the CPU variant
  }
}

BOOST_AUTO_TEST_CASE(after_a_device_fault_the_remaining_gpu_cases_are_skipped_with_its_cause) {
  const fs::path file = scratch("device-fault") / "r.json";
  const SweepSpec spec = spec_of({{"solvers", {"test-device-fault", "test-gpu-only", "explicit"}},
                                  {"products", {"european-call"}},
                                  {"n", {12}},
                                  {"nt_rules", {"auto"}},
                                  {"devices", {"cpu:t1", "cuda:0"}}});
  const SweepSummary s = run_sweep(spec, run_to(file));
  BOOST_TEST(s.ran == 6u);
  const auto cases = first_entries(read_results_file(file.string()));
  const auto reason = [&](const std::string& solver, const std::string& device) {
    const json& e = cases.at("european-call/" + solver + "/n=12/nt=auto/" + device + "/fp64");
    return e.at("status") == "skipped" ? e.at("skip_reason").get<std::string>() : "ran: " + e.at("status").get<std::string>();
  };
  const std::string first = "european-call/test-device-fault/n=12/nt=auto/cpu/t1/fp64";
  BOOST_TEST(reason("test-device-fault", "cpu/t1") ==
             "device-fault: kernel axis0_stage (checked mode) failed: cudaErrorIllegalAddress");
  // Every later case that would run on the GPU is not run, and says why; the CPU cases go on,
  // and a case that cannot run on the GPU anyway keeps its own reason.
  const std::string lost = "device-fault: not run: case " + first +
                           " left the CUDA context unusable (kernel axis0_stage (checked mode) failed: "
                           "cudaErrorIllegalAddress)";
  BOOST_TEST(reason("test-device-fault", "cuda:0") == lost);
  BOOST_TEST(reason("test-gpu-only", "cuda:0") == lost);
  BOOST_TEST(reason("test-gpu-only", "cpu/t1").rfind("unsupported: ", 0) == 0u);
  BOOST_TEST(reason("explicit", "cpu/t1").rfind("ran: ", 0) == 0u);
  BOOST_TEST(reason("explicit", "cuda:0").rfind("unsupported: ", 0) == 0u);
}

BOOST_AUTO_TEST_CASE(a_book_case_prices_its_whole_book_in_each_timed_run_and_records_notes_per_second) {
  const fs::path file = scratch("book") / "r.json";
  const SweepSpec spec = spec_of({{"solvers", {"test-counting"}},
                                  {"products", {"european-call"}},
                                  {"n", {12}},
                                  {"devices", {"cpu:t1", "cpu:t2"}},
                                  {"book", {1, 5}}},
                                 3);
  counted_marches = 0;
  const SweepSummary s = run_sweep(spec, run_to(file));
  BOOST_TEST(s.cases == 4u);
  // Per device: the single case marches 1 + 3 times, the book case 1 (untimed) + 3 x 5.
  BOOST_TEST(counted_marches.load() == 2 * ((1 + 3) + (1 + 3 * 5)));
  const ResultsFile f = read_results_file(file.string());
  const auto cases = first_entries(f);
  for (const char* device : {"cpu/t1", "cpu/t2"}) {
    const std::string single_id = std::string("european-call/test-counting/n=12/nt=auto/") + device + "/fp64";
    const json& single = cases.at(single_id);
    const json& book = cases.at(single_id + "/book=5");
    BOOST_TEST(single.at("book") == 1);
    BOOST_TEST(book.at("book") == 5);
    const double seconds = book.at("seconds").get<double>();
    BOOST_TEST_REQUIRE(seconds > 0);
    BOOST_TEST(book.at("notes_per_second").get<double>() == 5 / seconds, boost::test_tools::tolerance(1e-12));
    BOOST_TEST(single.at("notes_per_second").get<double>() == 1 / single.at("seconds").get<double>(),
               boost::test_tools::tolerance(1e-12));
    const double point_steps = book.at("grid_points").get<double>() * book.at("time_steps").get<double>();
    BOOST_TEST(book.at("points_per_second").get<double>() == point_steps * 5 / seconds, boost::test_tools::tolerance(1e-12));
    // The price validated is the single note's: the same in both cases.
    BOOST_TEST(book.at("price") == single.at("price"));
  }
  std::ifstream csv(format_path(file.string(), "csv"));
  std::string header;
  std::getline(csv, header);
  BOOST_TEST(header.find(",book,notes_per_second,") != std::string::npos);
}
