// Fault injection into sweeps and books: a pricing that throws, one that aborts the process, and
// SIGKILL at random moments (seeded). After resuming, every case or note is in the results file
// exactly once and no result that was finished before a fault is lost or changed.
// The faults come from the test-only variant test-faulty (tests/variants/faulty); each run is a
// forked child, so that an abort or a kill ends it and not the suite. The parent process never
// prices anything itself (no thread pool is ever started before a fork).
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/test/unit_test.hpp>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <random>
#include <thread>

#include "harness/book/book_run.hpp"
#include "harness/results/results_file.hpp"
#include "harness/runner/run_attempts.hpp"
#include "harness/sweep/sweep.hpp"
#include "products/book_file.hpp"
#include "platform/device.hpp"
#include "products/book_generator.hpp"
#include "tests/unit/scratch_dir.hpp"

using namespace elsbench;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

struct Faults {
  std::string throw_on, abort_on;  // product ids for test-faulty
};

// Runs `work` in a forked child with the faults set; returns its wait status. When `kill_after`
// is given, the child gets SIGKILL once that time has passed (if it is still running).
int in_child(const std::function<void()>& work, const Faults& faults,
             std::optional<std::chrono::microseconds> kill_after = std::nullopt) {
  const pid_t child = ::fork();
  if (child == 0) {
    // Boost.Test turns SIGABRT (and other fatal signals) into a failed test and goes on with the
    // next one: in the child, a crash must end the process, as it would end elsbench.
    for (int sig : {SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL}) ::signal(sig, SIG_DFL);
    if (!faults.throw_on.empty()) ::setenv("ELSBENCH_TEST_THROW_ON", faults.throw_on.c_str(), 1);
    if (!faults.abort_on.empty()) ::setenv("ELSBENCH_TEST_ABORT_ON", faults.abort_on.c_str(), 1);
    try {
      work();
    } catch (...) {
      ::_exit(1);
    }
    ::_exit(0);
  }
  int status = 0;
  if (kill_after) {
    const auto deadline = std::chrono::steady_clock::now() + *kill_after;
    while (::waitpid(child, &status, WNOHANG) == 0) {
      if (std::chrono::steady_clock::now() >= deadline) {
        ::kill(child, SIGKILL);
        ::waitpid(child, &status, 0);
        break;
      }
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
    return status;
  }
  ::waitpid(child, &status, 0);
  return status;
}

bool died_of(int status, int signal) { return WIFSIGNALED(status) && WTERMSIG(status) == signal; }
bool exited_cleanly(int status) { return WIFEXITED(status) && WEXITSTATUS(status) == 0; }

// --- sweeps --------------------------------------------------------------------------------------

SweepSpec faulty_sweep(const std::vector<std::string>& products, const std::vector<int>& n) {
  return sweep_spec_from_json({{"name", "faults"},
                               {"repetitions", 2},
                               {"axes",
                                {{"solvers", {"test-faulty"}},
                                 {"products", products},
                                 {"n", n},
                                 {"devices", {"cpu:t1"}}}}},
                              "test");
}

SweepRun run_to(const fs::path& file) {
  SweepRun r;
  r.path = file.string();
  r.command = "test";
  return r;
}

// Each case's entries (in file order), by case id.
std::map<std::string, std::vector<json>> entries_by_case(const ResultsFile& f) {
  std::map<std::string, std::vector<json>> out;
  for (const auto& e : f.benchmarks) out[e.at("case_id").get<std::string>()].push_back(e);
  return out;
}

// A case is in the file once: its entries form one run (one median aggregate).
void require_each_case_once(const ResultsFile& f, std::size_t cases) {
  const auto by_case = entries_by_case(f);
  BOOST_TEST(by_case.size() == cases);
  for (const auto& [id, entries] : by_case) {
    std::size_t medians = 0;
    for (const auto& e : entries) medians += e.value("aggregate_name", "") == "median";
    BOOST_TEST(medians == 1u, id);
  }
}

// Every case finished in `before` is in `after` as it was.
void require_kept(const ResultsFile& before, const ResultsFile& after) {
  const auto now = entries_by_case(after);
  for (const auto& [id, entries] : entries_by_case(before)) {
    BOOST_TEST_REQUIRE(now.count(id) == 1u, id);
    BOOST_TEST((now.at(id) == entries), id);
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE(a_sweep_case_that_throws_is_skipped_and_one_that_aborts_is_skipped_after_two_deaths) {
  const testing::ScratchDir scratch("faults-sweep-faults");
  const fs::path file = scratch / "r.json";
  const SweepSpec spec = faulty_sweep({"european-call", "european-put", "min-call", "max-call"}, {12});
  const Faults faults{"european-put", "min-call"};
  const std::string aborting = "min-call/test-faulty:hundsdorfer-verwer/n=12/nt=auto/cpu/t1/fp64";

  BOOST_TEST_REQUIRE(died_of(in_child([&] { run_sweep(spec, run_to(file)); }, faults), SIGABRT));
  const ResultsFile first = read_results_file(file.string());
  // The run's attempts log names the case that died, as a book's does.
  const auto deaths = [&] { return RunAttempts::recorded_deaths(file.string()); };
  BOOST_TEST(deaths().at(aborting) == 1);
  BOOST_TEST(first.case_ids().size() == 2u);  // european-call priced, european-put skipped

  BOOST_TEST_REQUIRE(died_of(in_child([&] { resume_sweep(file.string(), SweepRun{}); }, faults), SIGABRT));
  BOOST_TEST(deaths().at(aborting) == 2);

  BOOST_TEST_REQUIRE(exited_cleanly(in_child([&] { resume_sweep(file.string(), SweepRun{}); }, faults)));
  const ResultsFile last = read_results_file(file.string());
  BOOST_TEST(last.elsbench().at("complete") == true);
  require_each_case_once(last, 4);
  require_kept(first, last);
  const auto by_case = entries_by_case(last);
  const auto reason = [&](const std::string& product) {
    return by_case.at(product + "/test-faulty:hundsdorfer-verwer/n=12/nt=auto/cpu/t1/fp64").front().value("skip_reason", "");
  };
  BOOST_TEST(reason("european-put") == "error: test-faulty: injected failure for european-put");
  BOOST_TEST(reason("min-call").find("died 2 times") != std::string::npos, reason("min-call"));
  BOOST_TEST(reason("european-call").empty());
  BOOST_TEST(reason("max-call").empty());
}

BOOST_AUTO_TEST_CASE(a_sweep_killed_at_random_moments_resumes_with_every_case_once_and_none_lost) {
  const testing::ScratchDir scratch("faults-sweep-kill");
  const fs::path file = scratch / "r.json";
  const SweepSpec spec = faulty_sweep({"european-call", "european-put", "min-call", "max-call"}, {12, 16});
  std::mt19937 rng(20261123);
  int kills = 0;
  bool complete = false;
  std::optional<ResultsFile> seen;
  for (int round = 0; round < 60 && !complete; ++round) {
    // Kills come later each round, so that the sweep always ends.
    const auto delay = std::chrono::microseconds(std::uniform_int_distribution<int>(0, 4000 * (round + 1))(rng));
    const bool started = fs::exists(file);
    const int status = in_child(
        [&] {
          if (started)
            resume_sweep(file.string(), SweepRun{});
          else
            run_sweep(spec, run_to(file));
        },
        Faults{}, delay);
    kills += died_of(status, SIGKILL);
    BOOST_TEST_REQUIRE((died_of(status, SIGKILL) || exited_cleanly(status)), "round " << round << ": status " << status);
    if (!fs::exists(file)) continue;
    ResultsFile now = read_results_file(file.string());  // whole at every moment
    if (seen) require_kept(*seen, now);
    complete = now.elsbench().value("complete", false);
    seen = std::move(now);
  }
  BOOST_TEST_REQUIRE(complete);
  BOOST_TEST(kills >= 3, kills << " kills");
  require_each_case_once(*seen, 8);
  BOOST_TEST_MESSAGE("sweep: complete after " << kills << " SIGKILLs");
}

// --- books ---------------------------------------------------------------------------------------

namespace {

Book small_book() { return parse_book("gen.jsonl", book_jsonl(generate_book({8, 1, 7}))); }

BookRunSpec book_spec(const fs::path& out) {
  BookRunSpec spec;
  spec.solver = "test-faulty";
  spec.options.grid.n = 24;
  spec.options.device = parse_device("cpu");
  spec.options.device.threads = 1;
  spec.threads = 1;
  spec.out = out.string();
  spec.resume = true;  // a missing file is a fresh run
  spec.write_interval_s = 0;
  return spec;
}

// The notes of a book results file, by id: each id must appear once.
std::map<std::string, json> notes_by_id(const fs::path& file) {
  std::map<std::string, json> out;
  const json results = read_book_results(file.string());
  for (const json& e : book_notes(results)) {
    const std::string id = e.at("product").get<std::string>();
    BOOST_TEST(out.count(id) == 0u, id << " twice");
    out[id] = e;
  }
  return out;
}

void require_notes_kept(const std::map<std::string, json>& before, const std::map<std::string, json>& after) {
  for (const auto& [id, e] : before)
    if (e.value("status", "") != "skipped") BOOST_TEST((after.count(id) && after.at(id) == e), id);
}

}  // namespace

BOOST_AUTO_TEST_CASE(a_book_note_that_throws_is_recorded_and_a_crash_resumes_with_every_note_once) {
  const testing::ScratchDir scratch("faults-book-faults");
  const fs::path file = scratch / "book.json";
  const Book book = small_book();
  BOOST_TEST_REQUIRE(book.notes.size() == 8u);
  const std::string throws = book.notes[1].product.id, aborts = book.notes[4].product.id;

  BOOST_TEST_REQUIRE(died_of(in_child([&] { run_book(book, book_spec(file)); }, Faults{throws, aborts}), SIGABRT));
  const auto first = notes_by_id(file);
  // Notes are priced in cost order, not book order: the crash leaves some of them, never its own.
  BOOST_TEST(first.size() < 8u);
  BOOST_TEST(first.count(aborts) == 0u);
  if (first.count(throws)) BOOST_TEST(first.at(throws).value("status", "") == "skipped");

  // The crash does not come back (an out-of-memory kill, say): the resume completes the book.
  BOOST_TEST_REQUIRE(exited_cleanly(in_child([&] { run_book(book, book_spec(file)); }, Faults{throws, ""})));
  const auto last = notes_by_id(file);
  BOOST_TEST(last.size() == 8u);
  for (const BookNote& n : book.notes) BOOST_TEST(last.count(n.product.id) == 1u);
  require_notes_kept(first, last);
  BOOST_TEST(last.at(throws).value("skip_reason", "").find("injected failure") != std::string::npos);
  BOOST_TEST(last.at(aborts).value("status", "") != "skipped");
}

BOOST_AUTO_TEST_CASE(a_book_note_that_aborts_every_time_is_recorded_as_failed_after_two_deaths) {
  const testing::ScratchDir scratch("faults-book-deaths");
  const fs::path file = scratch / "book.json";
  const Book book = small_book();
  const std::string aborts = book.notes[4].product.id;
  BookRunSpec spec = book_spec(file);
  spec.resume = false;
  BOOST_TEST_REQUIRE(died_of(in_child([&] { run_book(book, spec); }, Faults{"", aborts}), SIGABRT));
  const auto first = notes_by_id(file);
  spec.resume = true;
  // The suspect is priced first, alone: the second death is its own, before any other note starts.
  BOOST_TEST_REQUIRE(died_of(in_child([&] { run_book(book, spec); }, Faults{"", aborts}), SIGABRT));
  BOOST_TEST(notes_by_id(file) == first);

  BOOST_TEST_REQUIRE(exited_cleanly(in_child([&] { run_book(book, spec); }, Faults{"", aborts})));
  const auto last = notes_by_id(file);
  BOOST_TEST(last.size() == 8u);
  require_notes_kept(first, last);
  for (const BookNote& n : book.notes)
    BOOST_TEST((last.at(n.product.id).value("status", "") == "skipped") == (n.product.id == aborts), n.product.id);
  BOOST_TEST(last.at(aborts).value("skip_reason", "").find("died 2 times") != std::string::npos);
  // Kept across resumes: the note is not priced again (it would abort) until its log is deleted.
  BOOST_TEST(fs::exists(file.string() + ".attempts"));
  BOOST_TEST_REQUIRE(exited_cleanly(in_child([&] { run_book(book, spec); }, Faults{"", aborts})));
  BOOST_TEST(notes_by_id(file).at(aborts).value("skip_reason", "").find("died 2 times") != std::string::npos);
  fs::remove(file.string() + ".attempts");
  BOOST_TEST_REQUIRE(exited_cleanly(in_child([&] { run_book(book, spec); }, Faults{})));
  BOOST_TEST(notes_by_id(file).at(aborts).value("status", "") != "skipped");
  BOOST_TEST(!fs::exists(file.string() + ".attempts"));
}

BOOST_AUTO_TEST_CASE(a_book_killed_at_random_moments_resumes_with_every_note_once_and_none_lost) {
  const testing::ScratchDir scratch("faults-book-kill");
  const fs::path file = scratch / "book.json";
  const Book book = small_book();
  std::mt19937 rng(11232026);
  int kills = 0;
  std::map<std::string, json> seen;
  bool complete = false;
  for (int round = 0; round < 60 && !complete; ++round) {
    const auto delay = std::chrono::microseconds(std::uniform_int_distribution<int>(0, 3000 * (round + 1))(rng));
    // What is tested here is that nothing is lost: a note that random kills catch twice in flight
    // would (rightly) be recorded as failed, so the death count is set out of reach.
    BookRunSpec spec = book_spec(file);
    spec.note_deaths = 1000;
    const int status = in_child([&] { run_book(book, spec); }, Faults{}, delay);
    kills += died_of(status, SIGKILL);
    BOOST_TEST_REQUIRE((died_of(status, SIGKILL) || exited_cleanly(status)), "round " << round << ": status " << status);
    if (!fs::exists(file)) continue;
    auto now = notes_by_id(file);
    require_notes_kept(seen, now);
    complete = exited_cleanly(status);
    seen = std::move(now);
  }
  BOOST_TEST_REQUIRE(complete);
  BOOST_TEST(kills >= 3, kills << " kills");
  BOOST_TEST(seen.size() == book.notes.size());
  for (const BookNote& n : book.notes) BOOST_TEST(seen.at(n.product.id).value("status", "") != "skipped");
  BOOST_TEST_MESSAGE("book: complete after " << kills << " SIGKILLs");
}
