#include "harness/run/case_run.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>

#include "harness/placement/book_price.hpp"
#include "harness/placement/case_skip.hpp"
#include "harness/run/timing.hpp"
#include "platform/cuda_devices.hpp"
#include "platform/device.hpp"
#include "platform/machine_load.hpp"
#include "platform/memory_tracker.hpp"
#include "solvers/contract/error_estimate.hpp"
#include "solvers/contract/solver.hpp"

namespace elsbench {
namespace {

// A CUDA device that is not there. Whether the solver runs on CUDA at all is price_with's check.
std::string missing_device(const SolverInfo& solver, const Device& device) {
  if (device.kind != Device::Kind::Cuda || !solver.supports(Device::Kind::Cuda)) return "";
  if (const std::string why = solver.unavailable_reason(); !why.empty()) return "unavailable: " + why;
  std::string why_none;
  const auto gpus = cuda_devices(&why_none);
  if (gpus.empty()) return "unavailable: " + why_none;
  if (device.index >= static_cast<int>(gpus.size()))
    return "unavailable: no " + device.str() + " (" + std::to_string(gpus.size()) + " CUDA device(s))";
  return "";
}

void note_peaks(CaseOutcome& out, const PriceResult& r) {
  out.peak_host_bytes = std::max(out.peak_host_bytes, r.peak_host_bytes);
  out.peak_device_bytes = std::max(out.peak_device_bytes, r.peak_device_bytes);
  out.measured_device_bytes = std::max(out.measured_device_bytes, r.measured_device_bytes);
}

std::string timing_failure(const nlohmann::json& timings) {
  bool aggregated = false;
  std::string error = "error: no timed repetition completed";
  for (const auto& e : timings) {
    aggregated = aggregated || e.value("run_type", "") == "aggregate";
    if (e.value("error_occurred", false)) error = e.value("error_message", error);
  }
  return aggregated ? "" : error;
}

// One timed run of a book case: `c.book` copies of the product priced the way `book price` prices a
// book (a note per thread, or one batch per device); its time is the book's wall time.
double price_book_once(const SolverInfo& solver, const Product& product, const SweepCase& c,
                       const SolverOptions& options, const CaseSettings& settings, CaseOutcome& out) {
  const std::vector<const Product*> notes(static_cast<std::size_t>(c.book), &product);
  const BookPlacement placement = place_book(solver, notes.size(), options.device, options.device.threads);
  std::string failed;
  const auto start = std::chrono::steady_clock::now();
  price_book(solver, notes, options, placement, [&](std::size_t, const CaseOutcome& note) {
    if (note.result) note_peaks(out, *note.result);
    if (!note.result && failed.empty()) failed = note.skip_reason;
  }, {}, NotePricing{settings.target ? &*settings.target : nullptr});
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!failed.empty()) throw std::runtime_error("a note of the book failed: " + failed);
  return seconds;
}

// The estimate's pricings are untimed and do not count towards the case's memory peaks (their
// grids are smaller or, in time only, the same size).
void judge_convergence(CaseOutcome& out, const SolverInfo& solver, const Product& product,
                       const SolverOptions& options) {
  try {
    add_error_estimate(solver, product, options, *out.result);
  } catch (const std::exception& e) {
    out.result->notes.push_back(std::string("no error estimate: ") + e.what());
    return;
  }
  if (out.result->error_estimate->bound > out.tol) out.status = CaseStatus::Unconverged;
}

}  // namespace

CaseOutcome run_case(const SweepCase& c, const Product& product, const CaseSettings& settings,
                     const std::optional<ReferenceValue>& reference) {
  CaseOutcome out;
  out.skip_reason = c.skip_reason;
  const SolverInfo& solver = SolverRegistry::instance().get(c.solver);
  if (out.skip_reason.empty()) out.skip_reason = missing_device(solver, c.device);
  if (!out.skip_reason.empty()) return out;

  const SolverOptions options = c.options(settings.grid);
  const auto price_case = [&] {
    if (!settings.target) return price_with(solver, product, options);
    PriceResult r = price_to_target(solver, product, options, *settings.target);
    require_target_met(*r.accuracy);
    return r;
  };
  try {
    out.result = price_case();
  } catch (...) {
    out.status = failure_status(std::current_exception());
    out.skip_reason = skip_reason(std::current_exception());
    return out;
  }
  note_peaks(out, *out.result);

  if (settings.repetitions > 0) {
    TimingRule rule = settings.timing;
    rule.min_repetitions = settings.repetitions;
    const LoadSample before = sample_load();
    Timings timed = time_case(c.id(), rule, [&] {
      if (c.book > 1) return price_book_once(solver, product, c, options, settings, out);
      const PriceResult r = price_case();
      note_peaks(out, r);
      return r.seconds;
    });
    out.noise = noise_reason(before, sample_load(), hardware_threads());
    out.timings = std::move(timed.entries);
    out.repetitions_run = timed.repetitions;
    out.median_interval = timed.median_interval;
    out.timing_stop = timed.stopped_by;
    out.process_peak_rss_bytes = memory::process_peak_rss_bytes();
    if (const std::string failed = timing_failure(out.timings); !failed.empty()) {
      out.skip_reason = failed;
      out.result.reset();
      return out;
    }
  }

  out.reference = reference;
  out.tol = fixed_tol(settings.tolerance, product)
                .value_or(settings.target ? *out.result->accuracy->bound  // what the price claims
                                          : settings.tolerance.tol(c.product, c.solver, solver.tolerance_c,
                                                                   to_string(c.precision), c.n,
                                                                   reference ? reference->price : out.result->price,
                                                                   product.notional));
  if (reference) {
    out.verdict = judge(out.result->price, *reference, out.tol, settings.k);
    out.status = out.verdict.pass ? CaseStatus::Pass : CaseStatus::Fail;
  } else {
    out.status = CaseStatus::NoReference;
  }
  if (settings.error_estimate) judge_convergence(out, solver, product, options);
  return out;
}

}  // namespace elsbench
