#include "harness/book/book_run.hpp"

#include <chrono>
#include <filesystem>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>

#include "harness/machine/machine.hpp"
#include "harness/placement/book_price.hpp"
#include "harness/placement/note_cost.hpp"
#include "harness/results/case_record.hpp"
#include "harness/results/results_file.hpp"
#include "harness/run/case.hpp"
#include "harness/run/case_run.hpp"
#include "harness/runner/case_loop.hpp"
#include "harness/runner/run_file.hpp"
#include "platform/cuda_devices.hpp"
#include "platform/file_io.hpp"
#include "platform/input_error.hpp"
#include "platform/json_text.hpp"
#include "platform/memory_tracker.hpp"
#include "platform/solver_error.hpp"
#include "platform/stop_request.hpp"
#include "products/product.hpp"
#include "solvers/contract/price.hpp"
#include "solvers/contract/risk_greeks.hpp"
#include "solvers/contract/solver.hpp"
#include "solvers/problem/grid_codec.hpp"

namespace elsbench {
namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

// Every setting that changes a note's price: a --resume under another one is refused, naming it.
json run_settings(const Book& book, const BookRunSpec& spec, const SolverInfo& solver) {
  json settings = to_json(spec.options.grid);
  if (spec.default_grid) {  // each note's grid is its own (accuracy.n): no n or nt of the book's
    settings.erase("n");
    settings.erase("nt");
    settings["accuracy"] = "default";
  }
  settings["book"] = as_written(book.source);  // compared with the file's on --resume
  settings["solver"] = solver.name;
  settings["scheme"] = spec.options.scheme.empty() ? solver.default_scheme() : spec.options.scheme;
  settings["precision"] = to_string(spec.options.precision);
  if (spec.target) settings["target_error"] = spec.target->text;  // absent otherwise: older files resume
  if (spec.greeks) settings["greeks"] = to_string(spec.greek_units);  // a resume keeps notes with the Greeks it asks for
  return settings;
}

// A note as a case of the results schema: the book's solver, scheme, grid and precision on the
// device it ran on.
SweepCase note_case(const BookNote& note, const BookRunSpec& spec, const json& settings, const Device& device) {
  SweepCase c;
  c.product = note.product.id;
  c.solver = settings["solver"].get<std::string>();
  c.scheme = settings["scheme"].get<std::string>();
  // With a target or the default grid each note's own grid is in its result (accuracy.n).
  c.n = spec.default_grid ? default_nodes(note.product) : spec.options.grid.n;
  c.axis_nodes = spec.options.grid.axis_nodes;
  if (spec.options.grid.nt) c.nt = {NtRule::Kind::Fixed, static_cast<double>(*spec.options.grid.nt)};
  c.device = device;
  c.precision = spec.options.precision;
  return c;
}

// The entries of one note (a repetition and its median when priced, a skip otherwise).
// What a desk reads first about a note: its identifiers, size and underlyings, and its price as a
// percentage of its notional (the book CSV's first columns, harness/results/results_csv.cpp).
json desk_fields(const Product& p, std::optional<double> price) {
  std::string underlyings;
  for (const Underlying& a : p.assets) underlyings += (underlyings.empty() ? "" : "/") + a.name;
  return {{"isin", p.isin.empty() ? json() : json(p.isin)},
          {"tags", p.tags.empty() ? json() : json(p.tags)},
          {"notional", p.notional},
          {"underlyings", underlyings},
          {"price_pct_notional", price ? json(*price / p.notional * 100.0) : json()}};
}

json note_entries(const BookNote& note, const BookRunSpec& spec, const json& settings, CaseOutcome o,
                  const Device& placed) {
  Device device = placed;
  if (o.result) {
    o.process_peak_rss_bytes = memory::process_peak_rss_bytes();
    device = parse_device(o.result->device);
    device.threads = o.result->threads;
  }
  const SweepCase c = note_case(note, spec, settings, device);
  if (o.result) o.timings = single_pricing_timings(c.note_id(), o.result->seconds);
  json entries = case_entries(c, note.product, o);
  json book_fields = desk_fields(note.product, o.result ? std::optional<double>(o.result->price) : std::nullopt);
  book_fields["case_id"] = c.note_id();
  book_fields["line"] = note.line;
  for (auto& e : entries) {
    e.update(book_fields);
    if (spec.references && o.result) e["judged"] = false;
  }
  return entries;
}

json died_entries(const BookNote& note, const BookRunSpec& spec, const json& settings, const std::string& reason) {
  CaseOutcome out;
  out.skip_reason = reason;
  return note_entries(note, spec, settings, out, spec.options.device);
}

json bad_lines(const Book& book) {
  json list = json::array();
  for (const BadLine& b : book.bad) list.push_back({{"line", b.line}, {"field", b.field}, {"message", b.message}});
  return list;
}

const char* const kBookPreset = "book";

// The results file of a book run, refused naming the field when it is another run's.
ResultsFile book_results_file(const std::string& path) {
  const ResultsFile f = read_results_file(path);
  const json& els = f.elsbench();
  if (els.value("preset", "") != kBookPreset || !els.contains("book") || !els["book"].is_object() ||
      !els["book"].contains("settings") || !els["book"]["settings"].is_object())
    throw InputError(path, "context.elsbench.book", "missing: not the results file of a book run");
  return f;
}

// Whether a note has a price (a skipped or unconverged one has none, and is priced again on --resume).
bool priced(const json& entries) { return !entries.at(0).value("price", json()).is_null(); }

// The book part of a previous run of the same settings: its notes that priced (by id), its first
// command and its resumes; refused, naming the setting, when a price-changing setting differs.
struct Kept {
  std::map<std::string, json> notes;
  json elsbench;
};

Kept kept_notes(const BookRunSpec& spec, const json& settings) {
  Kept kept;
  if (!spec.resume) return kept;
  std::error_code ec;
  if (!std::filesystem::exists(spec.out, ec)) return kept;  // nothing to resume: a fresh run
  const ResultsFile file = book_results_file(spec.out);
  check_resumable(file, spec.out);
  // The solver's first: its change changes the scheme too.
  refuse_other_settings(spec.out, "context.elsbench.book.settings", file.elsbench()["book"]["settings"], settings,
                        "price into another --out", {"solver", "scheme"});
  kept.elsbench = file.elsbench();
  for (const json& e : file.benchmarks) {
    json& entries = kept.notes[e.at("product").get<std::string>()];
    if (entries.is_null()) entries = json::array();
    entries.push_back(e);
  }
  std::erase_if(kept.notes, [](const auto& n) { return !priced(n.second); });
  return kept;
}

// A kept price outside its note's no-arbitrage bounds is no price of this note (the file was
// written by another book with the same ids): refused rather than carried forward, by the rule
// price_with refused it by (the book's precision is the file's: its settings matched).
void check_kept_bounds(const Book& book, const std::map<std::string, json>& kept, const BookRunSpec& spec) {
  for (const BookNote& n : book.notes) {
    const auto it = kept.find(n.product.id);
    if (it == kept.end()) continue;
    for (const json& e : it->second) {
      const double p = e.at("price").get<double>();
      if (const auto bound = bound_crossed(n.product, p, spec.options.precision))
        throw InputError(spec.out, "benchmarks (product " + n.product.id + ").price",
                         std::to_string(p) + " lies beyond the bound " + std::to_string(bound->value) + " (" +
                             bound->formula + "): not a price of this note");
    }
  }
}

// This rank's cost-balanced share of the notes (points x steps).
std::set<std::string> rank_share(const std::vector<const BookNote*>& todo, const BookRunSpec& spec) {
  std::vector<double> costs;
  for (const BookNote* n : todo) costs.push_back(pricing_cost(n->product, spec.options.grid, note_pricing(spec)));
  const auto shares = cost_balanced_shares(costs, spec.ranks->size());
  std::set<std::string> mine;
  for (std::size_t i : shares[static_cast<std::size_t>(spec.ranks->rank())]) mine.insert(todo[i]->product.id);
  return mine;
}

// The book's notes as the loop's items: those kept by --resume, or another rank's, are done.
std::vector<LoopItem> loop_items(const Book& book, const BookRunSpec& spec, const std::map<std::string, json>& kept,
                                 bool ranked) {
  std::vector<const BookNote*> unpriced;
  for (const BookNote& n : book.notes)
    if (!kept.count(n.product.id)) unpriced.push_back(&n);
  const std::set<std::string> mine = ranked ? rank_share(unpriced, spec) : std::set<std::string>();
  std::vector<LoopItem> items;
  for (const BookNote& n : book.notes) {
    const bool done = kept.count(n.product.id) || (ranked && !mine.count(n.product.id));
    items.push_back({n.product.id, done ? 0.0 : pricing_cost(n.product, spec.options.grid, note_pricing(spec)), done});
  }
  return items;
}

// Every rank's notes (each marked with its rank when it failed) and counts, on rank 0. False on
// the other ranks, whose part is then done.
bool gather_on_root(const Ranks& ranks, std::map<std::string, json>& entries, BookRunSummary& summary,
                    std::size_t& peak_device) {
  json mine = {{"notes", json::object()}, {"priced", summary.priced}, {"failed", summary.failed},
               {"peak_device_bytes", peak_device}, {"rss", memory::process_peak_rss_bytes()}};
  for (auto& [id, e] : entries) {
    if (!priced(e))
      for (auto& entry : e) entry["rank"] = ranks.rank();
    mine["notes"][id] = e;
  }
  const std::vector<std::string> parts = ranks.gather(mine.dump());
  if (ranks.rank() != 0) return false;
  summary.priced = summary.failed = 0;
  for (const std::string& part : parts) {
    const json p = json::parse(part);
    for (const auto& [id, e] : p["notes"].items()) entries[id] = e;
    summary.priced += p["priced"].get<std::size_t>();
    summary.failed += p["failed"].get<std::size_t>();
    peak_device = std::max(peak_device, p["peak_device_bytes"].get<std::size_t>());
  }
  return true;
}

// Every priced note not yet judged (those kept by --resume keep their verdicts) judged against its
// reference, one at a time (a reference computed on demand uses every core); the file is saved as
// verdicts come, so that a killed run keeps them.
void judge_notes(const Book& book, const BookRunSpec& spec, const SolverInfo& solver, const BookReferences& refs,
                 std::map<std::string, json>& entries, const std::function<void()>& save) {
  const auto unjudged = [&](const BookNote& n) {
    const auto it = entries.find(n.product.id);
    return it != entries.end() && priced(it->second) && !it->second.at(0).value("judged", false) ? &it->second
                                                                                                  : nullptr;
  };
  std::size_t todo = 0;
  for (const BookNote& n : book.notes) todo += unjudged(n) != nullptr;
  std::size_t done = 0;
  auto last_write = Clock::now();
  for (const BookNote& n : book.notes) {
    json* note = unjudged(n);
    if (!note) continue;
    judge_note(*note, n.product, solver, spec.options, refs);
    ++done;
    if (spec.progress)
      *spec.progress << "[reference " << done << "/" << todo << "] " << n.product.id << " "
                     << note->at(0)["status"].get<std::string>() << '\n' << std::flush;
    if (std::chrono::duration<double>(Clock::now() - last_write).count() >= spec.write_interval_s) {
      save();
      last_write = Clock::now();
    }
  }
}

// The ladder of the priced notes (book_scenarios.hpp) into the book part, and its CSV beside the
// results file (r.json: r.scenarios.csv). Not timed: the book's notes per second are its own.
void price_scenarios(const Book& book, const BookRunSpec& spec, const SolverInfo& solver, const BookPlacement& placement,
                     const std::map<std::string, json>& entries, json& book_part) {
  std::vector<const Product*> notes;
  std::vector<double> base;
  for (const BookNote& n : book.notes)
    if (const auto it = entries.find(n.product.id); it != entries.end() && priced(it->second)) {
      notes.push_back(&n.product);
      base.push_back(it->second.at(0).at("price").get<double>());
    }
  NotePricing rungs = note_pricing(spec);
  rungs.greeks = false;
  if (rungs.grid == NoteGrid::DefaultWithBar) rungs.grid = NoteGrid::DefaultValue;  // the base's bar is the note's
  book_part["scenarios"] = price_ladder(solver, notes, base, spec.options, placement, spec.ladder, rungs);
  if (spec.out.empty()) return;
  // Beside the results file as its formats' files are: r.json -> r.scenarios.csv.
  write_file_atomically(std::filesystem::path(spec.out).replace_extension(".scenarios.csv").string(),
                        ladder_csv(book_part["scenarios"]));
}

ResultsFile fresh_file(const Book& book, const BookRunSpec& spec, const json& settings) {
  ResultsFile f = fresh_results(kBookPreset, spec.command, book.notes.size(), spec.instance);
  f.elsbench()["book"] = {{"settings", settings}, {"bad_lines", bad_lines(book)}};
  return f;
}

}  // namespace

json read_book_results(const std::string& path) {
  const ResultsFile f = book_results_file(path);
  return {{"context", f.context}, {"benchmarks", f.benchmarks}};
}

std::vector<json> book_notes(const json& results) {
  std::vector<json> notes;
  for (const json& e : results.at("benchmarks"))
    if (e.value("run_type", "") == "aggregate") notes.push_back(e);
  return notes;
}

NotePricing note_pricing(const BookRunSpec& spec) {
  return {spec.target ? &*spec.target : nullptr, spec.greeks, spec.greek_units,
          spec.default_grid ? NoteGrid::DefaultWithBar : NoteGrid::Given};
}

void choose_book_grid(BookRunSpec& spec, bool grid_given, const std::string& target_error, const std::string& source,
                      const AccuracyFields& names) {
  if (!target_error.empty()) spec.target = read_target(target_error, grid_given, false, source, names);
  spec.default_grid = !grid_given && !spec.target;
}

void set_book_device(BookRunSpec& spec, const std::string& device) {
  spec.all_gpus = device == "cuda:all";
  const int threads = spec.options.device.threads;
  spec.options.device = parse_device(spec.all_gpus ? "cuda:0" : device);
  if (spec.options.device.is_auto) spec.options.device = parse_device("cpu");
  spec.options.device.threads = threads;
}

BookRunSummary run_book(const Book& book, const BookRunSpec& spec) {
  const SolverInfo& solver = SolverRegistry::instance().get(spec.solver);
  const json settings = run_settings(book, spec, solver);
  const bool ranked = spec.ranks && spec.ranks->size() > 1;
  const bool root = !ranked || spec.ranks->rank() == 0;
  const RunFile out(root ? spec.out : std::string(), {book.source}, spec.formats);
  Kept kept;
  if (root) {
    kept = kept_notes(spec, settings);
    check_kept_bounds(book, kept.notes, spec);
  }
  std::map<std::string, json> entries = std::move(kept.notes);
  if (ranked) entries = json::parse(spec.ranks->broadcast(json(entries).dump())).get<std::map<std::string, json>>();

  BookRunSummary summary;
  summary.notes = book.notes.size();
  summary.bad_lines = book.bad.size();
  summary.resumed = entries.size();
  ResultsFile file = fresh_file(book, spec, settings);
  if (!kept.elsbench.is_null()) record_resume(file, kept.elsbench, spec.command, spec.instance);
  json& book_part = file.elsbench()["book"];
  const auto save = [&] {
    file.benchmarks = json::array();
    for (const BookNote& n : book.notes)
      if (auto it = entries.find(n.product.id); it != entries.end())
        for (const json& e : it->second) file.benchmarks.push_back(e);
    out.save(file);
  };

  // Under mpirun no attempts are logged and rank 0 writes the file once, at the end.
  LoopSettings loop_settings;
  loop_settings.what = "book";
  loop_settings.item = "note";
  loop_settings.results = ranked ? std::string() : spec.out;
  loop_settings.read_deaths = spec.resume;
  loop_settings.deaths_to_fail = spec.note_deaths;
  loop_settings.progress = spec.progress;
  if (spec.handle_signals) {
    loop_settings.stop_message = "elsbench: book stopped; the results file holds the notes priced so far (--resume continues)";
    loop_settings.graceful = true;
  }
  loop_settings.save_interval_s = ranked ? std::numeric_limits<double>::infinity() : spec.write_interval_s;
  if (spec.after_note) loop_settings.after_item = [&] { spec.after_note(summary.priced + summary.failed); };
  CaseLoop loop(loop_items(book, spec, entries, ranked), loop_settings, save);
  std::map<std::string, int> fatal;  // notes recorded as failed for the deaths they caused
  for (std::size_t i : loop.dead()) {
    const BookNote& n = book.notes[i];
    fatal[n.product.id] = loop.deaths(i);
    entries[n.product.id] =
        died_entries(n, spec, settings, loop.death_reason(i, "delete " + loop.attempts_path() + " to retry it"));
    ++summary.failed;
  }

  std::vector<int> gpus;
  if (spec.all_gpus) {
    std::string why;
    for (const GpuInfo& g : cuda_devices(&why)) gpus.push_back(g.index);
    if (gpus.empty()) throw std::invalid_argument("--device cuda:all: no CUDA device (" + why + ")");
  }
  const BookPlacement placement = place_book(solver, loop.todo().size(), spec.options.device, spec.threads, gpus);
  book_part["workers"] = placement.workers.size();
  book_part["batched"] = placement.batched;
  book_part["ranks"] = spec.ranks ? spec.ranks->size() : 1;

  std::size_t peak_device = 0;
  std::optional<BatchTimes> batch_times;  // summed over the batches of a batched (GPU) book
  const auto start = Clock::now();
  const auto price_group = [&](const std::vector<std::size_t>& group, const BookPlacement& where) {
    std::vector<const Product*> products;
    for (std::size_t i : group) products.push_back(&book.notes[i].product);
    price_book(solver, products, spec.options, where, [&](std::size_t index, CaseOutcome note_out) {
      const std::size_t i = group[index];
      const BookNote& note = book.notes[i];
      // Stopped mid-march: not priced, and not failed either. A note that ended priced is kept.
      if (stop_requested() && !note_out.priced()) return loop.finished(i, "stopped");
      if (note_out.result) peak_device = std::max(peak_device, note_out.result->peak_device_bytes);
      if (note_out.result && note_out.result->batch_times) {
        if (!batch_times) batch_times.emplace();
        *batch_times += *note_out.result->batch_times;
      }
      (note_out.priced() ? summary.priced : summary.failed) += 1;
      const std::string line = note_out.priced() ? "ok" : "failed: " + note_out.skip_reason;
      entries[note.product.id] = note_entries(note, spec, settings, std::move(note_out), where.workers.front());
      loop.finished(i, line);
    }, [&](std::size_t index) {
      loop.started(group[index]);
      if (spec.note_started) spec.note_started(book.notes[group[index]].product.id);
    }, note_pricing(spec));
  };
  // One suspect at a time, each on the whole placement's threads (a GPU: note by note), so that a
  // second death is surely its own.
  for (std::size_t suspect : loop.suspects())
    price_group({suspect}, place_book(solver, 1, spec.options.device, spec.threads, {}));
  price_group(loop.todo(), placement);
  loop.stop_if_requested();
  if (ranked && !gather_on_root(*spec.ranks, entries, summary, peak_device)) return summary;
  summary.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  const std::size_t ran = summary.priced + summary.failed;
  summary.notes_per_second = summary.seconds > 0 ? static_cast<double>(summary.priced) / summary.seconds : 0;
  if (spec.references) {
    json& recorded = file.elsbench()["references"] = to_json(spec.references->policy);
    recorded["k"] = spec.references->k;
    recorded["tolerance"] = to_json(spec.references->tolerance);
    judge_notes(book, spec, solver, *spec.references, entries, save);
  }
  if (!spec.ladder.empty()) price_scenarios(book, spec, solver, placement, entries, book_part);
  save();
  if (spec.references) {
    const json validation = validation_summary(file.benchmarks, *spec.references);
    summary.validation_failed = validation["fail"].get<std::size_t>();
    book_part["validation"] = validation;
  }
  book_part["summary"] = {{"notes", summary.notes},          {"priced_this_run", summary.priced},
                          {"failed", summary.failed},        {"bad_lines", summary.bad_lines},
                          {"resumed", summary.resumed},      {"ran", ran},
                          {"wall_seconds", summary.seconds}, {"notes_per_second", summary.notes_per_second},
                          {"process_peak_rss_bytes", memory::process_peak_rss_bytes()},
                          {"peak_device_bytes", peak_device}};
  if (batch_times) {
    json& s = book_part["summary"];
    s["setup_seconds"] = batch_times->setup;
    s["upload_seconds"] = batch_times->upload;
    s["march_seconds"] = batch_times->march;
    s["download_seconds"] = batch_times->download;
  }
  mark_complete(file);
  save();
  loop.close(fatal);
  summary.file = {{"context", file.context}, {"benchmarks", file.benchmarks}};
  return summary;
}

}  // namespace elsbench
