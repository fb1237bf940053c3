// adi-cusparse (gtsv2StridedBatch) and adi-cusparse-interleaved (gtsvInterleavedBatch) against
// the CPU `adi` solver and against adi-cuda's kernel emulation. Needs a CUDA device: without one
// the suite says so and exits 77 (skipped).
#define BOOST_TEST_NO_MAIN
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>

#include "platform/cuda_devices.hpp"
#include "products/catalog.hpp"
#include "solvers/contract/solver.hpp"
#include "solvers/gpu/emulator/gpu_emulator.hpp"
#include "solvers/gpu/session.hpp"
#include "solvers/problem/problem_builder.hpp"
#include "tests/gpu/gpu_suite_main.hpp"

namespace elsbench {
namespace {

const char* const kVariants[] = {"adi-cusparse", "adi-cusparse-interleaved"};

SolverOptions options(const std::string& scheme, int n, int nt, Precision p, const char* device) {
  SolverOptions o;
  o.scheme = scheme;
  o.grid.n = n;
  o.grid.nt = nt;
  o.precision = p;
  o.device = parse_device(device);
  return o;
}

bool close(double a, double b, double rel) { return std::abs(a - b) <= rel * std::max(1.0, std::abs(b)); }

// Tolerances as in tests/gpu/adi_cuda.cpp: 1e-9 in fp64; in fp32 1e-4 on the price, 1e-3 on delta.
void agree_with_cpu(const char* solver, const char* id, int n, int nt, const std::string& scheme, Precision p) {
  const Product product = resolve_product(id);
  const PriceResult cpu = price_with(SolverRegistry::instance().get("adi"), product,
                                     options(scheme, n, nt, Precision::FP64, "cpu"));
  const PriceResult gpu = price_with(SolverRegistry::instance().get(solver), product, options(scheme, n, nt, p, "cuda:0"));
  const bool fp64 = p == Precision::FP64;
  const std::string what = std::string(solver) + " " + id + " " + scheme + (fp64 ? " fp64" : " fp32");
  BOOST_TEST(close(gpu.price, cpu.price, fp64 ? 1e-9 : 1e-4), what << ": gpu " << gpu.price << " cpu " << cpu.price);
  for (std::size_t d = 0; d < cpu.delta.size(); ++d) {
    BOOST_TEST(close(gpu.delta[d], cpu.delta[d], fp64 ? 1e-9 : 1e-3), what << " delta " << d);
    if (fp64) BOOST_TEST(close(gpu.gamma[d], cpu.gamma[d], 1e-9), what << " gamma " << d);
  }
  // The three value buffers and the three full-length diagonals are counted (and the library's
  // work buffer on top).
  const std::size_t per_layer = product.dimension() == 2 ? static_cast<std::size_t>(n) * static_cast<std::size_t>(n)
                                                         : static_cast<std::size_t>(n);
  const std::size_t layers = product.is_els() ? 2 : 1;
  BOOST_TEST(gpu.peak_device_bytes >= 6 * per_layer * layers * (fp64 ? 8u : 4u), what);
}

// The library's batched solvers are captured in CUDA graphs like adi-cuda's kernels: the march
// falls back to eager launches only if the capture fails, and its note says so.
BOOST_AUTO_TEST_CASE(the_march_is_captured_in_cuda_graphs) {
  for (const char* v : kVariants) {
    const PriceResult r = price_with(SolverRegistry::instance().get(v), resolve_product("sample-2a-stepdown"),
                                     options("hundsdorfer-verwer", 60, 100, Precision::FP64, "cuda:0"));
    bool captured = false;
    for (const std::string& n : r.notes) {
      BOOST_TEST_MESSAGE(v << ": " << n);
      captured = captured || n.find("CUDA graphs") != std::string::npos;
    }
    BOOST_TEST(captured, v);
  }
}

// Production sizes, as for adi-cuda (tests/gpu/adi_cuda.cpp).
BOOST_AUTO_TEST_CASE(agrees_with_cpu_adi_at_production_sizes) {
  for (const char* v : kVariants)
    for (Precision p : {Precision::FP64, Precision::FP32}) {
      for (int n : {300, 600, 1000}) agree_with_cpu(v, "sample-2a-stepdown", n, 60, "hundsdorfer-verwer", p);
      agree_with_cpu(v, "european-call", 5400, 50, "hundsdorfer-verwer", p);
    }
}

BOOST_AUTO_TEST_CASE(fp64_agrees_with_cpu_adi) {
  for (const char* v : kVariants)
    for (const std::string& scheme : adi_scheme_names()) {
      agree_with_cpu(v, "sample-2a-stepdown", 80, 120, scheme, Precision::FP64);
      agree_with_cpu(v, "min-call", 80, 60, scheme, Precision::FP64);
    }
}

BOOST_AUTO_TEST_CASE(fp64_agrees_in_one_dimension) {
  for (const char* v : kVariants) agree_with_cpu(v, "els-1a-stepdown", 200, 100, "hundsdorfer-verwer", Precision::FP64);
}

BOOST_AUTO_TEST_CASE(fp32_within_tolerance) {
  for (const char* v : kVariants)
    for (const std::string& scheme : adi_scheme_names())
      agree_with_cpu(v, "sample-2a-stepdown", 80, 120, scheme, Precision::FP32);
}

BOOST_AUTO_TEST_CASE(events_and_knock_in_identical_on_every_node) {
  const Product product = resolve_product("sample-2a-stepdown");
  GridOptions g;
  g.n = 50;
  g.nt = 120;
  const Problem pb = build_problem(product, g);
  for (const char* v : kVariants)
    for (const std::string& scheme : adi_scheme_names()) {
      GpuMarchSession session(SolverRegistry::instance().get(v).gpu, pb, adi_scheme(scheme), 0, Precision::FP64);
      session.march();
      const std::vector<double> gpu = session.values(true);
      const std::vector<double> emulated = gpu::emulate_adi_cuda<double>(pb, session.plan());
      double worst = 0, scale = 0;
      for (std::size_t i = 0; i < gpu.size(); ++i) {
        worst = std::max(worst, std::abs(gpu[i] - emulated[i]));
        scale = std::max(scale, std::abs(emulated[i]));
      }
      BOOST_TEST(worst <= 1e-10 * scale, v << " " << scheme << ": max difference " << worst);
    }
}

}  // namespace
}  // namespace elsbench

int main(int argc, char* argv[]) { return elsbench::test::gpu_suite_main("adi_cusparse", argc, argv); }
