// The on-chip book march (solvers/gpu/kernels/note_march.hpp), its kernel body run by the CPU
// emulator's CTA (solvers/gpu/emulator/cta_emulator.hpp): a 64-note generated book of one- and
// two-asset notes (both schemes' step kinds, knock-in layers, schedules of different lengths)
// must price as the CPU `adi` does to 1e-12 in fp64 (mixed: 1e-8); checked runs must find no race and the
// bank wavefronts the layout was padded for; and the checker must see the races and conflicts
// planted in small bodies, or its silence would prove nothing.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <set>

#include "products/book_generator.hpp"
#include "solvers/contract/solver.hpp"
#include "solvers/gpu/emulator/gpu_emulator.hpp"
#include "solvers/gpu/kernels/note_march.hpp"
#include "solvers/gpu/plan/gpu_batch.hpp"
#include "solvers/gpu/plan/on_chip_plan.hpp"
#include "solvers/problem/problem_builder.hpp"
#include "solvers/problem/spot_values.hpp"

namespace elsbench::gpu {
namespace {

double relative(double a, double b) { return std::abs(a - b) / std::max(1.0, std::abs(b)); }

// The first `notes` notes of a mixed generated book with `least` to `most` assets.
std::vector<Product> gpu_notes(int notes, std::uint64_t seed, int least = 1, int most = 2) {
  std::vector<Product> out;
  for (Product& p : generate_book({8 * notes, 0, seed}))
    if (p.dimension() >= least && p.dimension() <= most && static_cast<int>(out.size()) < notes)
      out.push_back(std::move(p));
  BOOST_TEST_REQUIRE(static_cast<int>(out.size()) == notes);
  return out;
}

struct Book {
  std::vector<Problem> problems;
  std::vector<const Problem*> batch;
  GpuBatchPlan plan;
  SolverOptions opt;
};

Book book_of(const std::vector<Product>& notes, const std::string& scheme, int n, std::size_t element_bytes,
             std::vector<int> axis_nodes = {}) {
  Book b;
  b.opt.scheme = scheme;
  b.opt.grid.n = n;
  b.opt.grid.axis_nodes = std::move(axis_nodes);
  const SolverInfo& adi = SolverRegistry::instance().get("adi");
  for (const Product& p : notes) b.problems.push_back(build_problem(p, b.opt.grid, adi.stepping));
  b.batch = pointers_to(b.problems);
  b.plan = make_gpu_batch_plan(b.batch, adi_scheme(scheme), element_bytes);
  return b;
}

// Each note's price, deltas and gammas from the emulated march against the CPU `adi`'s.
void prices_agree(const Book& b, const OnChipEmulation& on_chip, double tolerance) {
  const SolverInfo& adi = SolverRegistry::instance().get("adi");
  BOOST_TEST_REQUIRE(on_chip.values.size() == b.problems.size());
  for (std::size_t k = 0; k < b.problems.size(); ++k) {
    const Problem& pb = b.problems[k];
    BOOST_TEST_CONTEXT("note " << k << " (" << pb.dim << " assets, " << b.plan.notes[k].steps.size() << " steps, "
                               << pb.layers << " layers)") {
      const SpotValues cpu = spot_values(pb, adi.march(pb, b.opt).values);
      const SpotValues at = spot_values(pb, on_chip.values[k]);
      BOOST_TEST(relative(at.price, cpu.price) <= tolerance,
                 "price " << at.price << " cpu " << cpu.price << " (" << relative(at.price, cpu.price) << ")");
      for (std::size_t d = 0; d < at.delta.size(); ++d) {
        BOOST_TEST(relative(at.delta[d], cpu.delta[d]) <= tolerance, "delta " << at.delta[d] << " cpu " << cpu.delta[d]);
        BOOST_TEST(relative(at.gamma[d], cpu.gamma[d]) <= tolerance, "gamma " << at.gamma[d] << " cpu " << cpu.gamma[d]);
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(a_64_note_book_marched_on_chip_prices_as_the_cpu_adi_to_1e_12) {
  const Book b = book_of(gpu_notes(64, 3), "hundsdorfer-verwer", 16, sizeof(double));
  std::set<int> dims, layers;
  for (const GpuPlan& p : b.plan.notes) {
    dims.insert(p.dim);
    layers.insert(p.layers);
  }
  BOOST_TEST_REQUIRE(dims.size() == 2u);
  BOOST_TEST_REQUIRE(layers.size() == 2u);
  prices_agree(b, emulate_book_on_chip<double>(b.batch, b.plan, false), 1e-12);
}

// Monthly coupons (a Coupon event on most redemption-free months, one in the payoff at maturity)
// march on chip as on the CPU, in fp64 and mixed.
BOOST_AUTO_TEST_CASE(monthly_coupon_notes_march_on_chip_as_the_cpu_adi) {
  std::vector<Product> notes;
  for (Product& p : generate_book({24, 0, 5, BookFamily::Monthly}))
    if (p.dimension() <= 2 && notes.size() < 8) notes.push_back(std::move(p));
  BOOST_TEST_REQUIRE(notes.size() == 8u);
  Book b = book_of(notes, "hundsdorfer-verwer", 16, sizeof(double));
  prices_agree(b, emulate_book_on_chip<double>(b.batch, b.plan, false), 1e-12);
  prices_agree(b, emulate_book_on_chip<double, float>(b.batch, b.plan, false), 1e-8);
}

// Mixed (fp64 values, fp32 increments) against the CPU adi's mixed march and its fp64 march: both
// within 1e-8 (about 2e-9 seen: the increments' rounding differs, fp32's own is 2e-4 above).
BOOST_AUTO_TEST_CASE(mixed_on_chip_prices_as_the_cpu_adis_mixed_march) {
  Book b = book_of(gpu_notes(12, 11), "hundsdorfer-verwer", 24, sizeof(double));
  const OnChipEmulation run = emulate_book_on_chip<double, float>(b.batch, b.plan, false);
  prices_agree(b, run, 1e-8);
  b.opt.precision = Precision::Mixed;
  prices_agree(b, run, 1e-8);
}

// Three underlyings: row r = i1 + n1 i2, the third axis's lines n1 rows apart, the three pairs'
// mixed terms; a book of three-asset notes (axes of 11, 10 and 9 nodes, so that no two axes can
// stand in for each other) in fp64 and mixed, and a checked march's first steps.
BOOST_AUTO_TEST_CASE(three_asset_notes_march_on_chip_as_the_cpu_adi) {
  Book b = book_of(gpu_notes(3, 17, 3, 3), "hundsdorfer-verwer", 11, sizeof(double), {11, 10, 9});
  for (const GpuPlan& p : b.plan.notes) BOOST_TEST_REQUIRE((p.n0 == 11 && p.n1 == 10 && p.n2 == 9));
  prices_agree(b, emulate_book_on_chip<double>(b.batch, b.plan, false), 1e-12);
  prices_agree(b, emulate_book_on_chip<double, float>(b.batch, b.plan, false), 1e-8);
  for (GpuPlan& p : b.plan.notes) p.steps.resize(std::min<std::size_t>(p.steps.size(), 3));
  for (const OnChipEmulation& run : {emulate_book_on_chip<double>(b.batch, b.plan, true),
                                     emulate_book_on_chip<double, float>(b.batch, b.plan, true)})
    BOOST_TEST(run.findings.races == 0, run.findings.first_race);
}

BOOST_AUTO_TEST_CASE(three_asset_notes_march_on_chip_in_every_scheme) {
  for (const char* scheme : {"douglas", "craig-sneyd", "modified-craig-sneyd"}) {
    BOOST_TEST_CONTEXT(scheme) {
      const Book b = book_of(gpu_notes(1, 19, 3, 3), scheme, 8, sizeof(double));
      prices_agree(b, emulate_book_on_chip<double>(b.batch, b.plan, false), 1e-12);
    }
  }
}

// A checked march of three notes in `scheme`: the CPU adi's prices to 1e-12 (mixed: 1e-8), no
// race; its findings.
template <class V = double, class T = V>
CtaFindings checked_march(const char* scheme, std::uint64_t seed, int n) {
  const Book b = book_of(gpu_notes(3, seed), scheme, n, sizeof(double));
  const OnChipEmulation run = emulate_book_on_chip<V, T>(b.batch, b.plan, true);
  prices_agree(b, run, sizeof(T) == sizeof(V) ? 1e-12 : 1e-8);
  BOOST_TEST(run.findings.races == 0, run.findings.first_race);
  return run.findings;
}

BOOST_AUTO_TEST_CASE(checked_marches_find_no_race_and_no_bank_conflict_beyond_the_padding) {
  for (const char* scheme : {"hundsdorfer-verwer", "douglas"}) {
    BOOST_TEST_CONTEXT(scheme) {
      const CtaFindings found = checked_march(scheme, 7, 20);
      BOOST_TEST_MESSAGE(scheme << ": " << found.phases << " phases, " << found.wavefronts
                                << " shared-memory wavefronts against " << found.ideal_wavefronts
                                << " without conflicts");
      BOOST_TEST(found.wavefronts <= 1.1 * static_cast<double>(found.ideal_wavefronts));
    }
  }
}

// Craig-Sneyd and modified Craig-Sneyd: round 2's axis-1 stage differentiates X (HV's, Yk) and
// writes X, checked for races too.
BOOST_AUTO_TEST_CASE(the_craig_sneyd_schemes_march_on_chip_as_the_cpu_adi) {
  for (const char* scheme : {"craig-sneyd", "modified-craig-sneyd"}) {
    BOOST_TEST_CONTEXT(scheme) { checked_march(scheme, 13, 16); }
  }
}

// Every scheme's increments (HV's stages subtract F_d Dk, the others' do not), checked for races.
BOOST_AUTO_TEST_CASE(every_scheme_marches_mixed_on_chip_as_the_cpu_adi) {
  for (const char* scheme : {"hundsdorfer-verwer", "douglas", "craig-sneyd", "modified-craig-sneyd"}) {
    BOOST_TEST_CONTEXT(scheme) { checked_march<double, float>(scheme, 13, 16); }
  }
}

BOOST_AUTO_TEST_CASE(fp32_on_chip_stays_within_single_precision_of_the_cpu) {
  const Book b = book_of(gpu_notes(6, 11), "hundsdorfer-verwer", 20, sizeof(float));
  prices_agree(b, emulate_book_on_chip<float>(b.batch, b.plan, false), 2e-4);
}

// The first steps of a two-asset note at n = 100, the size the kernel is for: no race, and the
// banks within a tenth of the conflict-free count in each precision (V values, T stages).
template <class V, class T = V>
void first_steps_at_n_100(int ctas = 1) {
  Book b = book_of(gpu_notes(1, 3), "hundsdorfer-verwer", 100, sizeof(V));
  GpuPlan& note = b.plan.notes.front();
  BOOST_TEST_REQUIRE(note.dim == 2);
  note.steps.resize(3);
  const CtaFindings found = emulate_book_on_chip<V, T>(b.batch, b.plan, true, ctas).findings;
  BOOST_TEST(found.races == 0, found.first_race);
  BOOST_TEST_MESSAGE(sizeof(V) * 8 << "-bit values, " << sizeof(T) * 8 << "-bit stages, " << ctas
                                   << " CTA(s), n = 100, 3 steps: " << found.wavefronts << " wavefronts against "
                                   << found.ideal_wavefronts << " without conflicts");
  BOOST_TEST(found.wavefronts <= 1.1 * static_cast<double>(found.ideal_wavefronts));
}

BOOST_AUTO_TEST_CASE(at_n_100_the_layout_keeps_bank_conflicts_out_in_every_precision) {
  first_steps_at_n_100<double>();
  first_steps_at_n_100<float>();
  first_steps_at_n_100<double, float>();
  first_steps_at_n_100<double>(kClusterCtas);  // where fp64 and mixed run at n = 100 on sm_90
  first_steps_at_n_100<double, float>(kClusterCtas);
}

// A cluster of two CTAs runs the same body with twice the threads, a CTA's warps after the
// other's: the CPU adi's prices (mixed: within 1e-8), and checked marches find no race.
BOOST_AUTO_TEST_CASE(a_cluster_of_two_ctas_marches_as_one_cta_does) {
  const Book b = book_of(gpu_notes(12, 11), "hundsdorfer-verwer", 24, sizeof(double));
  prices_agree(b, emulate_book_on_chip<double>(b.batch, b.plan, false, kClusterCtas), 1e-12);
  prices_agree(b, emulate_book_on_chip<double, float>(b.batch, b.plan, false, kClusterCtas), 1e-8);
  for (const char* scheme : {"hundsdorfer-verwer", "douglas", "craig-sneyd"}) {
    BOOST_TEST_CONTEXT(scheme) {
      const Book c = book_of(gpu_notes(3, 13), scheme, 16, sizeof(double));
      for (const OnChipEmulation& run : {emulate_book_on_chip<double>(c.batch, c.plan, true, kClusterCtas),
                                         emulate_book_on_chip<double, float>(c.batch, c.plan, true, kClusterCtas)})
        BOOST_TEST(run.findings.races == 0, run.findings.first_race);
    }
  }
}

// Where a note's state lives on an H100 (227 KiB of opt-in shared memory a CTA), for a two-layer
// two-asset note: shared memory up to n = 80 in fp64, a cluster at n = 100 in fp64 and mixed
// (each part of the workspace under the limit, the whole over it), fp32 in one CTA.
BOOST_AUTO_TEST_CASE(fp64_and_mixed_notes_at_n_100_take_a_cluster_on_an_h100) {
  constexpr std::size_t kH100OptIn = 232448;
  std::vector<Product> two_layers;
  for (Product& p : gpu_notes(12, 3, 2, 2))
    if (p.can_knock_in() && two_layers.empty()) two_layers.push_back(std::move(p));
  BOOST_TEST_REQUIRE(two_layers.size() == 1u);
  const auto home = [&](int n, std::size_t value_bytes, std::size_t scratch_bytes, bool clusters) {
    const Book b = book_of(two_layers, "hundsdorfer-verwer", n, value_bytes);
    BOOST_TEST_REQUIRE(b.plan.notes.front().layers == 2);
    return state_home(on_chip_workspace(b.plan), value_bytes, scratch_bytes, kH100OptIn, clusters);
  };
  BOOST_TEST((home(80, 8, 8, true) == StateHome::Shared));
  BOOST_TEST((home(100, 8, 8, true) == StateHome::Cluster));
  BOOST_TEST((home(100, 8, 4, true) == StateHome::Cluster));
  BOOST_TEST((home(100, 4, 4, true) == StateHome::Shared));
  BOOST_TEST((home(100, 8, 8, false) == StateHome::Global));
  BOOST_TEST((home(200, 8, 8, true) == StateHome::Global));
}

// Steps x values x axes: a note's march, within a factor of two of what the queue orders by.
double size_of(const GpuPlan& p) {
  return static_cast<double>(p.steps.size()) * static_cast<double>(p.values) * p.dim;
}

BOOST_AUTO_TEST_CASE(the_queue_hands_out_the_longest_schedules_first_and_every_note_once) {
  const Book b = book_of(gpu_notes(12, 5), "hundsdorfer-verwer", 16, sizeof(double));
  const std::vector<int> order = longest_first(b.plan);
  BOOST_TEST(std::set<int>(order.begin(), order.end()).size() == b.plan.notes.size());
  for (std::size_t q = 1; q < order.size(); ++q) {
    const GpuPlan& before = b.plan.notes[static_cast<std::size_t>(order[q - 1])];
    const GpuPlan& after = b.plan.notes[static_cast<std::size_t>(order[q])];
    BOOST_TEST(size_of(before) >= 0.5 * size_of(after), "position " << q);
  }
}

// The checker on bodies with planted faults.
BOOST_AUTO_TEST_CASE(the_emulator_sees_a_missing_barrier_and_a_shared_write) {
  int queue = 0;
  EmulatedCta<double> cta(64, 64, queue, true);
  // Thread t writes value t and reads value t + 1, which thread t + 1 writes in the same phase.
  cta.phase([&](int t) { cta.set(t, 1.0); });
  BOOST_TEST(cta.findings().races == 0);
  cta.phase([&](int t) {
    cta.set(t, 2.0);
    if (t + 1 < 64) (void)cta.get(t + 1);
  });
  BOOST_TEST(cta.findings().races > 0);
  const long long before = cta.findings().races;
  cta.phase([&](int) { cta.set(0, 3.0); });  // every thread writes one value
  BOOST_TEST(cta.findings().races > before);
  BOOST_TEST(cta.findings().first_race.find("phase 1") != std::string::npos, cta.findings().first_race);
}

BOOST_AUTO_TEST_CASE(the_emulator_counts_bank_wavefronts) {
  int queue = 0;
  EmulatedCta<float> cta(32, 32 * 32, queue, true);
  cta.phase([&](int t) { cta.set(t, 1.0f); });  // consecutive words: one wavefront
  BOOST_TEST(cta.findings().wavefronts == 1);
  cta.phase([&](int t) { cta.set(32 * t, 1.0f); });  // one bank for the whole warp: 32
  BOOST_TEST(cta.findings().wavefronts == 33);
  BOOST_TEST(cta.findings().ideal_wavefronts == 2);
  EmulatedCta<double> wide(32, 64, queue, true);
  wide.phase([&](int t) { wide.set(t, 1.0); });  // 256 bytes: two wavefronts, no conflict
  BOOST_TEST(wide.findings().wavefronts == 2);
  BOOST_TEST(wide.findings().ideal_wavefronts == 2);
}

}  // namespace
}  // namespace elsbench::gpu
