#include "harness/placement/book_price.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "harness/placement/case_skip.hpp"
#include "harness/placement/note_cost.hpp"
#include "platform/input_error.hpp"
#include "platform/stop_request.hpp"
#include "platform/whole_number.hpp"
#include "solvers/contract/price.hpp"
#include "solvers/contract/risk_greeks.hpp"

namespace elsbench {
namespace {

SolverOptions on(const SolverOptions& options, const Device& device) {
  SolverOptions o = options;
  o.device = device;
  return o;
}

CaseOutcome priced(const SolverInfo& solver, const Product& note, const SolverOptions& options,
                   const NotePricing& pricing = {}) {
  try {
    PriceResult r = price_note(solver, note, options, pricing);
    if (pricing.greeks) add_risk_greeks(solver, note, options, r, {}, pricing.greek_units);
    return unjudged(std::move(r));
  } catch (...) {
    CaseOutcome out;
    out.status = failure_status(std::current_exception());
    out.skip_reason = skip_reason(std::current_exception());
    return out;
  }
}

// A queue of notes, largest first, taken one at a time by each worker.
void price_one_by_one(const SolverInfo& solver, const std::vector<const Product*>& notes, const SolverOptions& options,
                      const std::vector<Device>& workers, const NoteDone& done,
                      const std::function<void(std::size_t)>& started, const NotePricing& pricing) {
  std::vector<double> costs;
  for (const Product* p : notes) costs.push_back(pricing_cost(*p, options.grid, pricing));
  std::vector<std::size_t> order(notes.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return costs[a] > costs[b]; });
  std::atomic<std::size_t> next{0};
  std::mutex report;
  auto work = [&](const Device& device) {
    for (std::size_t k = next++; k < order.size() && !stop_requested(); k = next++) {
      if (started) started(order[k]);
      CaseOutcome out = priced(solver, *notes[order[k]], on(options, device), pricing);
      const std::lock_guard lock(report);
      done(order[k], std::move(out));
    }
  };
  if (workers.size() == 1) return work(workers.front());
  std::vector<std::thread> threads;
  for (const Device& d : workers) threads.emplace_back(work, d);
  for (auto& t : threads) t.join();
}

// ELSBENCH_BOOK_CHUNK=N: a batched book marches in pipelined chunks of N notes (default
// kPipelineNotes), so that a device check sends a small book through several (ci/gpu-check.sh).
std::size_t pipeline_chunk_notes() {
  const char* text = std::getenv("ELSBENCH_BOOK_CHUNK");
  if (!text || !*text) return kPipelineNotes;
  const std::optional<long long> n = whole_number(text);
  if (!n || *n < 1)
    throw InputError("(environment)", "ELSBENCH_BOOK_CHUNK",
                     "expected a whole number of notes of at least 1, got '" + std::string(text) + "'");
  return static_cast<std::size_t>(*n);
}

// Each worker marches its cost-balanced share in one batch; a batch the variant refuses is
// priced note by note so that the note at fault is named. Notes of more underlyings than the
// variant takes are refused one by one first, so that they do not hold the rest back.
void price_in_batches(const SolverInfo& solver, const std::vector<const Product*>& notes, const SolverOptions& options,
                      const std::vector<Device>& workers, const NoteDone& done,
                      const std::function<void(std::size_t)>& started) {
  const std::size_t chunk_notes = pipeline_chunk_notes();
  std::vector<double> costs;
  std::vector<std::size_t> taken;
  std::mutex report;
  for (std::size_t i = 0; i < notes.size(); ++i) {
    if (notes[i]->dimension() > solver.max_dim) {
      if (started) started(i);
      done(i, priced(solver, *notes[i], on(options, workers.front())));
      continue;
    }
    taken.push_back(i);
    costs.push_back(note_cost(*notes[i], options.grid));
  }
  auto shares = cost_balanced_shares(costs, static_cast<int>(workers.size()));
  for (auto& share : shares)
    for (std::size_t& k : share) k = taken[k];
  auto work = [&](std::size_t w) {
    if (shares[w].empty()) return;
    std::vector<const Product*> batch;
    for (std::size_t i : shares[w]) {
      batch.push_back(notes[i]);
      if (started) started(i);
    }
    std::vector<CaseOutcome> outs;
    try {
      for (PriceResult& r : price_book_with(solver, batch, on(options, workers[w]), chunk_notes))
        outs.push_back(unjudged(std::move(r)));
    } catch (const std::exception&) {
      outs.clear();
      for (std::size_t i : shares[w]) outs.push_back(priced(solver, *notes[i], on(options, workers[w])));
    }
    const std::lock_guard lock(report);
    for (std::size_t k = 0; k < outs.size(); ++k) done(shares[w][k], std::move(outs[k]));
  };
  std::vector<std::thread> threads;
  for (std::size_t w = 0; w < workers.size(); ++w) threads.emplace_back(work, w);
  for (auto& t : threads) t.join();
}

}  // namespace

double pricing_cost(const Product& note, const GridOptions& grid, const NotePricing& pricing) {
  double work = 0;
  for (const PlannedLevel& l : pricing_levels(note, grid, pricing, {})) work += l.work;
  return work;
}

std::vector<PlannedLevel> pricing_levels(const Product& note, const GridOptions& grid, const NotePricing& pricing,
                                         const TimeStepping& stepping) {
  const auto given = [&] {
    return std::vector<PlannedLevel>{{static_cast<double>(grid.n), note_cost(note, grid, stepping)}};
  };
  if (pricing.grid == NoteGrid::Given && !pricing.target) return given();
  if (pricing.target) {
    try {
      return target_levels_at_least(note, grid, stepping);
    } catch (const std::exception&) {
      return given();
    }
  }
  const GridOptions on_default = on_default_grid(grid, note);
  const bool with_bar = pricing.grid == NoteGrid::DefaultWithBar;
  try {
    return extrapolated_levels(note, on_default, with_bar, stepping);
  } catch (const std::exception&) {
    const double work = note_cost(note, on_default, stepping) * extrapolated_work(note, on_default, with_bar);
    return {{static_cast<double>(on_default.n), work}};
  }
}

PriceResult price_note(const SolverInfo& solver, const Product& note, const SolverOptions& options,
                       const NotePricing& pricing) {
  if (pricing.target) {
    PriceResult r = price_to_target(solver, note, options, *pricing.target);
    require_target_met(*r.accuracy);
    return r;
  }
  if (pricing.grid == NoteGrid::Given) return price_with(solver, note, options);
  SolverOptions o = options;
  o.grid = on_default_grid(o.grid, note);
  if (pricing.grid == NoteGrid::DefaultWithBar) return price_with_bound(solver, note, o);
  return price_extrapolated(solver, note, o);
}

BookPlacement place_book(const SolverInfo& solver, std::size_t notes, const Device& device, int threads,
                         const std::vector<int>& gpus) {
  BookPlacement p;
  if (!device.is_cpu()) {
    for (int g : gpus.empty() ? std::vector<int>{device.index} : gpus) {
      Device d = device;
      d.index = g;
      p.workers.push_back(d);
    }
    p.batched = static_cast<bool>(solver.march_book);
    return p;
  }
  Device cpu = device;
  cpu.threads = threads > 0 ? threads : hardware_threads();
  if (notes > static_cast<std::size_t>(cpu.threads)) {
    // A note per thread: each note's march runs on one thread, so nothing waits at a barrier.
    const int workers = cpu.threads;
    cpu.threads = 1;
    p.workers.assign(static_cast<std::size_t>(workers), cpu);
  } else {
    p.workers.push_back(cpu);
  }
  return p;
}

void price_book(const SolverInfo& solver, const std::vector<const Product*>& notes, const SolverOptions& options,
                const BookPlacement& placement, const NoteDone& done,
                const std::function<void(std::size_t)>& started, const NotePricing& pricing) {
  if (notes.empty()) return;
  if (placement.batched && !pricing.one_by_one())
    return price_in_batches(solver, notes, options, placement.workers, done, started);
  price_one_by_one(solver, notes, options, placement.workers, done, started, pricing);
}

}  // namespace elsbench
