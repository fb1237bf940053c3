#include "solvers/contract/solver.hpp"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <stdexcept>

#include "platform/cuda_devices.hpp"
#include "platform/memory_tracker.hpp"
#include "solvers/problem/solver_error.hpp"

namespace elsbench {

bool SolverInfo::supports(Precision p) const {
  return std::find(precisions.begin(), precisions.end(), p) != precisions.end();
}

bool SolverInfo::supports(Device::Kind k) const {
  return std::find(devices.begin(), devices.end(), k) != devices.end();
}

SolverRegistry& SolverRegistry::instance() {
  static SolverRegistry r;
  return r;
}

void SolverRegistry::add(SolverInfo info) {
  if (find(info.name)) throw std::logic_error("solver '" + info.name + "' registered twice");
  solvers_.push_back(std::move(info));
  std::sort(solvers_.begin(), solvers_.end(),
            [](const SolverInfo& a, const SolverInfo& b) { return a.name < b.name; });
}

const SolverInfo* SolverRegistry::find(const std::string& name) const {
  for (const auto& s : solvers_)
    if (s.name == name) return &s;
  return nullptr;
}

const SolverInfo& SolverRegistry::get(const std::string& name) const {
  if (const SolverInfo* s = find(name)) return *s;
  std::string known;
  for (const auto& s : solvers_)
    if (!s.test_only) known += (known.empty() ? "" : ", ") + s.name;
  throw std::invalid_argument("unknown solver '" + name + "' (known: " + known + ")");
}

namespace {

// `auto` takes the first GPU when the variant runs on one and a GPU is present, else the CPU.
Device resolve_device(const SolverInfo& s, const Device& asked, std::vector<std::string>& notes) {
  if (!asked.is_auto) return asked;
  Device d;
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

}  // namespace

PriceResult price_with(const SolverInfo& s, const Product& product, SolverOptions opt) {
  if (product.dimension() > s.max_dim)
    throw std::invalid_argument("solver '" + s.name + "' handles up to " + std::to_string(s.max_dim) +
                                " underlyings; " + product.id + " has " +
                                std::to_string(product.dimension()));
  if (!s.supports(opt.precision))
    throw std::invalid_argument("solver '" + s.name + "' does not run in " + to_string(opt.precision));
  if (!opt.scheme.empty() && std::find(s.schemes.begin(), s.schemes.end(), opt.scheme) == s.schemes.end()) {
    std::string known;
    for (const auto& x : s.schemes) known += (known.empty() ? "" : ", ") + x;
    throw std::invalid_argument("solver '" + s.name + "' has no scheme '" + opt.scheme + "'" +
                                (known.empty() ? std::string() : " (known: " + known + ")"));
  }
  if (opt.scheme.empty()) opt.scheme = s.default_scheme();
  std::vector<std::string> notes;
  opt.device = resolve_device(s, opt.device, notes);
  if (!s.supports(opt.device.kind))
    throw std::invalid_argument("solver '" + s.name + "' does not run on " + opt.device.str());
  if (const std::string why = s.unavailable_reason(); !why.empty() && opt.device.kind == Device::Kind::Cuda)
    throw std::runtime_error("solver '" + s.name + "' is unavailable: " + why);
  if (opt.threads <= 0) opt.threads = omp_get_num_procs();
  omp_set_num_threads(opt.threads);

  memory::Scope scope;
  const auto start = std::chrono::steady_clock::now();
  PriceResult r = s.price(product, opt);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  r.peak_host_bytes = scope.peak();
  r.product = product.id;
  r.solver = s.name;
  if (r.scheme.empty()) r.scheme = opt.scheme;
  r.device = opt.device.str();
  r.precision = to_string(opt.precision);
  if (opt.device.kind == Device::Kind::Cpu) r.threads = opt.threads;
  r.notes.insert(r.notes.begin(), notes.begin(), notes.end());
  return r;
}

}  // namespace elsbench
