// The adi-cuda kernels' code run on the CPU (solvers/gpu/emulator/gpu_emulator.hpp): the chunked tridiagonal
// solve against the CPU's Thomas solve, and whole marches against the CPU `adi` solver, for every
// scheme, in fp64 and fp32, up to production sizes. The emulator runs the threads of each phase,
// the lanes of a warp and the blocks in a random order, and fills shared memory and the unwritten
// value buffers with NaN, so that a missing barrier or a read before a write fails here. This checks the kernels' index arithmetic and formulas on a machine
// without a GPU; the GPU suites (tests/gpu/) then compare the GPU with this emulation.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <random>

#include "products/catalog.hpp"
#include "solvers/contract/solver.hpp"
#include "solvers/gpu/emulator/gpu_emulator.hpp"
#include "solvers/gpu/plan/gpu_plan.hpp"
#include "solvers/problem/problem_builder.hpp"
#include "solvers/problem/spot_values.hpp"
#include "solvers/tridiagonal/line_solve.hpp"

namespace elsbench::gpu {
namespace {

double max_abs_diff(const std::vector<double>& a, const std::vector<double>& b) {
  double m = 0;
  for (std::size_t i = 0; i < a.size(); ++i) m = std::max(m, std::abs(a[i] - b[i]));
  return m;
}

double max_abs(const std::vector<double>& a) {
  double m = 0;
  for (double x : a) m = std::max(m, std::abs(x));
  return m;
}

std::vector<double> random_values(std::size_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(-100.0, 100.0);
  std::vector<double> v(n);
  for (double& x : v) x = u(gen);
  return v;
}

BOOST_AUTO_TEST_CASE(chunked_solve_equals_thomas) {
  const Product product = resolve_product("sample-2a-stepdown");
  // Lines shorter than, equal to, just over a chunk, and many chunks (more than 32: several per lane).
  for (int n : {4, 7, 16, 17, 33, 100, 513, 1200}) {
    GridOptions g;
    g.n = n;
    const Problem pb = build_problem(product, g);
    for (int axis = 0; axis < 2; ++axis) {
      for (double theta_dt : {0.5 / 252, 1.0 / 50, 0.3}) {
        std::vector<double> chunked = random_values(pb.values(), static_cast<unsigned>(n + axis));
        std::vector<double> thomas = chunked;
        solve_axis(pb, axis, factor_axis(pb.axes[static_cast<std::size_t>(axis)].op, theta_dt), thomas.data());
        emulate_chunked_solve(pb, axis, theta_dt, chunked);
        BOOST_TEST(max_abs(thomas) > 0.0);
        BOOST_TEST(max_abs_diff(chunked, thomas) <= 1e-12 * max_abs(thomas),
                   "n " << n << " axis " << axis << " theta dt " << theta_dt << ": "
                        << max_abs_diff(chunked, thomas));
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(warp_carries_equal_the_sequential_recurrences) {
  for (int K : {1, 5, 31, 32, 33, 64, 100, 250}) {
    std::mt19937 gen(static_cast<unsigned>(K));
    std::uniform_real_distribution<double> u(-1.0, 1.0), c(-0.9, 0.9);
    std::vector<double> z(static_cast<std::size_t>(K)), v(z.size()), G(z.size()), Q(z.size()), H(z.size());
    for (std::size_t k = 0; k < z.size(); ++k) {
      z[k] = u(gen);
      v[k] = u(gen);
      G[k] = c(gen);
      Q[k] = c(gen);
      H[k] = c(gen);
    }
    // Sequential: Yc_k = Z_k + G_k Yc_{k-1}; Xs_k = V_k + Q_k Yc_{k-1} + H_k Xs_{k+1}.
    std::vector<double> yc(z.size()), xs(z.size());
    for (std::size_t k = 0; k < z.size(); ++k) yc[k] = z[k] + G[k] * (k ? yc[k - 1] : 0.0);
    for (std::size_t k = z.size(); k-- > 0;)
      xs[k] = v[k] + Q[k] * (k ? yc[k - 1] : 0.0) + H[k] * (k + 1 < z.size() ? xs[k + 1] : 0.0);
    ChunkTable<double> t{};
    t.G = G.data();
    t.Q = Q.data();
    t.H = H.data();
    t.chunks = K;
    emulate_warp_carries(z.data(), v.data(), t);
    BOOST_TEST(max_abs_diff(z, yc) <= 1e-13, "K " << K);
    BOOST_TEST(max_abs_diff(v, xs) <= 1e-13, "K " << K);
  }
}

struct Case {
  const char* product;
  int n, nt;
};

// Price, delta and gamma of the emulated march and of the CPU `adi` solver on the same grid.
void compare_with_cpu(const Product& product, int n, int nt, const std::string& scheme, bool fp32,
                      int damping_steps = GridOptions{}.damping_steps, double fp32_delta_tol = 1e-3) {
  SolverOptions opt;
  opt.scheme = scheme;
  opt.grid.n = n;
  opt.grid.nt = nt;
  opt.grid.damping_steps = damping_steps;
  const SolverInfo& adi = SolverRegistry::instance().get("adi");
  const Problem pb = build_problem(product, opt.grid, adi.stepping);
  const SpotValues cpu = spot_values(pb, adi.march(pb, opt).values);
  const GpuPlan plan = make_gpu_plan(pb, adi_scheme(scheme));
  const std::vector<double> values = fp32 ? emulate_adi_cuda<float>(pb, plan) : emulate_adi_cuda<double>(pb, plan);
  const SpotValues at = spot_values(pb, values);
  const double tol = fp32 ? 1e-4 : 1e-11;
  BOOST_TEST_MESSAGE(product.id << " " << scheme << (fp32 ? " fp32" : " fp64") << ": emulated " << at.price
                                << " cpu " << cpu.price << " relative difference "
                                << std::abs(at.price - cpu.price) / std::abs(cpu.price));
  BOOST_TEST(std::abs(at.price - cpu.price) <= tol * std::abs(cpu.price),
             product.id << " " << scheme << (fp32 ? " fp32" : " fp64") << ": emulated " << at.price
                        << " cpu " << cpu.price);
  for (std::size_t d = 0; d < at.delta.size(); ++d) {
    BOOST_TEST_MESSAGE("  delta " << d << " relative difference "
                                  << std::abs(at.delta[d] - cpu.delta[d]) / std::max(1.0, std::abs(cpu.delta[d])));
    // fp32: the GPU tests' delta tolerance (1e-3), checked on the same arithmetic.
    BOOST_TEST(std::abs(at.delta[d] - cpu.delta[d]) <= (fp32 ? fp32_delta_tol : 1e-9) * std::max(1.0, std::abs(cpu.delta[d])));
    if (!fp32) BOOST_TEST(std::abs(at.gamma[d] - cpu.gamma[d]) <= 1e-9 * std::max(1.0, std::abs(cpu.gamma[d])));
  }
}

BOOST_AUTO_TEST_CASE(emulated_march_equals_cpu_adi_fp64) {
  const Case cases[] = {{"sample-2a-stepdown", 40, 90}, {"min-call", 33, 40},
                        {"els-1a-stepdown", 50, 80}, {"european-call", 60, 30}};
  for (const Case& c : cases)
    for (const std::string& scheme : adi_scheme_names())
      compare_with_cpu(resolve_product(c.product), c.n, c.nt, scheme, false);
}

BOOST_AUTO_TEST_CASE(emulated_march_with_continuous_knock_in) {
  Product product = resolve_product("sample-2a-stepdown");
  product.els().knock_in.monitoring = Monitoring::Continuous;
  compare_with_cpu(product, 30, 60, "hundsdorfer-verwer", false);
  compare_with_cpu(product, 30, 60, "douglas", false);
}

// fp32 keeps the discretisation and rounds every operation to 24 bits: the tolerance of the GPU
// tests (1e-4 relative on the price) is checked here on the same arithmetic.
BOOST_AUTO_TEST_CASE(emulated_march_fp32_within_tolerance) {
  for (const std::string& scheme : adi_scheme_names())
    compare_with_cpu(resolve_product("sample-2a-stepdown"), 40, 120, scheme, true);
  compare_with_cpu(resolve_product("min-call"), 40, 60, "hundsdorfer-verwer", true);
}

// Production sizes, where the launch geometry differs from the small grids above: at n = 300
// an axis-0 block holds several lines, past n = 512 a line has more than 32 chunks (several per
// lane in the carry scan; the chunked solve alone is checked at n = 513 and 1200 above), and the
// blocks have more threads than one warp. Few steps cover every block program: the sample's daily
// knock-in monitoring would put a step on every day (756 steps, hours of emulation at n = 1000),
// so the knock-in is monitored continuously instead (its copy is in every step's events) with
// 12 steps, two per observation period: a damped step (one round) after each autocall date, then
// an HV step (two rounds).
void production_size(int n, bool fp32) {
  Product els = resolve_product("sample-2a-stepdown");
  els.els().knock_in.monitoring = Monitoring::Continuous;
  GridOptions g;
  g.n = n;
  g.nt = 12;
  g.damping_steps = 1;
  const GpuPlan plan = make_gpu_plan(build_problem(els, g), adi_scheme("hundsdorfer-verwer"));
  const std::size_t elem = fp32 ? sizeof(float) : sizeof(double);
  const StageLayout l0 = stage_layout(plan, 0, elem), l1 = stage_layout(plan, 1, elem);
  BOOST_TEST_MESSAGE("n " << n << (fp32 ? " fp32" : " fp64") << ": " << plan.steps.size() << " steps; axis 0 "
                          << l0.lines_per_block << " lines x " << l0.chunks << " chunks per block of " << l0.threads
                          << " threads, axis 1 " << l1.lines_per_block << " lines per block of " << l1.threads
                          << " threads");
  BOOST_TEST(plan.steps.size() < 40u);
  const auto two_rounds = std::count_if(plan.steps.begin(), plan.steps.end(), [](const GpuStep& s) { return s.two_rounds(); });
  BOOST_TEST(two_rounds > 0);
  BOOST_TEST(two_rounds < static_cast<long>(plan.steps.size()));
  if (n == 300) BOOST_TEST(l0.lines_per_block > 1);
  if (n > 512) BOOST_TEST(l0.chunks > kWarp);
  BOOST_TEST(l0.threads > kWarp);
  BOOST_TEST(l1.threads > kWarp);
  // fp32 deltas: the rounding of the values (1e-6 relative, as the price shows) is divided by the
  // node spacing, which shrinks as n grows: 5e-5, 4e-4 and 1.4e-3 relative at n = 300, 600 and
  // 1000 here, while fp64 agrees to 1e-12 on the same code. The tolerance grows with n^2 from the
  // GPU tests' 1e-3 at n <= 300.
  const double fp32_delta_tol = 1e-3 * std::max(1.0, (n / 300.0) * (n / 300.0));
  compare_with_cpu(els, n, g.nt.value(), "hundsdorfer-verwer", fp32, g.damping_steps, fp32_delta_tol);
}

BOOST_AUTO_TEST_CASE(emulated_march_at_n_300) { production_size(300, false); }

// Minutes on two cores (measured: docs/testing.md): run by the slow-labelled CTest entry slow.gpu_emulation_large
// (tests/CMakeLists.txt), which names it.
BOOST_AUTO_TEST_CASE(emulated_march_at_n_600_and_1000, *boost::unit_test::disabled()) {
  production_size(300, true);
  for (int n : {600, 1000})
    for (bool fp32 : {false, true}) production_size(n, fp32);
}

// A line long enough that the axis-0 block needs more than the 48 KiB of shared memory every GPU
// gives without opting in (the kernels then call cudaFuncSetAttribute): a 1-D grid keeps it cheap.
BOOST_AUTO_TEST_CASE(emulated_march_in_the_opt_in_shared_memory_layout) {
  const Product call = resolve_product("european-call");
  GridOptions g;
  g.n = 5400;
  const GpuPlan plan = make_gpu_plan(build_problem(call, g), adi_scheme("hundsdorfer-verwer"));
  BOOST_TEST(stage_layout(plan, 0, sizeof(double)).smem_bytes > 48u * 1024u);
  for (const std::string& scheme : adi_scheme_names()) compare_with_cpu(call, 5400, 20, scheme, false);
}

}  // namespace
}  // namespace elsbench::gpu
