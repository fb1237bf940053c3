// adi-cuda against the CPU `adi` solver (same scheme, same grid, same time steps) and against the
// CPU emulation of its own kernels; device errors. Needs a CUDA device: without one the suite
// says so and exits 77, which CTest reports as skipped.
#define BOOST_TEST_NO_MAIN
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>

#include "platform/cuda_devices.hpp"
#include "platform/solver_error.hpp"
#include "products/catalog.hpp"
#include "solvers/contract/solver.hpp"
#include "solvers/gpu/emulator/gpu_emulator.hpp"
#include "solvers/gpu/session.hpp"
#include "solvers/problem/problem_builder.hpp"
#include "tests/gpu/gpu_suite_main.hpp"

namespace elsbench {
namespace {

SolverOptions options(const std::string& scheme, int n, int nt, Precision p, const std::string& device = "cuda:0") {
  SolverOptions o;
  o.scheme = scheme;
  o.grid.n = n;
  o.grid.nt = nt;
  o.precision = p;
  o.device = parse_device(device);
  return o;
}

PriceResult price(const std::string& solver, const Product& product, SolverOptions o) {
  if (solver == "adi") o.device = parse_device("cpu");
  return price_with(SolverRegistry::instance().get(solver), product, o);
}

// The problem `adi` and the GPU variants price, on an n x n grid with nt steps.
Problem problem_on(const Product& product, int n, int nt) {
  GridOptions g;
  g.n = n;
  g.nt = nt;
  return build_problem(product, g);
}

bool close(double a, double b, double rel) { return std::abs(a - b) <= rel * std::max(1.0, std::abs(b)); }

// fp64: price, delta and gamma to 1e-9 relative. fp32: the price to 1e-4 relative (about 1000
// roundings of 6e-8 on a march of ~100 steps, with margin; checked on the same arithmetic by the
// unit test gpu_emulation), delta to 1e-3; gamma, a second difference of rounded values, is not
// compared in fp32.
void agree_with_cpu(const std::string& solver, const char* id, int n, int nt, const std::string& scheme, Precision p) {
  const Product product = resolve_product(id);
  const PriceResult cpu = price("adi", product, options(scheme, n, nt, Precision::FP64));
  const PriceResult gpu = price(solver, product, options(scheme, n, nt, p));
  const bool fp64 = p == Precision::FP64;
  const std::string what = solver + " " + id + " " + scheme + (fp64 ? " fp64" : " fp32");
  BOOST_TEST(gpu.time_steps == cpu.time_steps, what);
  BOOST_TEST(close(gpu.price, cpu.price, fp64 ? 1e-9 : 1e-4), what << ": gpu " << gpu.price << " cpu " << cpu.price);
  for (std::size_t d = 0; d < cpu.delta.size(); ++d) {
    BOOST_TEST(close(gpu.delta[d], cpu.delta[d], fp64 ? 1e-9 : 1e-3), what << " delta " << d);
    if (fp64) BOOST_TEST(close(gpu.gamma[d], cpu.gamma[d], 1e-9), what << " gamma " << d);
  }
  BOOST_TEST(gpu.peak_device_bytes > 0u);
  BOOST_TEST(gpu.precision == to_string(p));
}

BOOST_AUTO_TEST_CASE(fp64_agrees_with_cpu_adi_on_the_sample_els) {
  for (const std::string& scheme : adi_scheme_names())
    agree_with_cpu("adi-cuda", "sample-2a-stepdown", 80, 120, scheme, Precision::FP64);
}

// Monthly coupons: a Coupon event on most steps' nodes, through the kernels' moved_value.
BOOST_AUTO_TEST_CASE(fp64_agrees_with_cpu_adi_on_the_monthly_coupon_note) {
  agree_with_cpu("adi-cuda", "monthly-coupon-2a", 60, 120, "hundsdorfer-verwer", Precision::FP64);
}

BOOST_AUTO_TEST_CASE(fp64_agrees_with_cpu_adi_on_the_min_call) {
  for (const std::string& scheme : adi_scheme_names())
    agree_with_cpu("adi-cuda", "min-call", 80, 60, scheme, Precision::FP64);
}

// Production sizes: several lines per axis-0 block (n = 300), more than 32 chunks per line
// (n = 600, 1000), and a line whose axis-0 block needs the >48 KiB shared-memory opt-in (a 1-D
// grid of 5400 nodes in fp64, 10800 in fp32); the same sizes as the emulation tests.
BOOST_AUTO_TEST_CASE(agrees_with_cpu_adi_at_production_sizes) {
  for (Precision p : {Precision::FP64, Precision::FP32}) {
    for (int n : {300, 600, 1000}) agree_with_cpu("adi-cuda", "sample-2a-stepdown", n, 60, "hundsdorfer-verwer", p);
    agree_with_cpu("adi-cuda", "european-call", p == Precision::FP64 ? 5400 : 10800, 50, "hundsdorfer-verwer", p);
  }
}

BOOST_AUTO_TEST_CASE(fp64_agrees_in_one_dimension) {
  agree_with_cpu("adi-cuda", "els-1a-stepdown", 200, 100, "hundsdorfer-verwer", Precision::FP64);
  agree_with_cpu("adi-cuda", "european-call", 200, 50, "craig-sneyd", Precision::FP64);
}

BOOST_AUTO_TEST_CASE(fp32_within_tolerance) {
  for (const std::string& scheme : adi_scheme_names())
    agree_with_cpu("adi-cuda", "sample-2a-stepdown", 80, 120, scheme, Precision::FP32);
  agree_with_cpu("adi-cuda", "min-call", 80, 60, "hundsdorfer-verwer", Precision::FP32);
}

// Every node of both layers (not-knocked-in and knocked-in) equals the CPU emulation of the
// kernels, which the unit tests tie to the CPU `adi` solver: autocalls and knock-ins happened at
// the same nodes and dates.
void whole_grid_equals_emulation(const Product& product, const std::string& scheme) {
  const Problem pb = problem_on(product, 60, 150);
  GpuMarchSession session(SolverRegistry::instance().get("adi-cuda").gpu, pb, adi_scheme(scheme), 0, Precision::FP64);
  session.march();
  const std::vector<double> gpu = session.values(true);
  const std::vector<double> emulated = gpu::emulate_adi_cuda<double>(pb, session.plan());
  BOOST_REQUIRE_EQUAL(gpu.size(), emulated.size());
  double worst = 0, scale = 0;
  for (std::size_t i = 0; i < gpu.size(); ++i) {
    worst = std::max(worst, std::abs(gpu[i] - emulated[i]));
    scale = std::max(scale, std::abs(emulated[i]));
  }
  BOOST_TEST(worst <= 1e-10 * scale, product.id << " " << scheme << ": max difference " << worst);
}

BOOST_AUTO_TEST_CASE(events_and_knock_in_identical_on_every_node) {
  const Product daily = resolve_product("sample-2a-stepdown");
  for (const std::string& scheme : adi_scheme_names()) whole_grid_equals_emulation(daily, scheme);
  Product continuous = daily;
  continuous.els().knock_in.monitoring = Monitoring::Continuous;
  whole_grid_equals_emulation(continuous, "hundsdorfer-verwer");
}

BOOST_AUTO_TEST_CASE(a_second_march_repeats_the_first) {
  const Product product = resolve_product("sample-2a-stepdown");
  const Problem pb = problem_on(product, 40, 80);
  GpuMarchSession session(SolverRegistry::instance().get("adi-cuda").gpu, pb, adi_scheme("modified-craig-sneyd"), 0, Precision::FP64);
  session.march();
  const std::vector<double> first = session.values(true);
  BOOST_TEST(session.march() > 0.0);
  BOOST_TEST(session.values(true) == first);  // deterministic: no atomics, fixed reduction order
}

// Three value buffers (two layers each) and one weight array per distinct event barrier, plus
// arrays of n values per axis and one record per step (well under 1 MB here).
BOOST_AUTO_TEST_CASE(peak_device_bytes_counts_every_allocation) {
  const Product product = resolve_product("sample-2a-stepdown");
  const Problem pb = problem_on(product, 100, 50);
  const std::size_t weight_arrays = pb.event_weights.size();
  const PriceResult r = price("adi-cuda", product, options("douglas", 100, 50, Precision::FP64));
  const std::size_t points = 100u * 100u, grids = 3 * 2 * points * sizeof(double) + weight_arrays * points * sizeof(double);
  BOOST_TEST(r.peak_device_bytes >= grids);
  BOOST_TEST(r.peak_device_bytes < grids + (1u << 20));
}

BOOST_AUTO_TEST_CASE(a_missing_device_is_a_clear_error) {
  const int count = static_cast<int>(cuda_devices().size());
  const Product product = resolve_product("min-call");
  for (const char* solver : {"adi-cuda", "adi-cusparse", "adi-cusparse-interleaved"}) {
    try {
      price(solver, product, options("douglas", 20, 10, Precision::FP64, "cuda:" + std::to_string(count)));
      BOOST_ERROR(solver << " priced on a device that does not exist");
    } catch (const SolverError& e) {
      const std::string msg = e.what();
      BOOST_TEST((e.kind() == SolverError::Kind::Unavailable));
      BOOST_TEST(msg.find("cuda:" + std::to_string(count)) != std::string::npos, msg);
      BOOST_TEST(msg.find(std::to_string(count) + " CUDA device") != std::string::npos, msg);
    }
  }
}

BOOST_AUTO_TEST_CASE(the_variants_are_listed_as_available) {
  for (const char* solver : {"adi-cuda", "adi-cusparse", "adi-cusparse-interleaved"}) {
    const SolverInfo& s = SolverRegistry::instance().get(solver);
    BOOST_TEST(s.unavailable_reason().empty(), solver);
    BOOST_TEST(s.supports(Precision::FP32));
    BOOST_TEST(s.supports(Precision::FP64));
  }
}

}  // namespace
}  // namespace elsbench

int main(int argc, char* argv[]) { return elsbench::test::gpu_suite_main("adi_cuda", argc, argv); }
