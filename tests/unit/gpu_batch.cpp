// The batched GPU book march (solvers/gpu/plan/gpu_batch.hpp) run in the CPU emulation: every note
// of a generated book, 1- and 2-asset, of different schedules (so shorter notes idle after their
// last step), marched in one batch by the kernels' block programs, each block located in its note
// by the batch's prefix sums. Each note must equal its one-note emulation bit for bit (the batch
// changes where a block works, not what it computes) and the CPU `adi` pricing to 1e-12, as must
// the on-chip march of the same batch.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <set>

#include "products/book_generator.hpp"
#include "solvers/contract/solver.hpp"
#include "solvers/gpu/emulator/gpu_emulator.hpp"
#include "solvers/gpu/kernels/batch_blocks.hpp"
#include "solvers/gpu/plan/gpu_batch.hpp"
#include "solvers/problem/problem_builder.hpp"
#include "solvers/problem/spot_values.hpp"

namespace elsbench::gpu {
namespace {

// Notes of a generated book that the GPU variants take (1 or 2 underlyings), in book order.
std::vector<Product> gpu_notes(int notes, std::uint64_t seed) {
  std::vector<Product> out;
  for (Product& p : generate_book({notes, 0, seed}))
    if (p.dimension() <= 2) out.push_back(std::move(p));
  return out;
}

double relative(double a, double b) { return std::abs(a - b) / std::max(1.0, std::abs(b)); }

void batch_equals_each_note(const std::string& scheme, int n) {
  const std::vector<Product> book = gpu_notes(10, 5);
  SolverOptions opt;
  opt.scheme = scheme;
  opt.grid.n = n;
  const SolverInfo& adi = SolverRegistry::instance().get("adi");
  std::vector<Problem> problems;
  for (const Product& p : book) problems.push_back(build_problem(p, opt.grid, adi.stepping));
  const std::vector<const Problem*> batch = pointers_to(problems);
  const GpuBatchPlan plan = make_gpu_batch_plan(batch, adi_scheme(scheme), sizeof(double));

  // The book exercises what the batch must handle: both dimensions, layers and schedules of
  // different lengths.
  std::set<int> dims, layers;
  std::set<std::size_t> steps;
  for (const GpuPlan& p : plan.notes) {
    dims.insert(p.dim);
    layers.insert(p.layers);
    steps.insert(p.steps.size());
  }
  BOOST_TEST_REQUIRE(dims.size() == 2u);
  BOOST_TEST_REQUIRE(steps.size() > 1u);
  BOOST_TEST(plan.max_steps == static_cast<int>(*steps.rbegin()));

  const std::vector<std::vector<double>> batched = emulate_adi_cuda_batch<double>(batch, plan);
  BOOST_TEST_REQUIRE(batched.size() == book.size());
  // The on-chip march of the same batch (unit.gpu_on_chip has its own suite; this one also runs
  // under the sanitizers).
  const OnChipEmulation on_chip = emulate_book_on_chip<double>(batch, plan, false);
  BOOST_TEST_REQUIRE(on_chip.values.size() == book.size());
  for (std::size_t k = 0; k < book.size(); ++k) {
    BOOST_TEST_CONTEXT(scheme << " note " << book[k].id << " (" << book[k].dimension() << " assets, "
                              << plan.notes[k].steps.size() << " steps, " << plan.notes[k].layers << " layers)") {
      const std::vector<double> alone = emulate_adi_cuda<double>(problems[k], plan.notes[k]);
      BOOST_TEST(batched[k] == alone, boost::test_tools::per_element());
      const SpotValues cpu = spot_values(problems[k], adi.march(problems[k], opt).values);
      const SpotValues at = spot_values(problems[k], batched[k]);
      BOOST_TEST(relative(at.price, cpu.price) <= 1e-12, "price " << at.price << " cpu " << cpu.price);
      const double on_chip_price = spot_values(problems[k], on_chip.values[k]).price;
      BOOST_TEST(relative(on_chip_price, cpu.price) <= 1e-12, "on-chip " << on_chip_price << " cpu " << cpu.price);
      for (std::size_t d = 0; d < at.delta.size(); ++d) {
        BOOST_TEST(relative(at.delta[d], cpu.delta[d]) <= 1e-12, "delta " << at.delta[d] << " cpu " << cpu.delta[d]);
        BOOST_TEST(relative(at.gamma[d], cpu.gamma[d]) <= 1e-12, "gamma " << at.gamma[d] << " cpu " << cpu.gamma[d]);
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(a_batched_book_march_equals_each_notes_march_and_the_cpu_pricing) {
  batch_equals_each_note("hundsdorfer-verwer", 20);
  batch_equals_each_note("douglas", 20);
}

BOOST_AUTO_TEST_CASE(a_block_of_a_batched_launch_finds_its_note_past_notes_without_blocks) {
  // Blocks per note on one axis: 3, 0 (a 1-D note on axis 1), 2, 0.
  const long long first[] = {0, 3, 3, 5, 5};
  const int expected[] = {0, 0, 0, 2, 2};
  for (long long b = 0; b < 5; ++b) BOOST_TEST(note_of_block(first, 4, b) == expected[b], "block " << b);
}

BOOST_AUTO_TEST_CASE(a_book_s_problems_built_side_by_side_equal_each_note_s_own) {
  // The GPU book's host set-up builds its notes' problems on every thread (build_problems): each
  // equals the note's own build_problem to the bit (its per-node weights formed from its
  // fractions: build_problems leaves them out), and a note that fails is rethrown.
  const std::vector<Product> book = generate_book({6, 0, 4});
  std::vector<const Product*> notes;
  for (const Product& p : book) notes.push_back(&p);
  GridOptions g;
  g.n = 24;
  const TimeStepping stepping = SolverRegistry::instance().get("adi").stepping;
  const std::vector<Problem> built = build_problems(notes, g, stepping);
  BOOST_TEST_REQUIRE(built.size() == notes.size());
  for (std::size_t k = 0; k < notes.size(); ++k) {
    const Problem one = build_problem(*notes[k], g, stepping);
    BOOST_TEST(built[k].initial == one.initial, "note " << k);
    BOOST_TEST_REQUIRE(built[k].event_fractions.size() == one.event_fractions.size(), "note " << k);
    BOOST_TEST(built[k].event_weights.empty(), "note " << k);  // formed from the fractions where needed
    for (std::size_t side = 0; side < one.event_fractions.size(); ++side) {
      BOOST_TEST(built[k].event_fractions[side].per_axis == one.event_fractions[side].per_axis, "note " << k);
      BOOST_TEST(node_weights(built[k], built[k].event_fractions[side]) == one.event_weights[side], "note " << k);
    }
    BOOST_TEST(built[k].time.steps() == one.time.steps(), "note " << k);
  }
  std::atomic<std::size_t> checked{0};
  const auto refuse_note_3 = [&](std::size_t note, std::size_t, double) {
    if (note == 3) throw std::length_error("note 3 refused");
    ++checked;
  };
  BOOST_CHECK_THROW(build_problems(notes, g, stepping, refuse_note_3), std::length_error);
  BOOST_TEST(checked.load() == notes.size() - 1);  // every other note was still tried
}

}  // namespace
}  // namespace elsbench::gpu
