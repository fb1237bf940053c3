// Books of notes: the JSON Lines loader (a bad line is listed with its line and field, the rest
// kept), the generator (realistic, deterministic, every note loads), and pricing a book (each
// note's price equal to its single-note price_with to the last bit; resume after a kill).
#include <sys/wait.h>
#include <unistd.h>

#include <boost/test/unit_test.hpp>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include "harness/placement/book_price.hpp"
#include "harness/book/book_plan.hpp"
#include "harness/book/book_run.hpp"
#include "harness/placement/note_cost.hpp"
#include "harness/results/results_file.hpp"
#include "platform/file_io.hpp"
#include "platform/input_error.hpp"
#include "products/book_file.hpp"
#include "products/book_generator.hpp"
#include "products/catalog.hpp"
#include "products/product_json.hpp"
#include "solvers/contract/price.hpp"
#include "solvers/contract/solver.hpp"
#include "solvers/schemes/adi_scheme.hpp"

using namespace elsbench;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

constexpr int kN = 24;  // coarse: the tests compare prices, they do not judge them

SolverOptions adi_options(int threads) {
  SolverOptions o;
  o.grid.n = kN;
  o.device = parse_device("cpu");
  o.device.threads = threads;
  return o;
}

Book generated(int notes, int assets, std::uint64_t seed) {
  return parse_book("gen.jsonl", book_jsonl(generate_book({notes, assets, seed})));
}

fs::path temp_dir(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / ("elsbench-book-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

BookRunSpec run_spec(const fs::path& out, int threads) {
  BookRunSpec spec;
  spec.solver = "adi";
  spec.options = adi_options(threads);
  spec.threads = threads;
  spec.out = out.string();
  spec.write_interval_s = 0;
  return spec;
}

// A batched march that marches each problem alone (the single-note march `one`).
std::vector<MarchResult> one_by_one(const MarchFn& one, const std::vector<const Problem*>& problems,
                                    const SolverOptions& o) {
  std::vector<MarchResult> out;
  for (const Problem* p : problems) out.push_back(one(*p, o));
  return out;
}

}  // namespace

// A book run in a child process of its own, stopped by SIGTERM as `stop` says; its exit status.
int stopped_run(const Book& book, const fs::path& out, bool resume, const std::function<void(BookRunSpec&)>& stop) {
  const pid_t child = ::fork();
  if (child == 0) {
    BookRunSpec spec = run_spec(out, 1);
    spec.handle_signals = true;
    spec.resume = resume;
    stop(spec);
    run_book(book, spec);
    ::_exit(0);
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// First in the file: the children are forked before this process has started any thread.
BOOST_AUTO_TEST_CASE(a_killed_book_run_resumes_with_every_note_once) {
  const fs::path dir = temp_dir("kill");
  const Book book = generated(6, 1, 11);
  const fs::path out = dir / "book.json";
  BOOST_TEST(stopped_run(book, out, false, [](BookRunSpec& spec) {
               spec.after_note = [](std::size_t done) {
                 if (done == 2) ::raise(SIGTERM);
               };
             }) == 128 + SIGTERM);
  // A note in flight at a Ctrl-C or SIGTERM was stopped, not killed: stopped twice, it is still
  // priced by the next resume, not recorded as failed after two "deaths".
  const fs::path in_flight = dir / "in_flight.json";
  const std::string victim = book.notes[1].product.id;
  for (const bool resume : {false, true})
    BOOST_TEST(stopped_run(book, in_flight, resume, [&](BookRunSpec& spec) {
                 spec.note_started = [&](const std::string& id) {
                   if (id == victim) ::raise(SIGTERM);
                 };
               }) == 128 + SIGTERM);
  BOOST_TEST(book_notes(read_book_results(out.string())).size() == 2u);

  BookRunSpec resume = run_spec(out, 1);
  resume.resume = true;
  const BookRunSummary s = run_book(book, resume);
  BOOST_TEST(s.resumed == 2u);
  BOOST_TEST(s.priced == 4u);
  std::multiset<std::string> ids;
  const json file = read_book_results(out.string());
  for (const json& e : book_notes(file)) ids.insert(e["product"].get<std::string>());
  BOOST_TEST(file["context"]["elsbench"]["resumed"].size() == 1u);
  BOOST_TEST(ids.size() == 6u);
  for (const BookNote& n : book.notes) BOOST_TEST(ids.count(n.product.id) == 1u);

  BookRunSpec again = run_spec(in_flight, 1);
  again.resume = true;
  const BookRunSummary last = run_book(book, again);
  BOOST_TEST(last.failed == 0u);
  for (const json& e : book_notes(read_book_results(in_flight.string())))
    BOOST_TEST(!e["price"].is_null(), e["product"].get<std::string>() << " " << e.value("skip_reason", ""));
  fs::remove_all(dir);
}

BOOST_AUTO_TEST_CASE(a_bad_line_is_listed_with_its_line_and_field_and_the_rest_kept) {
  const std::vector<Product> notes = generate_book({3, 2, 5});
  json bad = product_to_json(notes[1]);
  bad["autocall"][1]["barrier"] = "high";
  json repeated = product_to_json(notes[0]);
  const std::string text = product_to_json(notes[0]).dump() + "\n" + bad.dump() + "\n\n{not json\n" +
                           repeated.dump() + "\n" + product_to_json(notes[2]).dump();
  const Book book = parse_book("desk.jsonl", text);
  BOOST_TEST_REQUIRE(book.notes.size() == 2u);
  BOOST_TEST(book.notes[0].line == 1);
  BOOST_TEST(book.notes[1].line == 6);
  BOOST_TEST_REQUIRE(book.bad.size() == 3u);
  BOOST_TEST(book.bad[0].line == 2);
  BOOST_TEST(book.bad[0].field == "autocall[1].barrier");
  BOOST_TEST(book.bad[0].message.find("desk.jsonl:2: field 'autocall[1].barrier'") == 0u);
  BOOST_TEST(book.bad[1].line == 4);
  BOOST_TEST(book.bad[1].field == "<line>");
  BOOST_TEST(book.bad[2].line == 5);
  BOOST_TEST(book.bad[2].field == "id");
  BOOST_TEST(book.bad[2].reason.find("line 1") != std::string::npos);
  BOOST_CHECK_THROW(require_clean(book), InputError);
  BOOST_CHECK_THROW(require_clean(parse_book("empty.jsonl", "\n \n")), InputError);
  BOOST_CHECK_NO_THROW(require_clean(generated(3, 0, 1)));
}

BOOST_AUTO_TEST_CASE(every_generated_note_loads_and_looks_like_a_korean_stepdown) {
  const Book book = generated(400, 0, 42);
  BOOST_TEST(book.bad.empty());
  BOOST_TEST_REQUIRE(book.notes.size() == 400u);
  std::set<std::string> ids;
  std::set<int> dims, dates;
  int knocked = 0;
  for (const BookNote& n : book.notes) {
    const Product& p = n.product;
    ids.insert(p.id);
    dims.insert(p.dimension());
    BOOST_TEST(p.is_els());
    BOOST_TEST((p.els().knock_in.monitoring == Monitoring::Daily));
    BOOST_TEST((p.els().knock_in.barrier >= 0.45 - 1e-12 && p.els().knock_in.barrier <= 0.65 + 1e-12));
    BOOST_TEST((p.maturity() >= 0.25 - 1e-9 && p.maturity() <= 3.0 + 1e-9));
    BOOST_TEST(p.els().autocall.size() <= 9u);
    dates.insert(static_cast<int>(p.els().autocall.size()));
    for (std::size_t i = 1; i < p.els().autocall.size(); ++i)
      BOOST_TEST(p.els().autocall[i].barrier <= p.els().autocall[i - 1].barrier);  // steps down
    const double coupon_pa = p.els().dummy_coupon / 3.0;
    BOOST_TEST((coupon_pa >= 0.04 - 1e-12 && coupon_pa <= 0.12 + 1e-12));
    for (std::size_t a = 0; a < p.assets.size(); ++a) {
      BOOST_TEST((p.assets[a].vol >= 0.15 && p.assets[a].vol <= 0.35));
      const double ratio = p.assets[a].spot / p.assets[a].reference;
      BOOST_TEST((ratio >= 0.6 - 1e-9 && ratio <= 1.3 + 1e-9));
      if (ratio < p.els().knock_in.barrier) BOOST_TEST(p.els().knocked_in);
      for (std::size_t b = 0; b < p.assets.size(); ++b)
        if (a != b) BOOST_TEST((p.correlation[a][b] >= 0.3 && p.correlation[a][b] <= 0.8));
    }
    knocked += p.els().knocked_in ? 1 : 0;
  }
  BOOST_TEST(ids.size() == 400u);
  BOOST_TEST((dims == std::set<int>{1, 2, 3}));
  BOOST_TEST(dates.size() > 3u);  // seasoned: remaining schedules of many lengths
  BOOST_TEST((knocked > 10 && knocked < 200));
  // Deterministic for a seed, different across seeds; the assets asked for.
  BOOST_TEST(book_jsonl(generate_book({50, 0, 42})) == book_jsonl(generate_book({50, 0, 42})));
  BOOST_TEST(book_jsonl(generate_book({50, 0, 42})) != book_jsonl(generate_book({50, 0, 43})));
  for (const BookNote& n : generated(30, 3, 7).notes) BOOST_TEST(n.product.dimension() == 3);
}

BOOST_AUTO_TEST_CASE(a_digital_family_holds_the_hard_cases_and_every_note_loads) {
  // Issue 44's hard cases: redemption barriers of 60-80 %, one date or many, coupons up to 40 %,
  // knocked in and not; each note is a valid product (it goes through the loader again).
  BookSpec spec{200, 0, 9};
  spec.family = BookFamily::Digital;
  std::set<std::size_t> date_counts;
  int knocked = 0;
  for (const Product& p : generate_book(spec)) {
    const Product again = product_from_json(product_to_json(p), "digital");
    BOOST_TEST(again.id.rfind("digital-s9-", 0) == 0u, again.id);
    date_counts.insert(p.els().autocall.size());
    for (const AutocallDate& a : p.els().autocall) {
      BOOST_TEST((a.barrier >= 0.6 && a.barrier <= 0.8), p.id << " barrier " << a.barrier);
      BOOST_TEST(a.coupon <= 0.4);
    }
    BOOST_TEST(p.els().knock_in.barrier < p.els().autocall.back().barrier);
    knocked += p.els().knocked_in ? 1 : 0;
  }
  BOOST_TEST((date_counts == std::set<std::size_t>{1, 6, 9}));
  BOOST_TEST((knocked > 60 && knocked < 160), knocked);
  BOOST_CHECK_THROW(parse_book_family("digitial"), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(a_note_priced_in_a_book_equals_its_single_pricing_to_the_last_bit) {
  const Book book = generated(5, 0, 3);
  std::vector<const Product*> notes;
  for (const BookNote& n : book.notes) notes.push_back(&n.product);
  const SolverInfo& adi = SolverRegistry::instance().get("adi");
  // Two threads over 5 notes: a note per thread; over 2 notes: threads over lines.
  for (std::size_t count : {notes.size(), std::size_t{2}}) {
    const std::vector<const Product*> some(notes.begin(), notes.begin() + static_cast<std::ptrdiff_t>(count));
    const BookPlacement placement = place_book(adi, some.size(), parse_device("cpu"), 2);
    BOOST_TEST(placement.workers.size() == (count > 2 ? 2u : 1u));
    std::size_t seen = 0;
    price_book(adi, some, adi_options(2), placement, [&](std::size_t index, const CaseOutcome& out) {
      ++seen;
      BOOST_TEST_REQUIRE(out.priced());
      const PriceResult one = price_with(adi, *some[index], adi_options(1));
      BOOST_TEST(out.result->price == one.price);
      BOOST_TEST(out.result->delta == one.delta);
      BOOST_TEST(out.result->gamma == one.gamma);
    });
    BOOST_TEST(seen == count);
  }
}

BOOST_AUTO_TEST_CASE(a_batched_march_gives_the_single_note_prices) {
  SolverInfo batched = SolverRegistry::instance().get("adi");
  const MarchFn one = batched.march;
  batched.march_book = [one](const std::vector<const Problem*>& problems, const SolverOptions& o) {
    return one_by_one(one, problems, o);
  };
  const Book book = generated(3, 2, 9);
  std::vector<const Product*> notes;
  for (const BookNote& n : book.notes) notes.push_back(&n.product);
  const std::vector<PriceResult> results = price_book_with(batched, notes, adi_options(1));
  BOOST_TEST_REQUIRE(results.size() == 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    BOOST_TEST(results[i].product == notes[i]->id);
    BOOST_TEST(results[i].price == price_with(batched, *notes[i], adi_options(1)).price);
  }
}

// Chunks of two notes: the third note starts a chunk, whose set-up ran beside the first march.
BOOST_AUTO_TEST_CASE(a_batched_book_marches_in_pipelined_chunks) {
  SolverInfo batched = SolverRegistry::instance().get("adi");
  const MarchFn one = batched.march;
  std::vector<std::size_t> chunks;
  batched.march_book = [one, &chunks](const std::vector<const Problem*>& problems, const SolverOptions& o) {
    chunks.push_back(problems.size());
    std::vector<MarchResult> out = one_by_one(one, problems, o);
    out.front().batch_times = BatchTimes{0.0, 0.5, 2.0, 0.25};
    return out;
  };
  const Book book = generated(5, 2, 9);
  std::vector<const Product*> notes;
  for (const BookNote& n : book.notes) notes.push_back(&n.product);
  const std::vector<PriceResult> results = price_book_with(batched, notes, adi_options(1), 2);
  BOOST_TEST(chunks == (std::vector<std::size_t>{2, 2, 1}), boost::test_tools::per_element());
  BOOST_TEST_REQUIRE(results.size() == 5u);
  for (std::size_t i = 0; i < 5; ++i) {
    BOOST_TEST(results[i].product == notes[i]->id);
    BOOST_TEST(results[i].price == price_with(batched, *notes[i], adi_options(1)).price);
    BOOST_TEST(results[i].batch_times.has_value() == (i % 2 == 0), "note " << i);
  }
  // Each chunk's set-up is its problems' build: more than the march's own (0) set-up.
  BOOST_TEST(results[2].batch_times->setup > 0);
  BOOST_TEST(results[2].batch_times->march == 2.0);
  BOOST_CHECK_THROW(price_book_with(batched, notes, adi_options(1), 0), std::invalid_argument);
}

// A variant that prepares its batches (prepare_book: a GPU's plans and images) has chunk k + 1's
// prepared while chunk k marches: the first chunk's march sees the second's prepare begin.
BOOST_AUTO_TEST_CASE(a_prepared_book_makes_the_next_batch_while_one_marches) {
  SolverInfo batched = SolverRegistry::instance().get("adi");
  const MarchFn one = batched.march;
  std::atomic<int> prepared{0};
  std::vector<bool> saw_next;
  batched.march_book = [](const std::vector<const Problem*>&, const SolverOptions&) -> std::vector<MarchResult> {
    throw std::logic_error("march_book called where prepare_book's march was made");
  };
  batched.prepare_book = [&, one](const std::vector<const Problem*>& problems, const SolverOptions& o) -> BookMarch {
    const int chunk = prepared++;
    return [&, one, chunk, problems, o] {
      const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(30);
      while (chunk + 1 < 3 && prepared.load() <= chunk + 1 && std::chrono::steady_clock::now() < until)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      saw_next.push_back(chunk + 1 == 3 || prepared.load() > chunk + 1);
      return one_by_one(one, problems, o);
    };
  };
  const Book book = generated(5, 2, 9);
  std::vector<const Product*> notes;
  for (const BookNote& n : book.notes) notes.push_back(&n.product);
  const std::vector<PriceResult> results = price_book_with(batched, notes, adi_options(1), 2);
  BOOST_TEST(prepared.load() == 3);
  BOOST_TEST(saw_next == (std::vector<bool>{true, true, true}), boost::test_tools::per_element());
  BOOST_TEST_REQUIRE(results.size() == 5u);
  for (std::size_t i = 0; i < 5; ++i) BOOST_TEST(results[i].price == price_with(batched, *notes[i], adi_options(1)).price);
}

BOOST_AUTO_TEST_CASE(a_book_run_records_bad_lines_and_prices_the_rest) {
  const fs::path dir = temp_dir("run");
  const std::vector<Product> notes = generate_book({3, 1, 8});
  json bad = product_to_json(notes[1]);
  bad["rate"] = "3%";
  const Book book = parse_book("desk.jsonl", product_to_json(notes[0]).dump() + "\n" + bad.dump() + "\n" +
                                                 product_to_json(notes[2]).dump() + "\n");
  const BookRunSummary s = run_book(book, run_spec(dir / "r.json", 1));
  BOOST_TEST(s.priced == 2u);
  BOOST_TEST(s.bad_lines == 1u);
  const json file = read_book_results((dir / "r.json").string());
  const json& context = file["context"]["elsbench"];
  BOOST_TEST(context["book"]["bad_lines"][0]["line"] == 2);
  BOOST_TEST(context["book"]["bad_lines"][0]["field"] == "rate");
  const std::vector<json> priced = book_notes(file);
  BOOST_TEST(priced.size() == 2u);
  BOOST_TEST(context["machine"].contains("cpu_model"));
  BOOST_TEST(priced[1]["line"] == 3);
  BOOST_TEST(priced[1]["price"].get<double>() == price_with(SolverRegistry::instance().get("adi"), notes[2],
                                                            adi_options(1)).price);
  // A results file of the one schema: each note a case, readable as a sweep's.
  BOOST_TEST(priced[1]["case_id"] == notes[2].id + "/adi:hundsdorfer-verwer/n=24/nt=auto/book/fp64");
  BOOST_TEST(priced[1]["status"] == "no-reference");
  BOOST_TEST(read_results_file((dir / "r.json").string()).case_ids().size() == 2u);
  BOOST_TEST(fs::exists(dir / "r.csv"));
  // Resuming with any other setting that changes a price is refused, naming it, rather than
  // mixing two grids in one file.
  const std::vector<std::pair<std::string, std::function<void(BookRunSpec&)>>> changes = {
      {"n", [](BookRunSpec& o) { o.options.grid.n = kN + 2; }},
      {"nt", [](BookRunSpec& o) { o.options.grid.nt = 60; }},
      {"mesh", [](BookRunSpec& o) { o.options.grid.mesh = MeshKind::Uniform; }},
      {"s_max", [](BookRunSpec& o) { o.options.grid.s_max_multiple = 5; }},
      {"density", [](BookRunSpec& o) { o.options.grid.density = 0.4; }},
      {"damping", [](BookRunSpec& o) { o.options.grid.damping_steps = 3; }},
      {"ki_damping", [](BookRunSpec& o) { o.options.grid.knock_in_damping = 0; }},
      {"ki_damping_fraction", [](BookRunSpec& o) { o.options.grid.knock_in_damping_fraction = 0.5; }},
      {"scheme", [](BookRunSpec& o) { o.options.scheme = "craig-sneyd"; }},
      {"precision", [](BookRunSpec& o) { o.options.precision = Precision::Mixed; }},
      {"solver", [](BookRunSpec& o) { o.solver = "explicit"; }},
  };
  for (const auto& [key, change] : changes) {
    BookRunSpec other = run_spec(dir / "r.json", 1);
    change(other);
    other.resume = true;
    BOOST_TEST_CONTEXT(key) {
      try {
        run_book(book, other);
        BOOST_ERROR("resumed with another " + key);
      } catch (const InputError& e) {
        BOOST_TEST(e.field() == "context.elsbench.book.settings." + key);
      }
    }
  }
  BookRunSpec same = run_spec(dir / "r.json", 1);
  same.resume = true;
  BOOST_TEST(run_book(book, same).resumed == 2u);
  fs::remove_all(dir);
}

BOOST_AUTO_TEST_CASE(shares_are_balanced_by_cost_and_hold_every_note_once) {
  const auto shares = cost_balanced_shares({5, 4, 3, 3, 1}, 2);
  BOOST_TEST_REQUIRE(shares.size() == 2u);
  BOOST_TEST((shares[0] == std::vector<std::size_t>{0, 3}));     // 5 + 3
  BOOST_TEST((shares[1] == std::vector<std::size_t>{1, 2, 4}));  // 4 + 3 + 1
}

BOOST_AUTO_TEST_CASE(a_notes_cost_is_the_march_its_pricing_takes) {
  // The sample's daily knock-in adds two damped sub-steps after the payoff and each date but the
  // last, each half an HV step's solves: the rates (solvers/contract/cost_rates.inc) are per such
  // march step.
  const Product sample = resolve_product("sample-2a-stepdown");
  SolverOptions o = adi_options(1);
  o.grid.n = 40;
  const PriceResult r = price_with(SolverRegistry::instance().get("adi"), sample, o);
  const double nt = static_cast<double>(r.nt), sub_steps = static_cast<double>(r.time_steps - r.nt);
  BOOST_TEST(sub_steps == 2 * nt);
  BOOST_TEST(r.march_steps == nt + sub_steps / 2, boost::test_tools::tolerance(1e-3));
  BOOST_TEST(note_cost(sample, o.grid) == static_cast<double>(r.grid_points()) * r.march_steps,
             boost::test_tools::tolerance(1e-3));
  // A grid the builder refuses keeps a place in the queue: its points x its steps.
  o.grid.nt = 20'000'000;
  BOOST_TEST(note_cost(sample, o.grid) == 40.0 * 40.0 * 2e7);
}

namespace {

// References on demand at a loose target (0.5 % of the notional), so that each note's Monte Carlo
// takes a fraction of a second; the store is a fresh folder, so every reference is computed.
BookReferences loose_auto_references(const fs::path& store) {
  BookReferences r;
  r.policy.mode = ReferencePolicy::Mode::Auto;
  r.policy.store = store.string();
  r.policy.target_fraction = 5e-3;
  r.policy.budget_seconds = 30;
  r.policy.device = "cpu";
  r.policy.threads = 1;
  return r;
}

constexpr int kJudgedN = 64;  // fine enough that adi's error lies inside the rule's allowance

}  // namespace

BOOST_AUTO_TEST_CASE(book_references_auto_pass_a_good_solver_and_fail_one_that_drops_the_correlation) {
  const fs::path dir = temp_dir("refs");
  // Two-asset notes, correlated 0.35-0.75, none of which has a stored reference.
  const Book book = generated(3, 2, 21);
  std::map<std::string, std::string> verdicts[2];
  int k = 0;
  for (const char* solver : {"adi", "adi-nocorr"}) {
    BookRunSpec spec = run_spec(dir / (std::string(solver) + ".json"), 1);
    spec.solver = solver;
    spec.options.grid.n = kJudgedN;
    spec.references = loose_auto_references(dir / "store");
    const BookRunSummary s = run_book(book, spec);
    BOOST_TEST(s.priced == 3u);
    const json file = read_book_results(spec.out);
    for (const json& n : book_notes(file)) {
      BOOST_TEST_CONTEXT(solver << " " << n.dump()) {
        BOOST_TEST(n["reference_source"] == "monte-carlo-on-demand");
        BOOST_TEST(n["reference_stderr"].get<double>() <= 0.5 * (1 + 1e-9));
        BOOST_TEST(n["error"].get<double>() == n["price"].get<double>() - n["reference"].get<double>());
        BOOST_TEST(n["judged"] == true);
        verdicts[k][n["product"].get<std::string>()] = n["status"].get<std::string>();
        BOOST_TEST_MESSAGE(solver << " " << n["product"].get<std::string>() << ": price " << n["price"]
                                  << ", reference " << n["reference"] << " +- " << n["reference_stderr"] << ", error "
                                  << n["error"] << ", allowance " << n["allowance"] << ": " << n["status"]);
      }
    }
    const json& validation = file["context"]["elsbench"]["book"]["validation"];
    BOOST_TEST(validation["pass"].get<int>() + validation["fail"].get<int>() == 3);
    BOOST_TEST(s.validation_failed == validation["fail"].get<std::size_t>());
    std::ifstream csv(dir / (std::string(solver) + ".csv"));
    std::string header;
    std::getline(csv, header);
    BOOST_TEST(header.starts_with("product,isin,tags,notional,underlyings,price,price_pct_notional,error_bar,status,"));
    BOOST_TEST(header.find(",case_id,") != std::string::npos);
    BOOST_TEST(header.find(",reference,reference_stderr,reference_source,error,tol,allowance,") != std::string::npos);
    ++k;
  }
  for (const auto& [id, v] : verdicts[0]) BOOST_TEST(v == "pass", id);
  for (const auto& [id, v] : verdicts[1]) BOOST_TEST(v == "fail", id);
  fs::remove_all(dir);
}

BOOST_AUTO_TEST_CASE(a_note_without_a_reference_is_recorded_as_such_and_the_book_goes_on) {
  const fs::path dir = temp_dir("noref");
  BookRunSpec spec = run_spec(dir / "r.json", 1);
  BookReferences stored;
  stored.policy.mode = ReferencePolicy::Mode::Stored;
  spec.references = stored;
  const BookRunSummary s = run_book(generated(2, 1, 4), spec);
  BOOST_TEST(s.priced == 2u);
  BOOST_TEST(s.validation_failed == 0u);
  const json file = read_book_results(spec.out);
  for (const json& n : book_notes(file)) {
    BOOST_TEST(n["status"] == "no-reference");
    BOOST_TEST(n["judged"] == true);
    BOOST_TEST(n["no_reference_reason"].get<std::string>().find("--reference auto") != std::string::npos);
    BOOST_TEST(n["reference"].is_null());
  }
  BOOST_TEST(file["context"]["elsbench"]["book"]["validation"]["no_reference"] == 2);
  fs::remove_all(dir);
}

namespace {

// A test double of a GPU variant with a batched march: it marches on the CPU (adi's march) and
// records which device each batch was given. No GPU needed.
std::map<int, std::vector<std::string>> batches_by_device;
std::mutex batches_lock;
SolverInfo recording_gpu_info() {
  // Registrations run in no set order: adi's entry is looked up when a march runs.
  SolverInfo s;
  s.name = "test-recording-gpu";
  s.max_dim = 2;
  s.schemes = adi_scheme_names();
  s.description = "test only: adi's march behind a CUDA device, recording each batch's device";
  s.devices = {Device::Kind::Cuda};
  s.test_only = true;
  s.march = [](const Problem& pb, const SolverOptions& o) { return SolverRegistry::instance().get("adi").march(pb, o); };
  s.march_book = [](const std::vector<const Problem*>& problems, const SolverOptions& o) {
    std::vector<MarchResult> out;
    SolverOptions on_cpu = o;
    on_cpu.device = parse_device("cpu");
    on_cpu.device.threads = 1;
    for (const Problem* p : problems) out.push_back(SolverRegistry::instance().get("adi").march(*p, on_cpu));
    out.front().batch_times = BatchTimes{0.0, 0.5, 2.0, 0.25};
    const std::lock_guard lock(batches_lock);
    batches_by_device[o.device.index].push_back(std::to_string(problems.size()));
    return out;
  };
  return s;
}
ELSBENCH_REGISTER_SOLVER(recording_gpu_info);

}  // namespace

// book price --dry-run's plan: notes by underlyings, the solver's refusals, and an estimate that
// scales with the threads; none where no rate was measured.
BOOST_AUTO_TEST_CASE(a_book_plan_counts_its_notes_and_estimates_its_time) {
  const Book book = generated(12, 0, 13);
  BookRunSpec spec = run_spec("unused.json", 1);
  const BookPlan one = plan_book(book, spec);
  BOOST_TEST(one.notes == 12u);
  BOOST_TEST(one.by_assets[1] + one.by_assets[2] + one.by_assets[3] == 12u);
  BOOST_TEST(one.refused == 0u);
  BOOST_TEST_REQUIRE(one.low_seconds.has_value());
  BOOST_TEST(*one.low_seconds > 0);
  BOOST_TEST(*one.low_seconds <= *one.high_seconds);
  BOOST_TEST(*one.expected_seconds >= *one.low_seconds);
  BOOST_TEST(*one.expected_seconds <= *one.high_seconds);
  spec.threads = 2;
  const BookPlan two = plan_book(book, spec);
  BOOST_TEST(two.parallel == 2);
  BOOST_TEST(*two.low_seconds == *one.low_seconds / 2, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(describe(two, spec).find("estimate_seconds: ") != std::string::npos);
  BOOST_TEST(describe(two, spec).find("expected_seconds: ") != std::string::npos);
  // A target's grids are chosen by the pilots: the least its searches price, a lower bound alone.
  BookRunSpec to_target = spec;
  to_target.target = parse_error_target("1bp");
  const BookPlan least = plan_book(book, to_target);
  BOOST_TEST_REQUIRE(least.low_seconds.has_value());
  BOOST_TEST(!least.high_seconds.has_value());
  BOOST_TEST(!least.expected_seconds.has_value());
  const std::string said = describe(least, to_target);
  BOOST_TEST(said.find("estimate: at least ") != std::string::npos, said);
  BOOST_TEST(said.find("expected_seconds") == std::string::npos, said);
  // A two-asset GPU variant never calibrated: three-asset notes refused, no estimate.
  spec.solver = "test-recording-gpu";
  spec.options.device = parse_device("cuda:0");
  const BookPlan gpu = plan_book(book, spec);
  BOOST_TEST(gpu.refused == gpu.by_assets[3]);
  BOOST_TEST(gpu.by_assets[3] > 0u);
  BOOST_TEST(!gpu.low_seconds.has_value());
  BOOST_TEST(describe(gpu, spec).find("estimate_seconds: unmeasured") != std::string::npos);
}

// The book's CSV leads with what a desk reads (identifiers, notional, underlyings, price and its
// percentage of the notional, bar, status) and lists its bad lines as rows of their own.
BOOST_AUTO_TEST_CASE(a_book_csv_leads_with_the_desk_s_columns_and_lists_bad_lines) {
  const fs::path dir = temp_dir("desk");
  const std::vector<Product> notes = generate_book({2, 2, 8});
  json first = product_to_json(notes[0]);
  first["isin"] = "KR7005930003";
  first["tags"] = json::array({"desk-A", "autocall"});
  first["notional"] = 10000.0;
  json bad = product_to_json(notes[1]);
  bad["rate"] = "3%";
  const Book book = parse_book("desk.jsonl", first.dump() + "\n" + bad.dump() + "\n");
  BOOST_TEST_REQUIRE(run_book(book, run_spec(dir / "d.json", 1)).priced == 1u);
  std::ifstream csv(dir / "d.csv");
  std::string header, row, bad_row;
  std::getline(csv, header);
  std::getline(csv, row);
  std::getline(csv, bad_row);
  BOOST_TEST(header.starts_with("product,isin,tags,notional,underlyings,price,price_pct_notional,error_bar,status,delta_1,"));
  const std::string names = notes[0].assets[0].name + "/" + notes[0].assets[1].name;
  BOOST_TEST(row.starts_with(notes[0].id + ",KR7005930003,desk-A;autocall,10000," + names + ","), row);
  const json priced = book_notes(read_book_results((dir / "d.json").string()))[0];
  BOOST_TEST(priced["price_pct_notional"].get<double>() == priced["price"].get<double>() / 100.0,
             boost::test_tools::tolerance(1e-12));
  BOOST_TEST(priced["isin"] == "KR7005930003");
  BOOST_TEST(bad_row.find(",bad-line,") != std::string::npos, bad_row);
  BOOST_TEST(bad_row.find("rate") != std::string::npos, bad_row);
  fs::remove_all(dir);
}

// --spot-shifts / --vol-shifts: each rung of the ladder is each note priced with every spot (vol)
// moved, as a single pricing of the moved note gives it; the (0, 0) rung is the book's own
// prices, and the book's value at each rung is the sum.
BOOST_AUTO_TEST_CASE(a_scenario_ladder_prices_each_note_moved_and_sums_the_book) {
  BOOST_TEST(parse_shifts("-20:20:10", "--spot-shifts") == (std::vector<double>{-20, -10, 0, 10, 20}),
             boost::test_tools::per_element());
  BOOST_TEST(parse_shifts("-2,2", "--vol-shifts") == (std::vector<double>{-2, 2}), boost::test_tools::per_element());
  BOOST_TEST(parse_shifts("", "--vol-shifts").empty());
  for (const char* bad : {"-20:x:5", "20:-20:5", "-1:1:0", "1,,2"})
    BOOST_CHECK_THROW(parse_shifts(bad, "--spot-shifts"), InputError);

  const fs::path dir = temp_dir("ladder");
  const Book book = generated(2, 2, 31);
  BookRunSpec spec = run_spec(dir / "l.json", 1);
  spec.ladder = {{-10, 0, 10}, {2}};
  BOOST_TEST_REQUIRE(run_book(book, spec).priced == 2u);
  const json file = read_book_results((dir / "l.json").string());
  const json& ladder = file["context"]["elsbench"]["book"]["scenarios"];
  BOOST_TEST(ladder["spot_shifts_pct"] == json({-10.0, 0.0, 10.0}));
  BOOST_TEST(ladder["vol_points"] == json({0.0, 2.0}));
  const std::vector<json> notes = book_notes(file);
  const double base = notes[0]["price"].get<double>() + notes[1]["price"].get<double>();
  BOOST_TEST(ladder["book_value"][1][0].get<double>() == base);
  const Product& first = book.notes[0].product;
  Product up = first;
  for (auto& a : up.assets) a.spot *= 1.1;
  for (auto& a : up.assets) a.vol += 0.02;
  const double moved = price_with(SolverRegistry::instance().get("adi"), up, adi_options(1)).price;
  BOOST_TEST(ladder["notes"][first.id][2][1].get<double>() == moved, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(ladder["book_value"][2][1].get<double>() ==
                 ladder["notes"][first.id][2][1].get<double>() + ladder["notes"][book.notes[1].product.id][2][1].get<double>(),
             boost::test_tools::tolerance(1e-12));
  // A rung that takes a vol to or below 0 leaves the notes unpriced there; the ladder goes on.
  BookRunSpec deep = run_spec(dir / "d.json", 1);
  deep.ladder = {{}, {-99}};
  BOOST_TEST_REQUIRE(run_book(book, deep).priced == 2u);
  const json deep_file = read_book_results((dir / "d.json").string());
  const json& low = deep_file["context"]["elsbench"]["book"]["scenarios"];
  BOOST_TEST(low["failed"] == 2);
  BOOST_TEST(low["notes"][first.id][0][0].is_null());
  BOOST_TEST(low["book_value"][0][0].is_null());
  BOOST_TEST(low["book_value"][0][1].get<double>() == base);
  std::ifstream csv(dir / "l.scenarios.csv");
  std::string header, line;
  std::getline(csv, header);
  BOOST_TEST(header == "product,spot_shift_pct,vol_points,price,pnl");
  int book_rows = 0;
  while (std::getline(csv, line)) book_rows += line.rfind("BOOK,", 0) == 0;
  BOOST_TEST(book_rows == 6);
  fs::remove_all(dir);
}

// On the default grid a rung is the moved note's Richardson value (no bar), as its base price is
// the note's: a rung on a plain grid set against an extrapolated base would read the grid's error
// as P&L.
BOOST_AUTO_TEST_CASE(a_ladder_on_the_default_grid_prices_each_rung_by_the_default_rule) {
  const fs::path dir = temp_dir("default-ladder");
  const Book book = generated(1, 1, 31);
  BookRunSpec spec = run_spec(dir / "l.json", 1);
  spec.default_grid = true;
  spec.ladder = {{10}, {}};
  BOOST_TEST_REQUIRE(run_book(book, spec).priced == 1u);
  const json file = read_book_results((dir / "l.json").string());
  const json& ladder = file["context"]["elsbench"]["book"]["scenarios"];
  const std::vector<json> notes = book_notes(file);
  BOOST_TEST(notes[0]["priced_n"] == default_nodes(1));
  BOOST_TEST(notes[0]["error_bar"].is_number());
  Product up = book.notes[0].product;
  for (auto& a : up.assets) a.spot *= 1.1;
  SolverOptions o = adi_options(1);
  o.grid.n = default_nodes(1);
  const double moved = price_extrapolated(SolverRegistry::instance().get("adi"), up, o).price;
  BOOST_TEST(ladder["notes"][book.notes[0].product.id][1][0].get<double>() == moved);
  BOOST_TEST(ladder["book_value"][0][0].get<double>() == notes[0]["price"].get<double>());
  fs::remove_all(dir);
}

// A batched book's results sum its batches' times: set-up (the problems' build and the march's
// own), upload, march, download.
BOOST_AUTO_TEST_CASE(a_batched_book_s_results_carry_where_its_time_went) {
  const fs::path dir = temp_dir("times");
  const Book book = generated(3, 2, 21);
  BookRunSpec spec = run_spec(dir / "t.json", 1);
  spec.solver = "test-recording-gpu";
  spec.options.device = parse_device("cuda:0");
  const BookRunSummary s = run_book(book, spec);
  BOOST_TEST_REQUIRE(s.priced == 3u);
  const json summary = read_book_results((dir / "t.json").string())["context"]["elsbench"]["book"]["summary"];
  BOOST_TEST(summary["march_seconds"].get<double>() == 2.0);
  BOOST_TEST(summary["upload_seconds"].get<double>() == 0.5);
  BOOST_TEST(summary["download_seconds"].get<double>() == 0.25);
  BOOST_TEST(summary["setup_seconds"].get<double>() > 0.0);
  // A CPU book has no batches: no such fields.
  const BookRunSummary cpu = run_book(book, run_spec(dir / "c.json", 1));
  BOOST_TEST_REQUIRE(cpu.priced == 3u);
  BOOST_TEST(!read_book_results((dir / "c.json").string())["context"]["elsbench"]["book"]["summary"].contains(
      "march_seconds"));
  fs::remove_all(dir);
}

// --device cuda:all: one host thread per device, each marching a cost-balanced share in one batch;
// the prices are those of one device.
BOOST_AUTO_TEST_CASE(cuda_all_splits_a_book_by_cost_over_every_device_in_one_batch_each) {
  const SolverInfo& gpu = SolverRegistry::instance().get("test-recording-gpu");
  const Book book = generated(7, 0, 13);
  std::vector<const Product*> notes;
  std::vector<std::size_t> taken;  // the notes of at most 2 underlyings, which the variant takes
  for (const BookNote& n : book.notes) {
    if (n.product.dimension() <= 2) taken.push_back(notes.size());
    notes.push_back(&n.product);
  }
  BOOST_TEST_REQUIRE(taken.size() >= 4u);
  BOOST_TEST_REQUIRE(taken.size() < notes.size());
  SolverOptions o = adi_options(1);
  o.device = parse_device("cuda:0");
  std::map<std::size_t, std::string> device_of;
  const auto price_on = [&](const std::vector<int>& gpus) {
    batches_by_device.clear();
    const BookPlacement placement = place_book(gpu, notes.size(), o.device, 0, gpus);
    BOOST_TEST(placement.batched);
    BOOST_TEST(placement.workers.size() == gpus.size());
    std::map<std::size_t, double> prices;
    device_of.clear();
    std::size_t refused = 0;
    price_book(gpu, notes, o, placement, [&](std::size_t index, const CaseOutcome& out) {
      // A three-asset note is refused on its own, with the reason; the others go in the batches.
      if (notes[index]->dimension() > 2) {
        ++refused;
        BOOST_TEST(!out.priced());
        BOOST_TEST(out.skip_reason.find("handles up to 2 underlyings") != std::string::npos);
        return;
      }
      BOOST_TEST_REQUIRE(out.priced());
      prices[index] = out.result->price;
      device_of[index] = out.result->device;
    });
    BOOST_TEST(prices.size() == taken.size());
    BOOST_TEST(refused == notes.size() - taken.size());
    return prices;
  };
  const auto one = price_on({0});
  BOOST_TEST(batches_by_device.size() == 1u);
  const auto three = price_on({0, 1, 2});
  // One batch per device, each of the share cost_balanced_shares gives it.
  std::vector<double> costs;
  for (std::size_t i : taken) costs.push_back(note_cost(*notes[i], o.grid));
  auto shares = cost_balanced_shares(costs, 3);
  for (auto& share : shares)
    for (std::size_t& k : share) k = taken[k];
  BOOST_TEST_REQUIRE(batches_by_device.size() == 3u);
  for (int d = 0; d < 3; ++d) {
    BOOST_TEST(batches_by_device[d].size() == 1u);
    BOOST_TEST(batches_by_device[d][0] == std::to_string(shares[static_cast<std::size_t>(d)].size()));
    for (std::size_t i : shares[static_cast<std::size_t>(d)]) BOOST_TEST(device_of.at(i) == "cuda:" + std::to_string(d));
  }
  for (const auto& [i, price] : one) BOOST_TEST(three.at(i) == price);
}

// ELSBENCH_BOOK_CHUNK=N sends a batched book through chunks of N notes (a device check's small
// book through the pipeline), with the same prices; a value that is not a count is refused.
BOOST_AUTO_TEST_CASE(elsbench_book_chunk_sets_a_batched_books_chunks) {
  const SolverInfo& gpu = SolverRegistry::instance().get("test-recording-gpu");
  const Book book = generated(5, 2, 9);
  std::vector<const Product*> notes;
  for (const BookNote& n : book.notes) notes.push_back(&n.product);
  SolverOptions o = adi_options(1);
  o.device = parse_device("cuda:0");
  const BookPlacement placement = place_book(gpu, notes.size(), o.device, 0, {0});
  const auto prices = [&] {
    batches_by_device.clear();
    std::map<std::size_t, double> out;
    price_book(gpu, notes, o, placement, [&](std::size_t index, const CaseOutcome& n) {
      BOOST_TEST_REQUIRE(n.priced());
      out[index] = n.result->price;
    });
    return out;
  };
  const auto whole = prices();
  BOOST_TEST(batches_by_device[0] == (std::vector<std::string>{"5"}), boost::test_tools::per_element());
  setenv("ELSBENCH_BOOK_CHUNK", "2", 1);
  const auto chunked = prices();
  BOOST_TEST(batches_by_device[0] == (std::vector<std::string>{"2", "2", "1"}), boost::test_tools::per_element());
  BOOST_TEST((chunked == whole));
  setenv("ELSBENCH_BOOK_CHUNK", "0", 1);
  BOOST_CHECK_THROW(prices(), InputError);
  unsetenv("ELSBENCH_BOOK_CHUNK");
}

BOOST_AUTO_TEST_CASE(a_line_that_is_not_utf8_is_a_bad_line_and_the_file_stays_whole) {
  const fs::path dir = temp_dir("utf8");
  const std::vector<Product> notes = generate_book({2, 1, 1});
  const Book book = parse_book("desk.jsonl", product_to_json(notes[0]).dump() + "\n\xff\n" +
                                                 product_to_json(notes[1]).dump() + "\n");
  const BookRunSummary s = run_book(book, run_spec(dir / "r.json", 1));
  BOOST_TEST(s.priced == 2u);
  BOOST_TEST(s.bad_lines == 1u);
  const json file = read_book_results((dir / "r.json").string());
  BOOST_TEST(file["context"]["elsbench"]["book"]["bad_lines"][0]["line"] == 2);
  BOOST_TEST(book_notes(file).size() == 2u);
  BOOST_TEST(fs::exists(dir / "r.csv"));
  fs::remove_all(dir);
}

BOOST_AUTO_TEST_CASE(an_attempts_log_behind_a_link_is_refused_and_its_target_untouched) {
  const fs::path dir = temp_dir("link");
  write_file_atomically((dir / "victim.txt").string(), "KEEP\n");
  fs::create_symlink(dir / "victim.txt", dir / "r.json.attempts");
  BOOST_CHECK_THROW(run_book(generated(2, 1, 3), run_spec(dir / "r.json", 1)), InputError);
  std::ifstream victim(dir / "victim.txt");
  std::string text;
  std::getline(victim, text);
  BOOST_TEST(text == "KEEP");
  BOOST_TEST(!fs::exists(dir / "r.json"));
  fs::remove_all(dir);
}
