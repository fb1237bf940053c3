// elsbench._core: the Python package's extension module, over the same layers as the CLI (no
// second implementation): notes through the product loader, prices through run_price, books
// through run_book, sweeps through run_sweep, validations through run_validation, results through
// the one results reader and CSV writer. What crosses into Python is the JSON the CLI prints
// (parsed there), and NumPy views of a pricing's grid.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/map.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <new>

#include "harness/book/book_plan.hpp"
#include "harness/book/book_run.hpp"
#include "harness/machine/machine.hpp"
#include "harness/references/reference_provenance.hpp"
#include "harness/results/price_json.hpp"
#include "harness/results/reporter.hpp"
#include "harness/results/results_csv.hpp"
#include "harness/results/results_file.hpp"
#include "harness/run/price_run.hpp"
#include "harness/sweep/axis.hpp"
#include "harness/sweep/overrides.hpp"
#include "harness/sweep/plan.hpp"
#include "harness/sweep/preset.hpp"
#include "harness/sweep/sweep.hpp"
#include "harness/sweep/validation_run.hpp"
#include "platform/cuda_devices.hpp"
#include "platform/device.hpp"
#include "solvers/contract/error_target.hpp"
#include "platform/input_error.hpp"
#include "platform/solver_error.hpp"
#include "platform/stop_request.hpp"
#include "products/book_file.hpp"
#include "products/book_generator.hpp"
#include "products/catalog.hpp"
#include "products/product_json.hpp"
#include "python/src/watched_call.hpp"
#include "reference/monte_carlo_on.hpp"
#include "solvers/contract/risk_greeks.hpp"
#include "solvers/contract/solver.hpp"
#include "solvers/problem/grid_codec.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace elsbench::python {
namespace {

using nlohmann::json;

// Where a bad keyword argument is named: "elsbench.price: field 'n': ...".
std::string source_of(const std::string& function) { return "elsbench." + function; }

// The CLI's bounds (harness/cli/flag_limits.hpp): 100,000 threads killed the interpreter.
int checked_threads(const std::string& function, int threads) {
  if (threads < 0 || threads > kMaxCpuThreads)
    throw InputError(source_of(function), "threads",
                     "must be in [0, " + std::to_string(kMaxCpuThreads) + "] (0 or None: every core), got " +
                         std::to_string(threads));
  return threads;
}

// The options of a pricing, from the keyword arguments as the CLI's flags give them: the grid's
// keys through the grid codec (its checks and messages), the device and precision through their
// one parser each.
SolverOptions solver_options(const std::string& function, const std::string& grid, const std::string& scheme,
                             const std::string& device, const std::string& precision, int threads, double max_seconds) {
  const std::string source = source_of(function);
  SolverOptions o;
  o.scheme = scheme;
  o.grid = grid_from_json(json::parse(grid), source, "", GridKeys::All);
  const auto named = [&](const char* field, auto parse) {
    try {
      return parse();
    } catch (const std::invalid_argument& e) {
      throw InputError(source, field, e.what());
    }
  };
  o.device = named("device", [&] { return parse_device(device); });
  o.precision = named("precision", [&] { return parse_precision(precision); });
  o.device.threads = checked_threads(function, threads);
  if (!(max_seconds >= 0 && max_seconds <= 1e9)) throw InputError(source, "max_seconds", "must be in [0, 1e9]");
  o.max_seconds = max_seconds;
  return o;
}

// `reference` is the mode ("stored" | "auto"), or the JSON of the package's reference keywords
// (pricing.py, reference_spec): mode, reference_store, reference_target (% of notional),
// reference_budget (seconds), reference_device, as the CLI's --reference flags.
ReferencePolicy reference_policy(const std::string& function, const std::string& reference) {
  const nlohmann::json spec = reference.starts_with("{") ? nlohmann::json::parse(reference)
                                                         : nlohmann::json{{"mode", reference}};
  ReferencePolicy p;
  try {
    p.mode = parse_reference_mode(spec.at("mode").get<std::string>());
  } catch (const std::invalid_argument& e) {
    throw InputError(source_of(function), "reference", e.what());
  }
  p.store = spec.value("reference_store", "");
  if (spec.contains("reference_target")) {
    const double percent = spec["reference_target"].get<double>();
    if (!(percent > 0)) throw InputError(source_of(function), "reference_target", "must be > 0 (% of notional)");
    p.target_fraction = percent / 100.0;
  }
  if (spec.contains("reference_budget")) {
    p.budget_seconds = spec["reference_budget"].get<double>();
    if (!(p.budget_seconds > 0)) throw InputError(source_of(function), "reference_budget", "must be > 0 seconds");
  }
  p.device = spec.value("reference_device", "auto");
  try {
    parse_device(p.device);
  } catch (const std::invalid_argument& e) {
    throw InputError(source_of(function), "reference_device", e.what());
  }
  return p;
}

// The package's tol keyword, in the same JSON: the verdict's allowance (price --tol).
std::optional<ErrorTarget> reference_tol(const std::string& function, const std::optional<std::string>& reference) {
  if (!reference || !reference->starts_with("{")) return std::nullopt;
  const nlohmann::json spec = nlohmann::json::parse(*reference);
  if (!spec.contains("tol")) return std::nullopt;
  try {
    return parse_error_target(spec["tol"].get<std::string>());
  } catch (const std::invalid_argument& e) {
    throw InputError(source_of(function), "tol", e.what());
  }
}

// March steps done and planned, the unit of a pricing's progress; a total of 0 where it is not
// known before the pricing (a target's grid is chosen as it prices).
std::pair<std::uint64_t, std::uint64_t> steps_done() {
  const MarchProgress& p = march_progress();
  return {p.done.load(), p.total_known ? p.planned.load() : 0};
}

// The grid as NumPy views of one block that the arrays keep alive: values indexed
// [i0, i1, (i2,) layer] (axis 0 contiguous, as the solvers lay them out), nodes one array per axis.
nb::dict grid_arrays(PricedGrid&& g) {
  auto* owned = new PricedGrid(std::move(g));
  nb::capsule owner(owned, [](void* p) noexcept { delete static_cast<PricedGrid*>(p); });
  std::vector<std::size_t> shape;
  std::vector<std::int64_t> strides;
  std::int64_t stride = 1;
  for (const auto& axis : owned->nodes) {
    shape.push_back(axis.size());
    strides.push_back(stride);
    stride *= static_cast<std::int64_t>(axis.size());
  }
  shape.push_back(static_cast<std::size_t>(owned->layers));
  strides.push_back(stride);
  nb::dict out;
  out["values"] = nb::ndarray<nb::numpy, double>(owned->values.data(), shape.size(), shape.data(), owner,
                                                 strides.data());
  nb::list nodes;
  for (auto& axis : owned->nodes) {
    const std::size_t n = axis.size();
    nodes.append(nb::ndarray<nb::numpy, double>(axis.data(), 1, &n, owner));
  }
  out["nodes"] = nodes;
  return out;
}

GreekUnits greek_units_of(const char* call, const std::string& word) {
  try {
    return parse_greek_units(word);
  } catch (const std::invalid_argument& e) {
    throw InputError(source_of(call), "greek_units", e.what());
  }
}

nb::tuple price(const Product& product, const std::string& solver, const std::string& grid, const std::string& scheme,
                const std::string& device, const std::string& precision, int threads, double max_seconds,
                bool greeks, bool error_estimate, const std::optional<std::string>& reference, bool values,
                const nb::object& progress, bool grid_given, const std::string& target_error,
                const std::string& greek_units) {
  const SolverInfo& info = SolverRegistry::instance().get(solver);
  PriceRequest request;
  request.options = solver_options("price", grid, scheme, device, precision, threads, max_seconds);
  request.greeks = greeks;
  request.greek_units = greek_units_of("price", greek_units);
  request.error_estimate = error_estimate;
  choose_grid(request, product, grid_given, target_error, source_of("price"), {"target_error", "n and nt", "error_estimate"});
  if (reference) request.reference = reference_policy("price", *reference);
  request.tol = reference_tol("price", reference);
  PricedGrid g;
  if (values) request.grid = &g;
  const CaseOutcome run = watched_call(
      [&] {
        plan_progress(info, product, request);
        return run_price(info, product, request);
      },
      progress, steps_done);
  return nb::make_tuple(price_json(run, request.reference.has_value()).dump(),
                        values ? nb::object(grid_arrays(std::move(g))) : nb::none());
}

std::string reference(const Product& product, std::int64_t paths, std::uint64_t seed, const std::string& device,
                      int threads, bool antithetic) {
  if (seed > kMaxSeed)
    throw InputError(source_of("reference"), "seed",
                     "must be at most 2^53 - 1 (exact in a results file), got " + std::to_string(seed));
  McOptions o;
  o.paths = paths;
  o.seed = seed;
  o.threads = checked_threads("reference", threads);
  o.antithetic = antithetic;
  Device d;
  try {
    d = parse_device(device);
  } catch (const std::invalid_argument& e) {
    throw InputError(source_of("reference"), "device", e.what());
  }
  // Watched: a Ctrl-C stops the paths within a block of them (the CPU engine looks between blocks).
  const McResult r = watched_call([&] { return monte_carlo_on(product, o, d); }, nb::none(),
                                  [] { return std::pair<double, double>{0, 0}; });
  return mc_result_json(product, r).dump();
}

// What a book is priced with, as book.price and book.plan take it (`where` names the call in errors).
BookRunSpec book_spec(const char* where, const std::string& solver, const std::string& grid, const std::string& scheme,
                      const std::string& device, const std::string& precision, int threads, double max_seconds,
                      bool grid_given, const std::string& target_error) {
  BookRunSpec spec;
  spec.solver = solver;
  spec.options = solver_options(where, grid, scheme, "cpu", precision, threads, max_seconds);
  try {
    set_book_device(spec, device);
  } catch (const std::invalid_argument& e) {
    throw InputError(source_of(where), "device", e.what());
  }
  spec.threads = threads;
  choose_book_grid(spec, grid_given, target_error, source_of(where), {"target_error", "n and nt", ""});
  return spec;
}

// `book price --dry-run`'s plan of a book: its notes, work and estimated seconds, as JSON text.
std::string plan_book_text(const std::optional<std::string>& text, const std::string& source, const std::string& solver,
                           const std::string& grid, const std::string& scheme, const std::string& device,
                           const std::string& precision, int threads, bool grid_given,
                           const std::string& target_error) {
  const BookRunSpec spec =
      book_spec("book.plan", solver, grid, scheme, device, precision, threads, 0.0, grid_given, target_error);
  const Book book = text ? parse_book(source, *text) : load_book_file(source);
  const BookPlan plan = plan_book(book, spec);
  const auto or_null = [](const std::optional<double>& v) { return v ? json(*v) : json(); };
  return json{{"notes", plan.notes},
              {"bad_lines", plan.bad_lines},
              {"by_assets", {plan.by_assets[1], plan.by_assets[2], plan.by_assets[3]}},
              {"refused", plan.refused},
              {"work", plan.work},
              {"parallel", plan.parallel},
              {"low_seconds", or_null(plan.low_seconds)},
              {"expected_seconds", or_null(plan.expected_seconds)},
              {"high_seconds", or_null(plan.high_seconds)},
              {"text", describe(plan, spec)}}
      .dump();
}

// A book priced as `book price` prices it; returns the results file's JSON and its CSV view.
std::tuple<std::string, std::string, std::string> price_book(const std::optional<std::string>& text,
                                                             const std::string& source,
                                               bool strict,
                                               const std::string& solver, const std::string& grid,
                                               const std::string& scheme, const std::string& device,
                                               const std::string& precision, int threads,
                                               const std::optional<std::string>& reference, const std::string& out,
                                               const std::string& command, const nb::object& progress,
                                               bool grid_given, const std::string& target_error, bool greeks,
                                               const std::string& greek_units, const std::string& instance,
                                               const std::string& spot_shifts, const std::string& vol_shifts,
                                               double max_seconds, bool resume, const std::string& out_format) {
  BookRunSpec spec =
      book_spec("book.price", solver, grid, scheme, device, precision, threads, max_seconds, grid_given, target_error);
  spec.instance = instance;
  spec.ladder = {parse_shifts(spot_shifts, "spot_shifts"), parse_shifts(vol_shifts, "vol_shifts")};
  spec.greeks = greeks;
  spec.greek_units = greek_units_of("book.price", greek_units);
  spec.resume = resume;
  if (resume && out.empty()) throw InputError(source_of("book.price"), "resume", "needs out: the results file to resume");
  spec.out = out;
  if (!out_format.empty()) spec.formats = parse_out_formats(out_format, source_of("book.price"), "out_format");
  spec.command = command;
  if (reference) spec.references = BookReferences{reference_policy("book.price", *reference), {}, 3.0};
  if (const std::optional<ErrorTarget> tol = reference_tol("book.price", reference)) spec.references->tolerance.fixed = tol;
  const Book book = text ? parse_book(source, *text) : load_book_file(source);
  if (strict) require_clean(book);
  std::atomic<std::size_t> notes_done{0};
  spec.after_note = [&](std::size_t n) { notes_done = n; };
  const BookRunSummary s = watched_call([&] { return run_book(book, spec); }, progress, [&] {
    return std::pair<std::size_t, std::size_t>(notes_done.load(), book.notes.size());
  });
  ResultsFile file;
  file.context = s.file.at("context");
  file.benchmarks = s.file.at("benchmarks");
  const json& part = file.context["elsbench"]["book"];
  return {s.file.dump(), results_csv(file), part.contains("scenarios") ? ladder_csv(part["scenarios"]) : ""};
}

// A sweep of a preset with some axes replaced, as `sweep --preset P --AXIS V...` runs it, into `out`.
std::string sweep(const std::string& preset, const std::map<std::string, std::vector<std::string>>& axes,
                  int repetitions, const std::optional<double>& timing_target,
                  const std::optional<double>& timing_max_seconds, bool error_estimate,
                  const std::optional<std::string>& reference, const std::string& out, const std::string& command,
                  const nb::object& progress, const std::string& out_format) {
  SweepOverrides overrides;
  overrides.axes = axes_from_text(axes, source_of("sweep"), [](const SweepAxis& a) { return a.key; });
  if (repetitions) overrides.repetitions = repetitions;
  if (timing_target) check_timing("target", *timing_target, source_of("sweep"), "timing_target");
  if (timing_max_seconds) check_timing("max_seconds", *timing_max_seconds, source_of("sweep"), "timing_max_seconds");
  overrides.timing_target = timing_target;
  overrides.timing_max_seconds = timing_max_seconds;
  overrides.error_estimate = error_estimate;
  SweepSpec spec = load_preset(preset);
  SweepRun run;
  run.preset_label = overrides.empty() ? spec.preset : "custom";
  apply_overrides(spec, overrides);
  run.path = out;
  if (!out_format.empty()) run.formats = parse_out_formats(out_format, source_of("sweep"), "out_format");
  run.command = command;
  if (reference) run.references = reference_policy("sweep", *reference);
  const std::size_t cases = plan_sweep(spec).cases.size();
  std::atomic<std::size_t> cases_done{0};
  run.after_case = [&](std::size_t n) { cases_done = n; };
  const SweepSummary s = watched_call([&] { return run_sweep(spec, run); }, progress, [&] {
    return std::pair<std::size_t, std::size_t>(cases_done.load(), cases);
  });
  return json{{"cases", s.cases}, {"ran", s.ran}, {"pass", s.pass}, {"fail", s.fail},
              {"no_reference", s.no_reference}, {"unconverged", s.unconverged}, {"skipped", s.skipped},
              {"seconds", s.seconds}}
      .dump();
}

// A validation preset's cases judged against their references, as `validate --preset P` runs
// them, into `out`; `reference` and its tol as price's keywords give them (reference_policy).
std::string validate(const std::string& preset, const std::optional<std::string>& reference, bool error_estimate,
                     const std::string& target_error, int threads, const std::string& out, bool resume,
                     const std::string& command, const nb::object& progress, const std::string& out_format) {
  ValidationPlan plan = load_validation_plan(preset, checked_threads("validate", threads));
  if (reference) plan.references = reference_policy("validate", *reference);
  plan.references.threads = threads;
  plan.settings.error_estimate = error_estimate;
  plan.settings.tolerance.fixed = reference_tol("validate", reference);
  if (!target_error.empty())
    plan.settings.target = read_target(target_error, false, error_estimate, source_of("validate"),
                                       {"target_error", "", "error_estimate"});
  ValidationRun run;
  run.path = out;
  if (!out_format.empty()) run.formats = parse_out_formats(out_format, source_of("validate"), "out_format");
  run.command = command;
  run.resume = resume;
  run.target_error = target_error;
  std::atomic<std::size_t> cases_done{0};
  run.after_case = [&](std::size_t n) { cases_done = n; };
  const ValidationSummary s = watched_call([&] { return run_validation(plan, run); }, progress, [&] {
    return std::pair<std::size_t, std::size_t>(cases_done.load(), plan.cases.size());
  });
  return json{{"cases", s.cases}, {"ran", s.ran}, {"kept", s.kept}, {"passed", s.passed},
              {"all_passed", s.all_passed()}, {"table", s.table}}
      .dump();
}

std::string devices() {
  json out = json::array();
  const MachineInfo m = describe_machine();
  out.push_back({{"device", "cpu"}, {"name", m.cpu_model}, {"cores", m.cores}, {"memory_bytes", m.memory_bytes}});
  std::string why;
  for (const GpuInfo& g : cuda_devices(&why))
    out.push_back({{"device", "cuda:" + std::to_string(g.index)}, {"name", g.name}, {"memory_bytes", g.memory_bytes},
                   {"sm_count", g.sm_count}, {"compute_capability", std::to_string(g.cc_major) + "." + std::to_string(g.cc_minor)},
                   {"uuid", g.uuid}, {"pci_bus_id", g.pci_bus_id}});
  return out.dump();
}

std::string solvers() {
  json out = json::array();
  for (const SolverInfo& s : SolverRegistry::instance().all()) {
    if (s.test_only) continue;
    json precisions = json::array(), kinds = json::array();
    for (Precision p : s.precisions) precisions.push_back(to_string(p));
    for (Device::Kind k : s.devices) kinds.push_back(k == Device::Kind::Cpu ? "cpu" : "cuda");
    out.push_back({{"name", s.name}, {"description", s.description}, {"schemes", s.schemes},
                   {"max_dim", s.max_dim}, {"precisions", precisions}, {"devices", kinds},
                   {"unavailable", s.unavailable_reason()}});
  }
  return out.dump();
}

// Bad input raises elsbench.BadInput (a ValueError) naming the source and the field as the CLI
// does; a pricing the solver cannot do raises elsbench.SolverError with its kind.
void register_errors(nb::module_& m) {
  static nb::object bad_input = nb::steal(PyErr_NewException("elsbench.BadInput", PyExc_ValueError, nullptr));
  static nb::object solver_error = nb::steal(PyErr_NewException("elsbench.SolverError", PyExc_RuntimeError, nullptr));
  m.attr("BadInput") = bad_input;
  m.attr("SolverError") = solver_error;
  nb::register_exception_translator([](const std::exception_ptr& p, void*) {
    try {
      std::rethrow_exception(p);
    } catch (const InputError& e) {
      nb::object error = bad_input(e.what());
      error.attr("source") = e.file();
      error.attr("field") = e.field();
      PyErr_SetObject(bad_input.ptr(), error.ptr());
    } catch (const SolverError& e) {
      nb::object error = solver_error(e.what());
      error.attr("kind") = e.kind_name();
      PyErr_SetObject(solver_error.ptr(), error.ptr());
    }
  });
}

}  // namespace
}  // namespace elsbench::python

NB_MODULE(_core, m) {
  using namespace elsbench;
  using namespace elsbench::python;
  m.doc() = "elsbench's C++ layers; use the elsbench package, not this module";
  register_errors(m);

  nb::class_<Product>(m, "Product", "a note or option, loaded and checked by elsbench's product loader")
      .def_ro("id", &Product::id)
      .def_prop_ro("dimension", &Product::dimension)
      .def("json", [](const Product& p) { return product_to_json(p).dump(); }, "the product's JSON text");
  m.def("note_from_source", &resolve_product, "spec"_a, "a catalog id or a product JSON file");
  m.def("note_from_json", [](const std::string& text, const std::string& source) {
    return product_from_text(text, source);
  }, "text"_a, "source"_a, "a product from JSON text; `source` names it in errors");
  m.def("catalog_ids", [] {
    std::vector<std::string> ids;
    for (const Product& p : load_catalog()) ids.push_back(p.id);
    return ids;
  });
  m.def("price", &price, "product"_a, "solver"_a, "grid"_a, "scheme"_a, "device"_a, "precision"_a, "threads"_a,
        "max_seconds"_a, "greeks"_a, "error_estimate"_a, "reference"_a.none(), "values"_a, "progress"_a.none(),
        "grid_given"_a, "target_error"_a, "greek_units"_a,
        "price --json's JSON text, and with values the grid's arrays");
  m.def("reference", &reference, "product"_a, "paths"_a, "seed"_a, "device"_a, "threads"_a, "antithetic"_a,
        "a Monte Carlo reference price, as `elsbench reference` computes it (JSON text)");
  m.def("generate_book", [](int notes, int assets, std::uint64_t seed, const std::string& family) {
    if (notes < 1 || notes > 10000000) throw InputError("elsbench.book.generate", "notes", "must be in [1, 1e7]");
    if (assets < 0 || assets > 3) throw InputError("elsbench.book.generate", "assets", "must be 1, 2, 3 or 'mixed'");
    BookSpec spec{notes, assets, seed};
    try {
      spec.family = parse_book_family(family);
    } catch (const std::invalid_argument& e) {
      throw InputError("elsbench.book.generate", "family", e.what());
    }
    return generate_book(spec);
  }, "notes"_a, "assets"_a, "seed"_a, "family"_a);
  m.def("book_jsonl", &book_jsonl, "notes"_a);
  m.def("project_root", &project_root, "the source tree the module was built from (its catalog, templates, calendars)");
  m.def("price_book", &python::price_book, "text"_a.none(), "source"_a, "strict"_a, "solver"_a, "grid"_a, "scheme"_a,
        "device"_a,
        "precision"_a, "threads"_a, "reference"_a.none(), "out"_a, "command"_a, "progress"_a.none(), "grid_given"_a,
        "target_error"_a, "greeks"_a, "greek_units"_a, "instance"_a, "spot_shifts"_a, "vol_shifts"_a, "max_seconds"_a,
        "resume"_a, "out_format"_a,
        "a book (its JSON Lines text, or the file `source` where text is None) priced as `book price`\n"
        "prices it: (results JSON text, CSV text, scenario ladder CSV text or empty)");
  m.def("plan_book", &python::plan_book_text, "text"_a.none(), "source"_a, "solver"_a, "grid"_a, "scheme"_a,
        "device"_a, "precision"_a, "threads"_a, "grid_given"_a, "target_error"_a,
        "a book's plan as `book price --dry-run` gives it, as JSON text: notes, work, estimated seconds");
  m.def("sweep", &sweep, "preset"_a, "axes"_a, "repetitions"_a, "timing_target"_a.none(), "timing_max_seconds"_a.none(),
        "error_estimate"_a, "reference"_a.none(), "out"_a,
        "command"_a, "progress"_a.none(), "out_format"_a, "a sweep into `out`; returns its summary (JSON text)");
  m.def("validate", &validate, "preset"_a, "reference"_a.none(), "error_estimate"_a, "target_error"_a, "threads"_a,
        "out"_a, "resume"_a, "command"_a, "progress"_a.none(), "out_format"_a,
        "a validation preset's cases into `out`; returns its summary (JSON text)");
  m.def("sweep_axes", [] {
    std::vector<std::string> keys;
    for (const SweepAxis& a : sweep_axes()) keys.push_back(a.key);
    return keys;
  });
  m.def("results_csv", [](const std::string& path) { return results_csv(read_results_file(path)); }, "path"_a,
        "the CSV view of any results file (sweep, book, validation), read and checked by the one reader");
  m.def("devices", &devices);
  m.def("solvers", &solvers);
}
