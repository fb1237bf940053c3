#pragma once
// The solver contract: everything a variant is, declared once where it registers
// (ELSBENCH_REGISTER_SOLVER, registry.hpp). The harness, the CLI and the reports read these fields
// and nothing else; the problem is built for the variant (price.hpp) and handed to its march const.
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "platform/device.hpp"
#include "solvers/contract/batch_times.hpp"
#include "solvers/contract/gpu_backends.hpp"
#include "solvers/contract/memory_model.hpp"
#include "solvers/contract/options.hpp"
#include "solvers/problem/grid_options.hpp"
#include "solvers/problem/problem.hpp"

namespace elsbench {

// What a march returns: the values at tau = T (layer 0 first, in the problem's layout), and what
// the variant has to say about the run.
struct MarchResult {
  std::vector<double> values;
  std::string scheme;                  // as run: "euler", "crank-nicolson", an ADI scheme
  std::size_t peak_device_bytes = 0;   // device allocations of the march, at their peak
  std::size_t measured_device_bytes = 0;  // the device's free-memory drop (cudaMemGetInfo); 0: not measured
  std::vector<std::string> notes;
  std::optional<BatchTimes> batch_times;  // on the first note of a batch (march_book) only
};

using MarchFn = std::function<MarchResult(const Problem&, const SolverOptions&)>;
// Marching several notes' problems together (one batch of a book), results in their order. Each
// result must equal what MarchFn gives for that problem alone (fp64: to the last bit where the
// arithmetic order is the same).
using BookMarchFn = std::function<std::vector<MarchResult>(const std::vector<const Problem*>&, const SolverOptions&)>;
// A batch's march whose host side (a GPU variant's plans and upload image) is already made:
// BookPrepareFn makes it, on the book's builder thread while the previous batch marches, and the
// march it returns gives what BookMarchFn would, without the problems.
using BookMarch = std::function<std::vector<MarchResult>()>;
using BookPrepareFn = std::function<BookMarch(const std::vector<const Problem*>&, const SolverOptions&)>;

struct SolverInfo {
  std::string name;
  std::string description;
  std::vector<std::string> schemes;  // first is the default; empty: no scheme choice
  std::vector<Device::Kind> devices;
  int max_dim = 2;
  std::vector<Precision> precisions{Precision::FP64};
  bool test_only = false;            // hidden from `list` and sweeps (a deliberately broken variant)
  TimeStepping stepping;             // how the problem's time grid is chosen for it
  std::optional<MemoryModel> memory; // analytic memory model (pre-flight checks, reports)
  std::vector<SchemeArrays> scheme_memory;  // schemes that keep other array counts than `memory`
  // Coefficient c of the sweep's allowance c (100/n)^2 |reference| for this variant, where its
  // error constant differs from the second-order default (explicit Euler); empty: the rule's own.
  std::optional<double> tolerance_c;
  // Empty when the variant can run here; otherwise why not (no CUDA build, no GPU, ...).
  std::function<std::string()> unavailable_reason = [] { return std::string(); };
  MarchFn march;                     // how the steps are executed: the variant's only code
  BookMarchFn march_book;            // optional: many notes in one march (a GPU batch); empty: one by one
  BookPrepareFn prepare_book;        // optional, with march_book: its host side made ahead of the march
  GpuBackends gpu;                   // GPU variants: the backend their march runs

  std::string default_scheme() const { return schemes.empty() ? std::string() : schemes.front(); }
  bool supports(Precision p) const;
  bool supports(Device::Kind k) const;
  bool has_scheme(const std::string& scheme) const;
  // `memory` with the counts of `scheme` (empty: the default scheme) in precision p.
  std::optional<MemoryModel> memory_for(const std::string& scheme, Precision p) const;
};

}  // namespace elsbench
