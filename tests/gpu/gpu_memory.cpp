// Device memory accounting of the GPU variants: an allocation beyond the device's memory is a
// SolverError(OutOfMemory) that names the bytes and the free/total memory, and the device stays
// usable afterwards. Needs a CUDA device: without one the suite exits 77 (skipped).
#define BOOST_TEST_NO_MAIN
#include <boost/test/unit_test.hpp>

#include "platform/cuda_devices.hpp"
#include "platform/solver_error.hpp"
#include "products/catalog.hpp"
#include "solvers/contract/solver.hpp"
#include "solvers/gpu/session.hpp"
#include "solvers/problem/problem_builder.hpp"
#include "tests/gpu/gpu_suite_main.hpp"
#ifdef ELSBENCH_HAVE_CUDA
#include "platform/cuda/device_memory.hpp"
#endif

namespace elsbench {
namespace {

#ifdef ELSBENCH_HAVE_CUDA
BOOST_AUTO_TEST_CASE(out_of_memory_is_a_clear_error) {
  gpu::DeviceAllocator alloc;
  gpu::DeviceArray<double> kept(alloc, 1000, "kept");
  const std::size_t huge = std::size_t{1} << 52;  // 4 PiB
  try {
    gpu::DeviceArray<double> too_big(alloc, huge / sizeof(double), "a test array");
    BOOST_ERROR("a 4 PiB allocation succeeded");
  } catch (const SolverError& e) {
    const std::string msg = e.what();
    BOOST_TEST((e.kind() == SolverError::Kind::OutOfMemory));
    BOOST_TEST(msg.find(std::to_string(huge)) != std::string::npos, msg);
    BOOST_TEST(msg.find("free") != std::string::npos, msg);
    BOOST_TEST(msg.find("a test array") != std::string::npos, msg);
  }
  BOOST_TEST(alloc.current() == 1000 * sizeof(double));
  BOOST_TEST(alloc.peak() == 1000 * sizeof(double));
  // The failure left the device usable: a pricing still works.
  SolverOptions o;
  o.grid.n = 20;
  o.grid.nt = 10;
  o.device = parse_device("cuda:0");
  const PriceResult r = price_with(SolverRegistry::instance().get("adi-cuda"), resolve_product("min-call"), o);
  BOOST_TEST(r.price > 0.0);
}

// The measured drop of free device memory (cudaMemGetInfo around the session) covers what is
// counted, and its excess over the count (library workspaces, graphs, allocation granularity)
// is printed for every variant, against the variant's memory model.
BOOST_AUTO_TEST_CASE(measured_device_memory_covers_the_counted_arrays) {
  const Product product = resolve_product("sample-2a-stepdown");
  for (const SolverInfo& s : SolverRegistry::instance().all()) {
    if (!s.gpu || s.test_only) continue;
    for (Precision p : {Precision::FP64, Precision::FP32}) {
      GridOptions g;
      g.n = 1000;
      g.nt = 20;
      const Problem pb = build_problem(product, g, s.stepping);
      GpuMarchSession session(s.gpu, pb, adi_scheme("hundsdorfer-verwer"), 0, p);
      session.march();
      const double counted = static_cast<double>(session.peak_device_bytes());
      const double measured = static_cast<double>(session.measured_device_bytes());
      BOOST_TEST_MESSAGE(s.name << " " << to_string(p) << " n 1000: counted " << counted * 1e-6 << " MB, measured "
                                << measured * 1e-6 << " MB");
      BOOST_TEST(measured >= counted, s.name << " " << to_string(p));
    }
  }
}
#endif

}  // namespace
}  // namespace elsbench

int main(int argc, char* argv[]) { return elsbench::test::gpu_suite_main("gpu_memory", argc, argv); }
