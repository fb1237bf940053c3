#include "solvers/contract/price.hpp"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <future>
#include <optional>
#include <stdexcept>

#include "platform/cuda_devices.hpp"
#include "platform/memory_tracker.hpp"
#include "platform/solver_error.hpp"
#include "platform/stop_request.hpp"
#include "platform/stopwatch.hpp"
#include "products/price_bounds.hpp"
#include "solvers/contract/preflight.hpp"
#include "solvers/problem/problem_builder.hpp"
#include "solvers/problem/spot_values.hpp"

namespace elsbench {
namespace {

// `auto` takes the first GPU when the variant runs on one and a GPU is present, else the CPU.
Device resolve_device(const SolverInfo& s, const Device& asked, std::vector<std::string>& notes) {
  if (!asked.is_auto) return asked;
  Device d;
  d.threads = asked.threads;
  std::string why;
  if (s.supports(Device::Kind::Cuda)) {
    if (!cuda_devices(&why).empty() && s.unavailable_reason().empty()) {
      d.kind = Device::Kind::Cuda;
      return d;
    }
    if (s.supports(Device::Kind::Cpu)) notes.push_back("device auto: fell back to the CPU (" + why + ")");
  }
  if (!s.supports(Device::Kind::Cpu)) {
    // Not replaced by a CPU solver behind the user's back: a timing must name what ran.
    throw SolverError(SolverError::Kind::Unavailable,
                      "solver '" + s.name + "' runs on CUDA devices only and none is usable" +
                          (why.empty() ? std::string() : " (" + why + ")") + "; the CPU variant is 'adi'");
  }
  return d;
}

void check_request(const SolverInfo& s, const Product& product, const SolverOptions& opt) {
  if (product.dimension() > s.max_dim)
    throw std::invalid_argument("solver '" + s.name + "' handles up to " + std::to_string(s.max_dim) +
                                " underlyings; " + product.id + " has " +
                                std::to_string(product.dimension()));
  if (!s.supports(opt.precision))
    throw std::invalid_argument("solver '" + s.name + "' does not run in " + to_string(opt.precision));
  if (!opt.scheme.empty() && !s.has_scheme(opt.scheme)) {
    std::string known;
    for (const auto& x : s.schemes) known += (known.empty() ? "" : ", ") + x;
    throw std::invalid_argument("solver '" + s.name + "' has no scheme '" + opt.scheme + "'" +
                                (known.empty() ? std::string() : " (known: " + known + ")"));
  }
}

// What a pricing marches: its mesh, shape and steps.
PriceResult grid_of(const Problem& pb) {
  PriceResult r;
  r.mesh = pb.mesh;
  r.shape = pb.shape();
  r.time_steps = pb.time.steps();
  r.nt = pb.time.base_steps();
  r.march_steps = pb.time.march_steps();
  return r;
}

// The result every variant reports: price and Greeks at the spot, with the mesh, shape and steps.
PriceResult result_at_spot(const Problem& pb, const MarchResult& m) {
  const SpotValues at = spot_values(pb, m.values);
  PriceResult r = grid_of(pb);
  r.scheme = m.scheme;
  r.price = at.price;
  r.delta = at.delta;
  r.gamma = at.gamma;
  r.cross_gamma = at.cross_gamma;
  r.peak_device_bytes = m.peak_device_bytes;
  r.measured_device_bytes = m.measured_device_bytes;
  r.notes = m.notes;
  return r;
}

// The request checked and completed (scheme, device, threads) as every pricing sees it.
SolverOptions resolved_request(const SolverInfo& s, const Product& product, SolverOptions opt,
                               std::vector<std::string>& notes) {
  check_request(s, product, opt);
  if (opt.scheme.empty()) opt.scheme = s.default_scheme();
  opt.device = resolve_device(s, opt.device, notes);
  if (!s.supports(opt.device.kind))
    throw std::invalid_argument("solver '" + s.name + "' does not run on " + opt.device.str());
  if (const std::string why = s.unavailable_reason(); !why.empty() && !opt.device.is_cpu())
    throw SolverError(SolverError::Kind::Unavailable, "solver '" + s.name + "' is unavailable: " + why);
  opt.device.threads = resolved_threads(opt.device);
  return opt;
}

void label(PriceResult& r, const SolverInfo& s, const Product& product, const SolverOptions& opt,
           const std::vector<std::string>& notes) {
  r.product = product.id;
  r.solver = s.name;
  if (r.scheme.empty()) r.scheme = opt.scheme;
  r.device = opt.device.str();
  r.precision = to_string(opt.precision);
  if (opt.device.is_cpu()) r.threads = opt.device.threads;
  r.notes.insert(r.notes.begin(), notes.begin(), notes.end());
}

// No non-finite price or Greek is ever reported as a result: a product whose levels lie beyond
// what fp64 can carry through the march is refused as a case.
void require_finite(const PriceResult& r) {
  bool finite = std::isfinite(r.price);
  for (double x : r.delta) finite = finite && std::isfinite(x);
  for (double x : r.gamma) finite = finite && std::isfinite(x);
  if (!finite)
    throw SolverError(SolverError::Kind::NonFinite,
                      "the price or a Greek is not finite (" + r.mesh +
                          "): the product's levels or the grid lie beyond what fp64 can carry");
}

// What may carry an exact-bound price past its bound, relative to the product's size: rounding (a
// march in fp32 rounds each step at about 6e-8, fp32 prices lie up to 1.3e-5 from fp64's; mixed
// precision's steps likewise but its values in fp64, 1.4e-8) and the time steps' discounting,
// which the ADI splits over the axes: a note all but sure to be called in 0.27 years priced 5.6e-9
// of its notional above its discounted redemption at n = 144. 0.01 bp is far below any error bar.
double rounding_slack(Precision p) {
  switch (p) {
    case Precision::FP32: return 1e-4;
    case Precision::Mixed: break;
    case Precision::FP64: break;
  }
  return 1e-6;
}

std::string number(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", x);
  return text;
}

// No price outside its no-arbitrage bounds (products/price_bounds.hpp) is reported as a result: a
// grid that cannot carry the note (its domain too small for the volatility and maturity, an
// oscillating march) gives such prices, and more nodes or a wider domain is the remedy.
void require_within_bounds(const Product& product, const PriceResult& r, Precision precision) {
  const std::optional<PriceBound> bound = bound_crossed(product, r.price, precision);
  if (!bound) return;
  throw SolverError(SolverError::Kind::Unconverged,
                    "price " + number(r.price) + (r.price < bound->value ? " below" : " above") + " the bound " +
                        number(bound->value) + " (" + bound->formula + ") on " + r.mesh +
                        "; refine the grid or widen --s-max");
}

// The problem, with the pre-flight check (memory model, work) run before its full-grid arrays exist.
Problem checked_problem(const SolverInfo& s, const Product& product, const SolverOptions& opt) {
  return build_problem(product, opt.grid, s.stepping,
                       [&](std::size_t points, double steps) { preflight(s, product, opt, points, steps); });
}

// The steps a pricing would march, added to the progress's plan; the result has its shape and
// steps, and zeros for the price and Greeks.
PriceResult planned_pricing(const SolverInfo& s, const Product& product, const SolverOptions& opt) {
  const Problem pb = plan_problem(product, opt.grid, s.stepping);
  march_progress().planned += pb.time.steps();
  PriceResult r = grid_of(pb);
  const auto dim = static_cast<std::size_t>(pb.dim);
  r.delta.assign(dim, 0.0);
  r.gamma.assign(dim, 0.0);
  r.cross_gamma.assign(dim * (dim - 1) / 2, 0.0);
  return r;
}

// The one pricing: `grid`, when given, takes the values and the mesh's nodes.
PriceResult price_on_grid(const SolverInfo& s, const Product& product, SolverOptions opt, PricedGrid* grid) {
  std::vector<std::string> notes;
  opt = resolved_request(s, product, opt, notes);
  if (opt.plan_only) return planned_pricing(s, product, opt);
  omp_set_num_threads(opt.device.threads);

  memory::Scope scope;
  const auto start = std::chrono::steady_clock::now();
  // --max-seconds bounds the pricing as it runs, too: the pre-flight refuses only what surely
  // cannot finish, from a lower bound of its time.
  std::optional<StopDeadline> deadline;
  if (opt.max_seconds > 0) deadline.emplace(opt.max_seconds);
  const Problem pb = checked_problem(s, product, opt);
  MarchResult marched = s.march(pb, opt);
  PriceResult r = result_at_spot(pb, marched);
  require_finite(r);
  require_within_bounds(product, r, opt.precision);
  r.seconds = seconds_since(start);
  r.peak_host_bytes = scope.peak();
  label(r, s, product, opt, notes);
  if (grid) {
    grid->values = std::move(marched.values);
    grid->nodes.clear();
    for (const Axis& a : pb.axes) grid->nodes.push_back(a.s);
    grid->layers = pb.layers;
  }
  return r;
}

}  // namespace

PriceResult price_with(const SolverInfo& s, const Product& product, SolverOptions opt) {
  return price_on_grid(s, product, std::move(opt), nullptr);
}

PriceResult price_with(const SolverInfo& s, const Product& product, SolverOptions opt, PricedGrid& grid) {
  return price_on_grid(s, product, std::move(opt), &grid);
}

// The problems of chunk k + 1 are built on the host's threads while chunk k marches (on a device,
// the host thread only waits), and with them the variant's host side of the batch (prepare_book:
// plans and upload images), so that the set-up hides behind the march. kPipelineNotes is large
// enough that a chunk keeps every CTA of an on-chip march busy through several notes; the
// device's figures may move it.
std::vector<PriceResult> price_book_with(const SolverInfo& s, const std::vector<const Product*>& products,
                                         SolverOptions opt, std::size_t chunk_notes) {
  if (chunk_notes == 0) throw std::invalid_argument("price_book_with: chunks of 0 notes");
  if (!s.march_book) throw std::invalid_argument("solver '" + s.name + "' has no march_book");
  if (products.empty()) return {};
  // Only the product part of a request differs between notes: the device is resolved once.
  for (const Product* p : products) check_request(s, *p, opt);
  std::vector<std::string> notes;
  opt = resolved_request(s, *products.front(), opt, notes);
  omp_set_num_threads(opt.device.threads);

  memory::Scope scope;
  struct Built {
    std::vector<Problem> problems;
    BookMarch march;              // prepare_book's, when the variant has one
    double problems_seconds = 0;  // of `seconds`; the prepared march's BatchTimes count the rest
    double seconds = 0;
  };
  const auto build = [&](std::size_t first) {
    omp_set_num_threads(opt.device.threads);  // per thread: the builder's own thread needs it too
    const auto start = std::chrono::steady_clock::now();
    const std::size_t count = std::min(chunk_notes, products.size() - first);
    const std::vector<const Product*> chunk(products.begin() + static_cast<std::ptrdiff_t>(first),
                                            products.begin() + static_cast<std::ptrdiff_t>(first + count));
    Built b;
    b.problems = build_problems(chunk, opt.grid, s.stepping, [&](std::size_t k, std::size_t points, double steps) {
      preflight(s, *chunk[k], opt, points, steps);
    });
    b.problems_seconds = seconds_since(start);
    if (s.prepare_book) b.march = s.prepare_book(pointers_to(b.problems), opt);
    b.seconds = seconds_since(start);
    return b;
  };
  std::vector<PriceResult> results;
  std::future<Built> next = std::async(std::launch::async, build, 0);
  for (std::size_t first = 0; first < products.size(); first += chunk_notes) {
    const auto start = std::chrono::steady_clock::now();
    const Built built = next.get();
    if (first + chunk_notes < products.size()) next = std::async(std::launch::async, build, first + chunk_notes);
    const std::vector<const Problem*> batch = pointers_to(built.problems);
    const std::vector<MarchResult> marched = built.march ? built.march() : s.march_book(batch, opt);
    if (marched.size() != batch.size())
      throw std::logic_error("solver '" + s.name + "': march_book returned " + std::to_string(marched.size()) +
                             " results for " + std::to_string(batch.size()) + " notes");
    // A chunk's wall time, its set-up's share that did not overlap the last march included.
    const double seconds = (seconds_since(start) + (first == 0 ? built.seconds : 0.0)) /
                           static_cast<double>(batch.size());
    for (std::size_t i = 0; i < batch.size(); ++i) {
      const Product& product = *products[first + i];
      PriceResult r = result_at_spot(built.problems[i], marched[i]);
      require_finite(r);
      require_within_bounds(product, r, opt.precision);
      r.seconds = seconds;
      r.peak_host_bytes = scope.peak();
      label(r, s, product, opt, notes);
      if (marched[i].batch_times) {
        r.batch_times = marched[i].batch_times;
        r.batch_times->setup += built.problems_seconds;  // the problems are the chunk's set-up too
      }
      results.push_back(std::move(r));
    }
  }
  return results;
}

std::optional<PriceBound> bound_crossed(const Product& product, double price, Precision precision) {
  const PriceBounds b = price_bounds(product);
  const double slack = rounding_slack(precision) * b.scale;
  if (price < b.lower.value - slack) return b.lower;
  if (price > b.upper.value + slack) return b.upper;
  return std::nullopt;
}

}  // namespace elsbench
