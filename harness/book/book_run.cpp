#include "harness/book/book_run.hpp"

#include <chrono>
#include <fstream>
#include <iomanip>
#include <map>
#include <stdexcept>

#include "harness/placement/book_price.hpp"
#include "harness/runner/note_attempts.hpp"
#include "harness/placement/note_cost.hpp"
#include "harness/machine/machine.hpp"
#include "harness/results/results_csv.hpp"
#include "harness/runner/progress.hpp"
#include "harness/runner/signals.hpp"
#include "platform/cuda_devices.hpp"
#include "platform/file_io.hpp"
#include "platform/input_error.hpp"
#include "platform/memory_tracker.hpp"
#include "products/product.hpp"
#include "solvers/contract/solver.hpp"
#include "solvers/problem/grid_codec.hpp"

namespace elsbench {
namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

constexpr const char* kSchema = "elsbench-book";

// Every setting that changes a note's price: a --resume under another one is refused, naming it.
json run_settings(const Book& book, const BookRunSpec& spec, const SolverInfo& solver) {
  json settings = to_json(spec.options.grid);
  settings["book"] = book.source;
  settings["solver"] = solver.name;
  settings["scheme"] = spec.options.scheme.empty() ? solver.default_scheme() : spec.options.scheme;
  settings["precision"] = to_string(spec.options.precision);
  return settings;
}

// The setting of `now` that `then` lacks or holds with another value (the solver's first, whose
// change changes the scheme too), or one of `then`'s that `now` lacks; empty when they agree.
std::string changed_setting(const json& then, const json& now) {
  for (const char* key : {"solver", "scheme"})
    if (then.value(key, json()) != now.value(key, json())) return key;
  for (const auto& [key, value] : now.items())
    if (!then.contains(key) || then[key] != value) return key;
  for (const auto& [key, value] : then.items())
    if (!now.contains(key)) return key;
  return {};
}

json note_entry(const BookNote& note, const NoteOutcome& out) {
  json e = {{"id", note.product.id}, {"line", note.line}, {"status", out.status}};
  if (!out.result) {
    e["error"] = out.error;
    return e;
  }
  const PriceResult& r = *out.result;
  e["price"] = r.price;
  e["delta"] = r.delta;
  e["gamma"] = r.gamma;
  e["seconds"] = r.seconds;
  e["assets"] = note.product.dimension();
  e["grid_points"] = r.grid_points();
  e["time_steps"] = r.time_steps;
  e["scheme"] = r.scheme;
  e["device"] = r.device;
  e["threads"] = r.threads;
  e["peak_device_bytes"] = r.peak_device_bytes;
  return e;
}

json died_entry(const BookNote& note, int deaths, const std::string& log) {
  return {{"id", note.product.id},
          {"line", note.line},
          {"status", "failed"},
          {"error", "the book process died " + std::to_string(deaths) +
                        " times while pricing this note (a crash, or a kill such as the out-of-memory killer's); "
                        "not priced again (delete " + log + " to retry it)"}};
}

json bad_lines(const Book& book) {
  json list = json::array();
  for (const BadLine& b : book.bad) list.push_back({{"line", b.line}, {"field", b.field}, {"message", b.message}});
  return list;
}

// The notes of a previous run of the same settings that priced, by id.
std::map<std::string, json> kept_notes(const BookRunSpec& spec, const json& settings, json& commands) {
  std::map<std::string, json> kept;
  if (!spec.resume) return kept;
  std::ifstream probe(spec.out);
  if (!probe) return kept;  // nothing to resume: a fresh run
  const json old = read_book_results(spec.out);
  const json& then = old["context"]["elsbench"]["settings"];
  if (const std::string key = changed_setting(then, settings); !key.empty())
    throw InputError(spec.out, "context.elsbench.settings." + key,
                     "--resume with another " + key + " (the file's: " + then.value(key, json()).dump() +
                         ", now: " + settings[key].dump() + "); price into another --out");
  commands = old["context"]["elsbench"].value("commands", json::array());
  for (const json& e : old["notes"])
    if (e.value("status", "") == "ok") kept[e["id"].get<std::string>()] = e;
  return kept;
}

class BookProgress {
 public:
  BookProgress(std::ostream* out, std::size_t total) : out_(out), total_(total) {}
  void note_done(const std::string& id, const std::string& status) {
    ++done_;
    if (!out_) return;
    const double elapsed = std::chrono::duration<double>(Clock::now() - start_).count();
    const double rate = elapsed > 0 ? static_cast<double>(done_) / elapsed : 0;
    *out_ << "[book " << done_ << "/" << total_ << "] " << id << " " << status << ", " << std::fixed
          << std::setprecision(2) << rate << " notes/s, "
          << format_duration(rate > 0 ? static_cast<double>(total_ - done_) / rate : 0) << " left\n"
          << std::defaultfloat << std::flush;
  }

 private:
  std::ostream* out_;
  std::size_t total_, done_ = 0;
  Clock::time_point start_ = Clock::now();
};

// This rank's cost-balanced share of the notes (points x steps), in book order.
std::vector<const BookNote*> rank_share(const std::vector<const BookNote*>& todo, const BookRunSpec& spec) {
  std::vector<double> costs;
  for (const BookNote* n : todo) costs.push_back(note_cost(n->product, spec.options.grid));
  const auto shares = cost_balanced_shares(costs, spec.ranks->size());
  std::vector<const BookNote*> mine;
  for (std::size_t i : shares[static_cast<std::size_t>(spec.ranks->rank())]) mine.push_back(todo[i]);
  return mine;
}

// Every rank's notes (each marked with its rank when it failed) and counts, on rank 0. False on
// the other ranks, whose part is then done.
bool gather_on_root(const Ranks& ranks, std::map<std::string, json>& entries, BookRunSummary& summary,
                    std::size_t& peak_device) {
  json mine = {{"notes", json::array()}, {"priced", summary.priced}, {"failed", summary.failed},
               {"peak_device_bytes", peak_device}, {"rss", memory::process_peak_rss_bytes()}};
  for (auto& [id, e] : entries) {
    if (e.value("status", "") != "ok") e["rank"] = ranks.rank();
    mine["notes"].push_back(e);
  }
  const std::vector<std::string> parts = ranks.gather(mine.dump());
  if (ranks.rank() != 0) return false;
  summary.priced = summary.failed = 0;
  for (const std::string& part : parts) {
    const json p = json::parse(part);
    for (const json& e : p["notes"]) entries[e["id"].get<std::string>()] = e;
    summary.priced += p["priced"].get<std::size_t>();
    summary.failed += p["failed"].get<std::size_t>();
    peak_device = std::max(peak_device, p["peak_device_bytes"].get<std::size_t>());
  }
  return true;
}

// Every priced note without a verdict (those kept by --resume keep theirs) judged against its
// reference, one at a time (a reference computed on demand uses every core); the file is rewritten
// as verdicts come, so that a killed run keeps them.
void judge_notes(const Book& book, const BookRunSpec& spec, const SolverInfo& solver, const BookReferences& refs,
                 std::map<std::string, json>& entries, const std::function<void()>& save) {
  std::size_t todo = 0;
  for (const BookNote& n : book.notes)
    if (auto it = entries.find(n.product.id); it != entries.end() && it->second.value("status", "") == "ok" &&
                                              !it->second.contains("validation"))
      ++todo;
  std::size_t done = 0;
  auto last_write = Clock::now();
  for (const BookNote& n : book.notes) {
    const auto it = entries.find(n.product.id);
    if (it == entries.end() || it->second.value("status", "") != "ok" || it->second.contains("validation")) continue;
    judge_note(it->second, n.product, solver, spec.options, refs);
    ++done;
    if (spec.progress)
      *spec.progress << "[reference " << done << "/" << todo << "] " << n.product.id << " "
                     << it->second["validation"].get<std::string>() << '\n' << std::flush;
    if (std::chrono::duration<double>(Clock::now() - last_write).count() >= spec.write_interval_s) {
      save();
      last_write = Clock::now();
    }
  }
}

void write_results(const std::string& path, const json& file) {
  if (path.empty()) return;
  const FileWriteSection section;
  write_file_atomically(path, file.dump(1) + "\n");
  write_file_atomically(path.substr(0, path.size() - (path.ends_with(".json") ? 5 : 0)) + ".csv", book_csv(file));
}

}  // namespace

std::string book_csv(const json& results) {
  std::string out =
      "id,line,status,price,delta_1,delta_2,delta_3,gamma_1,gamma_2,gamma_3,seconds,device,error,"
      "reference,reference_stderr,price_error,allowance,validation\n";
  for (const json& e : results.at("notes")) {
    for (const char* key : {"id", "line", "status", "price"}) out += csv_cell(e.value(key, json())) + ",";
    for (const char* key : {"delta", "gamma"})
      for (std::size_t k = 0; k < 3; ++k) out += (e.contains(key) && k < e[key].size() ? csv_cell(e[key][k]) : "") + ",";
    out += csv_cell(e.value("seconds", json())) + "," + csv_cell(e.value("device", json())) + "," +
           csv_cell(e.value("error", json()));
    for (const char* key : {"reference", "reference_stderr", "price_error", "allowance", "validation"})
      out += "," + csv_cell(e.value(key, json()));
    out += "\n";
  }
  return out;
}

json read_book_results(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot open");
  json j;
  try {
    j = json::parse(in);
  } catch (const json::parse_error& e) {
    throw std::runtime_error(path + ": not valid JSON: " + e.what());
  }
  if (!j.is_object() || j.value("schema", "") != kSchema || !j.contains("notes") || !j["notes"].is_array())
    throw std::runtime_error(path + ": not a book results file (schema '" + std::string(kSchema) + "')");
  return j;
}

BookRunSummary run_book(const Book& book, const BookRunSpec& spec) {
  const SolverInfo& solver = SolverRegistry::instance().get(spec.solver);
  const json settings = run_settings(book, spec, solver);
  const bool ranked = spec.ranks && spec.ranks->size() > 1;
  json commands = json::array();
  std::map<std::string, json> entries;
  if (!ranked || spec.ranks->rank() == 0) entries = kept_notes(spec, settings, commands);
  if (ranked) entries = json::parse(spec.ranks->broadcast(json(entries).dump())).get<std::map<std::string, json>>();
  commands.push_back(spec.command);

  BookRunSummary summary;
  summary.notes = book.notes.size();
  summary.bad_lines = book.bad.size();
  summary.resumed = entries.size();
  NoteAttempts attempts(ranked ? std::string() : spec.out, spec.resume);
  std::map<std::string, int> fatal;  // notes recorded as failed for the deaths they caused
  std::vector<const BookNote*> todo, suspects;
  for (const BookNote& n : book.notes) {
    if (entries.count(n.product.id)) continue;
    const auto died = attempts.deaths().find(n.product.id);
    if (died == attempts.deaths().end()) {
      todo.push_back(&n);
    } else if (died->second < spec.note_deaths) {
      suspects.push_back(&n);
    } else {
      fatal[n.product.id] = died->second;
      entries[n.product.id] = died_entry(n, died->second, attempts.path());
      ++summary.failed;
    }
  }
  if (ranked) todo = rank_share(todo, spec);

  std::vector<int> gpus;
  if (spec.all_gpus) {
    std::string why;
    for (const GpuInfo& g : cuda_devices(&why)) gpus.push_back(g.index);
    if (gpus.empty()) throw std::invalid_argument("--device cuda:all: no CUDA device (" + why + ")");
  }
  const BookPlacement placement = place_book(solver, todo.size(), spec.options.device, spec.threads, gpus);

  json file = {{"schema", kSchema},
               {"version", 1},
               {"context", {{"machine", to_json(describe_machine(spec.instance))},
                            {"elsbench", {{"settings", settings}, {"commands", commands},
                                          {"workers", placement.workers.size()}, {"batched", placement.batched},
                                          {"ranks", spec.ranks ? spec.ranks->size() : 1},
                                          {"date", utc_timestamp()}}}}},
               {"bad_lines", bad_lines(book)}};
  auto compose = [&] {
    json notes = json::array();
    for (const BookNote& n : book.notes)
      if (auto it = entries.find(n.product.id); it != entries.end()) notes.push_back(it->second);
    file["notes"] = std::move(notes);
  };

  std::optional<SweepSignalGuard> guard;
  if (spec.handle_signals)
    guard.emplace("elsbench: book stopped; the results file holds the notes priced so far (--resume continues)");
  BookProgress progress(spec.progress, suspects.size() + todo.size());
  std::size_t peak_device = 0;
  const auto start = Clock::now();
  auto last_write = start;
  const auto price_group = [&](const std::vector<const BookNote*>& group, const BookPlacement& where) {
    std::vector<const Product*> products;
    for (const BookNote* n : group) products.push_back(&n->product);
    price_book(solver, products, spec.options, where, [&](NoteOutcome out) {
      const BookNote& note = *group[out.index];
      attempts.ended(note.product.id);
      if (out.result) peak_device = std::max(peak_device, out.result->peak_device_bytes);
      (out.status == "ok" ? summary.priced : summary.failed) += 1;
      progress.note_done(note.product.id, out.status == "ok" ? "ok" : "failed: " + out.error);
      entries[note.product.id] = note_entry(note, out);
      if (!ranked && std::chrono::duration<double>(Clock::now() - last_write).count() >= spec.write_interval_s) {
        compose();
        write_results(spec.out, file);
        last_write = Clock::now();
      }
      if (spec.after_note) spec.after_note(summary.priced + summary.failed);
    }, [&](std::size_t index) { attempts.started(group[index]->product.id); });
  };
  // One suspect at a time, each on the whole placement's threads (a GPU: note by note), so that a
  // second death is surely its own.
  for (const BookNote* suspect : suspects)
    price_group({suspect}, place_book(solver, 1, spec.options.device, spec.threads, {}));
  price_group(todo, placement);
  if (ranked && !gather_on_root(*spec.ranks, entries, summary, peak_device)) return summary;
  summary.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  const std::size_t ran = summary.priced + summary.failed;
  summary.notes_per_second = summary.seconds > 0 ? static_cast<double>(summary.priced) / summary.seconds : 0;
  if (spec.references) judge_notes(book, spec, solver, *spec.references, entries, [&] {
      compose();
      write_results(spec.out, file);
    });
  compose();
  if (spec.references) {
    const json validation = validation_summary(file["notes"], *spec.references);
    summary.validation_failed = validation["fail"].get<std::size_t>();
    file["context"]["elsbench"]["references"] = {{"mode", spec.references->policy.mode_name()},
                                                 {"target_fraction", spec.references->policy.target_fraction},
                                                 {"budget_seconds", spec.references->policy.budget_seconds},
                                                 {"k", spec.references->k},
                                                 {"tolerance", to_json(spec.references->tolerance)}};
    file["validation"] = validation;
  }
  file["summary"] = {{"notes", summary.notes},          {"priced_this_run", summary.priced},
                     {"failed", summary.failed},        {"bad_lines", summary.bad_lines},
                     {"resumed", summary.resumed},      {"ran", ran},
                     {"wall_seconds", summary.seconds}, {"notes_per_second", summary.notes_per_second},
                     {"process_peak_rss_bytes", memory::process_peak_rss_bytes()},
                     {"peak_device_bytes", peak_device}};
  write_results(spec.out, file);
  attempts.settle(fatal);
  summary.file = file;
  return summary;
}

}  // namespace elsbench
