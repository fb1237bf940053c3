// adi-cuda's book marches (march_book: every note of a book's share in one batch; the on-chip
// persistent kernel and the per-step batched launches) against the CPU `adi` pricing and the
// one-note adi-cuda march, on a generated book of 1- and 2-asset notes of different schedules.
// Needs a CUDA device: without one the suite exits 77 (skipped); the kernels' bodies are checked
// without one by unit.gpu_on_chip and unit.gpu_batch (CPU emulation).
#define BOOST_TEST_NO_MAIN
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "products/book_generator.hpp"
#include "solvers/contract/price.hpp"
#include "solvers/contract/solver.hpp"
#include "tests/gpu/gpu_suite_main.hpp"

namespace elsbench {
namespace {

bool close(double a, double b, double rel) { return std::abs(a - b) <= rel * std::max(1.0, std::abs(b)); }

// One book priced by adi-cuda's march_book as ELSBENCH_BOOK_MARCH selects it (on-chip: the
// persistent kernel, batched: per-step launches), against the CPU `adi` and the one-note march.
void book_on_the_gpu(const char* march, int n, Precision precision, double tolerance) {
  BOOST_TEST_MESSAGE(march << ", n = " << n << ", " << to_string(precision));
  setenv("ELSBENCH_BOOK_MARCH", march, 1);
  std::vector<Product> book;
  for (Product& p : generate_book({24, 0, 17}))
    if (p.dimension() <= 2) book.push_back(std::move(p));
  std::vector<const Product*> notes;
  for (const Product& p : book) notes.push_back(&p);
  SolverOptions gpu;
  gpu.grid.n = n;
  gpu.precision = precision;
  gpu.device = parse_device("cuda:0");
  SolverOptions cpu = gpu;
  cpu.device = parse_device("cpu");
  cpu.precision = Precision::FP64;
  const SolverInfo& adi_cuda = SolverRegistry::instance().get("adi-cuda");
  BOOST_TEST_REQUIRE(static_cast<bool>(adi_cuda.march_book));
  const std::vector<PriceResult> batched = price_book_with(adi_cuda, notes, gpu);
  BOOST_TEST_REQUIRE(batched.size() == notes.size());
  BOOST_TEST_REQUIRE(batched.front().batch_times.has_value());
  BOOST_TEST(batched.front().batch_times->march > 0);
  BOOST_TEST_MESSAGE(batched.front().notes.back());
  for (std::size_t k = 0; k < notes.size(); ++k) {
    BOOST_TEST_CONTEXT(march << " n = " << n << " " << notes[k]->id) {
      const PriceResult alone = price_with(adi_cuda, *notes[k], gpu);
      const PriceResult on_cpu = price_with(SolverRegistry::instance().get("adi"), *notes[k], cpu);
      BOOST_TEST(close(batched[k].price, alone.price, precision == Precision::FP64 ? 1e-12 : tolerance));
      BOOST_TEST(close(batched[k].price, on_cpu.price, tolerance));
      for (std::size_t d = 0; d < on_cpu.delta.size(); ++d) {
        BOOST_TEST(close(batched[k].delta[d], on_cpu.delta[d], tolerance));
        BOOST_TEST(close(batched[k].gamma[d], on_cpu.gamma[d], tolerance));
      }
    }
  }
}

// n = 80 keeps an fp64 note in shared memory, n = 100 sends it to the global path.
BOOST_AUTO_TEST_CASE(the_on_chip_book_march_gives_each_notes_cpu_and_single_gpu_prices) {
  book_on_the_gpu("on-chip", 80, Precision::FP64, 1e-9);
  book_on_the_gpu("on-chip", 100, Precision::FP64, 1e-9);
  book_on_the_gpu("on-chip", 100, Precision::FP32, 5e-4);
}

BOOST_AUTO_TEST_CASE(a_batched_book_on_the_gpu_gives_each_notes_cpu_and_single_gpu_prices) {
  book_on_the_gpu("batched", 80, Precision::FP64, 1e-9);
}

}  // namespace
}  // namespace elsbench

int main(int argc, char* argv[]) { return elsbench::test::gpu_suite_main("book_batch", argc, argv); }
