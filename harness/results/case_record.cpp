#include "harness/results/case_record.hpp"

#include <cmath>
#include <optional>

#include "harness/results/price_json.hpp"
#include "solvers/contract/registry.hpp"
#include "solvers/contract/risk_greeks.hpp"

namespace elsbench {
namespace {

using nlohmann::json;

double median_seconds(const json& timings) {
  for (const auto& e : timings)
    if (e.value("run_type", "") == "aggregate" && e.value("aggregate_name", "") == "median")
      return e.value("real_time", 0.0) / 1e3;  // time_unit ms
  return 0;
}

json or_null(bool known, const json& value) { return known ? value : json(); }

}  // namespace

json case_fields(const SweepCase& c, const Product& product, const CaseOutcome& out) {
  const PriceResult* r = out.result ? &*out.result : nullptr;
  const ReferenceValue* ref = out.reference ? &*out.reference : nullptr;
  const GridLoad load = grid_load(product);
  const std::vector<int> planned =
      c.axis_nodes.empty() ? std::vector<int>(static_cast<std::size_t>(load.dim), c.n) : c.axis_nodes;
  double planned_points = 1;
  for (int s : planned) planned_points *= s;
  const std::vector<int> shape = r ? r->shape : planned;
  std::size_t points = 1;
  for (int s : shape) points *= static_cast<std::size_t>(s);
  const SolverInfo* info = SolverRegistry::instance().find(c.solver);
  const std::optional<MemoryModel> memory = info ? info->memory_for(c.scheme, c.precision) : std::nullopt;
  const MemoryModel* model = memory ? &*memory : nullptr;
  const auto steps = c.nt.steps(c.n);
  const double seconds = median_seconds(out.timings);
  const bool timed = r && seconds > 0 && r->time_steps > 0;

  json f;
  f["case_id"] = c.id();
  f["product"] = c.product;
  f["solver"] = c.solver;
  f["scheme"] = r && !r->scheme.empty() ? r->scheme : c.scheme;
  f["n"] = c.n;
  if (!c.axis_nodes.empty()) f["axis_nodes"] = c.axis_nodes;
  f["nt"] = or_null(steps.has_value(), steps.value_or(0));
  f["nt_rule"] = c.nt.str();
  f["shape"] = shape;
  f["grid_points"] = points;
  f["layers"] = load.layers;
  f["time_steps"] = or_null(r, r ? r->time_steps : 0);
  f["mesh"] = or_null(r, r ? r->mesh : "");
  f["device"] = c.device.str();
  f["threads"] = r ? r->threads : (c.device.is_cpu() ? c.device.threads : 1);
  f["precision"] = to_string(c.precision);
  f["status"] = to_string(out.status);
  f["skip_reason"] = out.skip_reason;
  f["notes"] = r ? r->notes : std::vector<std::string>{};
  f["price"] = or_null(r, r ? r->price : 0.0);
  f["delta"] = or_null(r, r ? r->delta : std::vector<double>{});
  f["gamma"] = or_null(r, r ? r->gamma : std::vector<double>{});
  f["cross_gamma"] = or_null(r, r ? r->cross_gamma : std::vector<double>{});
  // Vega per asset, rho and theta where they were asked (price --greeks, book price --greeks).
  const RiskGreeks* risk = r && r->greeks ? &*r->greeks : nullptr;
  f["vega"] = or_null(risk, risk ? risk->vega : std::vector<double>{});
  f["rho"] = or_null(risk, risk ? risk->rho : 0.0);
  f["theta"] = or_null(risk, risk ? risk->theta : 0.0);
  f["greek_units"] = or_null(risk, risk ? to_string(risk->units) : "");
  f["reference"] = or_null(ref, ref ? ref->price : 0.0);
  f["reference_stderr"] = or_null(ref, ref ? ref->std_error : 0.0);
  f["reference_source"] = or_null(ref, ref ? ref->source : "");
  f["error"] = or_null(ref && r, out.verdict.error);
  const ErrorEstimate* estimate = r && r->error_estimate ? &*r->error_estimate : nullptr;
  f["tol"] = or_null(r && (ref || estimate), out.tol);
  f["allowance"] = or_null(ref && r, out.verdict.allowance);
  f["estimated_error"] = or_null(estimate, estimate ? estimate->error : 0.0);
  f["extrapolated_price"] = or_null(estimate, estimate ? estimate->extrapolated : 0.0);
  f["error_estimate"] = estimate ? to_json(*estimate) : json();
  // Richardson's value, with its error bar where one was asked (--target-error): its grids and cost.
  f["accuracy"] = r && r->accuracy ? to_json(*r->accuracy) : json();
  // Flat, for the CSV: the bar a price to a target claims and the nodes per axis it was priced on.
  const Accuracy* acc = r && r->accuracy ? &*r->accuracy : nullptr;
  f["error_bar"] = or_null(acc != nullptr && acc->bound, acc && acc->bound ? *acc->bound : 0.0);
  f["priced_n"] = or_null(acc != nullptr, acc ? acc->n : 0);
  f["peak_host_bytes"] = or_null(r, out.peak_host_bytes);
  f["peak_device_bytes"] = or_null(r, out.peak_device_bytes);
  f["process_peak_rss_bytes"] = or_null(r, out.process_peak_rss_bytes);
  f["memory_space"] = or_null(model, model ? to_string(model->space) : "");
  f["model_bytes_per_point"] = or_null(model, model ? bytes_per_point(*model, c.precision, load, planned_points) : 0.0);
  f["model_bytes"] = or_null(model, model ? std::round(model_bytes(*model, c.precision, load, planned_points)) : 0.0);
  // The device's own account (cudaMemGetInfo), next to the model: null where nothing measured it
  // (a CPU case, a skipped case, a build without CUDA).
  f["measured_device_bytes"] = or_null(r && out.measured_device_bytes > 0, out.measured_device_bytes);
  // A timed run prices the whole book: its steps are every note's.
  const double book = c.book;
  const double steps_run = timed ? static_cast<double>(r->time_steps) * book : 0.0;
  f["book"] = c.book;
  for (const auto& item : c.grid.items()) f[item.key()] = item.value();  // the case's own grid settings
  f["seconds"] = or_null(timed, seconds);
  // How the time was taken: repetitions until the median was steady (timing.hpp), and whether the
  // machine was busy or throttled meanwhile (noisy times stay out of compare's and history's verdicts).
  f["repetitions_run"] = or_null(timed, out.repetitions_run);
  f["median_interval"] = or_null(timed && out.repetitions_run > 1, out.median_interval);
  f["timing_stop"] = or_null(timed, out.timing_stop);
  f["noisy"] = timed && !out.noise.empty();
  f["noise"] = or_null(timed && !out.noise.empty(), out.noise);
  f["notes_per_second"] = or_null(timed, book / seconds);
  f["seconds_per_step"] = or_null(timed, timed ? seconds / steps_run : 0.0);
  f["points_per_second"] = or_null(timed, static_cast<double>(points) * steps_run / seconds);
  return f;
}

json single_pricing_timings(const std::string& name, double seconds) {
  const json timing = {{"run_name", name},   {"repetitions", 1}, {"threads", 1},         {"iterations", 1},
                       {"real_time", seconds * 1e3}, {"cpu_time", seconds * 1e3}, {"time_unit", "ms"}};
  json repetition = timing, median = timing;
  repetition.update({{"name", name}, {"run_type", "iteration"}, {"repetition_index", 0}});
  median.update({{"name", name + "_median"}, {"run_type", "aggregate"}, {"aggregate_name", "median"},
                 {"aggregate_unit", "time"}});
  return json::array({repetition, median});
}

json case_entries(const SweepCase& c, const Product& product, const CaseOutcome& out) {
  const json fields = case_fields(c, product, out);
  json entries = json::array();
  if (!out.result) {  // skipped, or unconverged with its price refused (outside its no-arbitrage bounds)
    entries.push_back({{"name", c.id() + "_median"},
                       {"run_name", c.id()},
                       {"run_type", "aggregate"},
                       {"repetitions", 0},
                       {"threads", 1},
                       {"aggregate_name", "median"},
                       {"aggregate_unit", "time"},
                       {"iterations", 0},
                       {"real_time", 0.0},
                       {"cpu_time", 0.0},
                       {"time_unit", "ms"},
                       {"error_occurred", true},
                       {"error_message", out.skip_reason}});
  } else {
    entries = out.timings;
  }
  // The solver's thread count replaces Google Benchmark's own (always 1 here).
  for (auto& e : entries) e.update(fields);
  return entries;
}

}  // namespace elsbench
