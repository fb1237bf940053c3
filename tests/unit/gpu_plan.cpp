// The host-side plan of the GPU variants (solvers/gpu/plan/gpu_plan.hpp): per-step parameter records,
// buffer roles, factor tables, events, launch geometry and the bytes-per-step model. Runs
// without a GPU.
#include <boost/test/unit_test.hpp>

#include <set>

#include "products/catalog.hpp"
#include "solvers/gpu/kernels/stage_math.hpp"
#include "solvers/gpu/plan/gpu_plan.hpp"
#include "solvers/problem/problem_builder.hpp"
#include "solvers/tridiagonal/chunked_solve.hpp"

namespace elsbench::gpu {
namespace {

// The problem with the time grid the `adi` solver would put on it.
Problem problem_for(const Product& product, int n, int nt) {
  GridOptions g;
  g.n = n;
  g.nt = nt;
  return build_problem(product, g);
}

// The buffers a stage reads, by the rules of stage_math.hpp / stage_blocks.hpp.
std::set<int> stage_reads(const GpuStep& s, int axis, int dim, int round) {
  if (axis == 0) return round == 1 ? std::set<int>{s.x} : std::set<int>{s.x, s.yk};
  (void)dim;
  return {s.y1, second_axis_uses_yk(s.w.kind, round) ? s.yk : s.x};
}

BOOST_AUTO_TEST_CASE(steps_follow_the_time_grid_and_the_scheme) {
  const Product product = resolve_product("sample-2a-stepdown");
  const Problem pb = problem_for(product, 24, 120);
  for (const std::string& name : adi_scheme_names()) {
    const AdiScheme scheme = adi_scheme(name);
    const GpuPlan plan = make_gpu_plan(pb, scheme);
    BOOST_REQUIRE_EQUAL(plan.steps.size(), pb.time.steps());
    BOOST_TEST(plan.two_rounds == (scheme.kind != SchemeKind::Douglas));
    for (std::size_t j = 0; j < plan.steps.size(); ++j) {
      const GpuStep& s = plan.steps[j];
      const double dt = pb.time.dt(j);
      BOOST_TEST(s.w.dt == dt);
      if (pb.time.damped[j]) {
        BOOST_TEST((s.w.kind == SchemeKind::Douglas));
        BOOST_TEST(s.w.theta_dt == dt);
      } else {
        BOOST_TEST(s.w.theta_dt == scheme.theta * dt);
        BOOST_TEST(s.two_rounds() == (scheme.kind != SchemeKind::Douglas));
      }
      // The table of the step is theta dt to the stated tolerance.
      BOOST_TEST(std::abs(plan.theta_dts[static_cast<std::size_t>(s.table)] - s.w.theta_dt) <=
                 kSameThetaDt * s.w.theta_dt);
    }
  }
}

BOOST_AUTO_TEST_CASE(tables_are_shared_between_equal_steps) {
  // 1000 steps over 756 daily intervals: dt takes two values up to rounding, and the damped
  // steps add theta = 1; a handful of tables, not one per step.
  const Product product = resolve_product("sample-2a-stepdown");
  const Problem pb = problem_for(product, 8, 1000);
  const GpuPlan plan = make_gpu_plan(pb, adi_scheme("hundsdorfer-verwer"));
  BOOST_TEST(plan.theta_dts.size() >= 2u);
  BOOST_TEST(plan.theta_dts.size() <= 8u);
}

BOOST_AUTO_TEST_CASE(no_stage_writes_a_buffer_it_reads) {
  for (const char* id : {"sample-2a-stepdown", "min-call", "els-1a-stepdown", "european-call"}) {
    const Product product = resolve_product(id);
    const Problem pb = problem_for(product, 12, 60);
    for (const std::string& name : adi_scheme_names()) {
      const GpuPlan plan = make_gpu_plan(pb, adi_scheme(name));
      int cur = 0;
      for (const GpuStep& s : plan.steps) {
        BOOST_TEST(s.x == cur);
        BOOST_TEST((std::set<int>{s.x, s.y1, s.yk}.size() == 3u));
        for (int round = 1; round <= (s.two_rounds() ? 2 : 1); ++round)
          for (int axis = 0; axis < plan.dim; ++axis) {
            const int target = stage_target(s, axis, plan.dim, round);
            BOOST_TEST(stage_reads(s, axis, plan.dim, round).count(target) == 0u,
                       id << " " << name << " axis " << axis << " round " << round);
          }
        // The last stage writes `out`, which is X of the next step.
        BOOST_TEST(stage_target(s, plan.dim - 1, plan.dim, s.two_rounds() ? 2 : 1) == s.out);
        cur = s.out;
      }
      BOOST_TEST(plan.final_buffer == cur);
    }
  }
}

BOOST_AUTO_TEST_CASE(events_are_the_cpu_events_in_order) {
  const Product product = resolve_product("sample-2a-stepdown");
  const Problem pb = problem_for(product, 12, 800);
  const GpuPlan plan = make_gpu_plan(pb, adi_scheme("douglas"));
  std::size_t seen = 0;
  for (std::size_t j = 0; j < plan.steps.size(); ++j) {
    const GpuStep& s = plan.steps[j];
    for (int e = 0; e < s.event_count; ++e, ++seen) {
      const EventAction& cpu = pb.events[seen];
      const GpuEvent& g = plan.events[static_cast<std::size_t>(s.first_event + e)];
      BOOST_TEST(cpu.at_node == j + 1);
      BOOST_TEST((g.kind == cpu.kind));
      BOOST_TEST(g.weights == static_cast<int>(cpu.weights));
      BOOST_TEST(g.value == cpu.value);
    }
  }
  BOOST_TEST(seen == pb.events.size());
  BOOST_TEST(plan.has_events);
  BOOST_TEST(plan.weight_arrays == static_cast<int>(pb.event_weights.size()));
}

BOOST_AUTO_TEST_CASE(continuous_knock_in_projects_after_every_step) {
  Product product = resolve_product("sample-2a-stepdown");
  product.els().knock_in.monitoring = Monitoring::Continuous;
  const Problem pb = problem_for(product, 12, 60);
  BOOST_REQUIRE(pb.continuous_knock_in);
  const GpuPlan plan = make_gpu_plan(pb, adi_scheme("craig-sneyd"));
  for (const GpuStep& s : plan.steps) {
    BOOST_REQUIRE(s.event_count >= 1);
    const GpuEvent& last = plan.events[static_cast<std::size_t>(s.first_event + s.event_count - 1)];
    BOOST_TEST((last.kind == EventKind::KnockIn));
    BOOST_TEST(last.weights == static_cast<int>(pb.knock_in_weights));
  }
}

BOOST_AUTO_TEST_CASE(no_events_for_an_option) {
  const Product product = resolve_product("min-call");
  const GpuPlan plan = make_gpu_plan(problem_for(product, 12, 40), adi_scheme("hundsdorfer-verwer"));
  BOOST_TEST(!plan.has_events);
  BOOST_TEST(plan.theta_dts.size() == 2u);  // the damped theta = 1 and the scheme's theta
}

BOOST_AUTO_TEST_CASE(layouts_cover_every_line) {
  const Product product = resolve_product("sample-2a-stepdown");
  for (int n : {4, 15, 16, 17, 100, 333, 2000}) {
    GridOptions g;
    g.n = n;
    g.nt = 10;
    const Problem pb = build_problem(product, g);
    const GpuPlan plan = make_gpu_plan(pb, adi_scheme("douglas"));
    for (std::size_t elem : {sizeof(double), sizeof(float)}) {
      const StageLayout a0 = stage_layout(plan, 0, elem);
      BOOST_TEST(a0.lines == n * plan.layers);
      BOOST_TEST(a0.blocks * a0.lines_per_block >= a0.lines);
      BOOST_TEST((a0.blocks - 1) * a0.lines_per_block < a0.lines);
      BOOST_TEST(a0.chunks == chunks_of(n));
      BOOST_TEST(a0.smem_bytes == static_cast<std::size_t>(a0.lines_per_block) *
                                      static_cast<std::size_t>(a0.chunks * (kChunk + 1) + 2 * a0.chunks) * elem);
      const StageLayout a1 = stage_layout(plan, 1, elem);
      BOOST_TEST(a1.threads == a1.lines_per_block * a1.chunk_threads);
      BOOST_TEST(a1.carry_half % 2 == 1);
      BOOST_TEST(a1.carry_half >= a1.chunks);
      BOOST_TEST(a1.blocks * a1.lines_per_block >= n * plan.layers);
      BOOST_TEST(a1.rhs_stride % 2 == 1);
      BOOST_TEST(a1.rhs_stride >= a1.chunks * (kChunk + 1));
      // 32-byte runs at least, unless twice as wide blocks would leave some of 132 SMs idle
      if (a1.lines_per_block * static_cast<int>(elem) < 32)
        BOOST_TEST((n + 2 * a1.lines_per_block - 1) / (2 * a1.lines_per_block) * plan.layers < 132);
      BOOST_TEST(a1.smem_bytes == static_cast<std::size_t>(a1.lines_per_block) *
                                      static_cast<std::size_t>(a1.rhs_stride + a1.carry_stride) * elem);
      BOOST_TEST(a1.smem_bytes <= kDefaultSmemLimit);
    }
  }
}

// Every layer of the value buffers starts 128-byte aligned in fp64 and fp32 (adi-cuda's rows,
// the cuSPARSE variants' per-layer library pointers), also when n^2 is odd; the padding is
// less than one alignment unit a layer, and what the march returns has none (the emulation
// tests compare every node with the CPU's).
BOOST_AUTO_TEST_CASE(layers_start_128_byte_aligned) {
  const Product product = resolve_product("sample-2a-stepdown");
  for (int n : {33, 101, 301, 999}) {
    const GpuPlan plan = make_gpu_plan(problem_for(product, n, 10), adi_scheme("douglas"));
    BOOST_TEST(plan.points % 2 == 1);  // odd: unpadded layers would start misaligned
    BOOST_TEST(plan.layers == 2);
    BOOST_TEST(plan.layer_stride >= plan.points);
    BOOST_TEST(plan.layer_stride - plan.points < kLayerAlignValues);
    BOOST_TEST(plan.buffer_values() == plan.layer_stride * plan.layers);
    for (std::size_t elem : {sizeof(double), sizeof(float)})
      for (int layer = 0; layer < plan.layers; ++layer)
        BOOST_TEST(static_cast<std::size_t>(layer * plan.layer_stride) * elem % 128 == 0u, "n " << n << " layer " << layer);
  }
}

BOOST_AUTO_TEST_CASE(bytes_model) {
  const Product product = resolve_product("min-call");  // one layer, no events
  const Problem pb = problem_for(product, 10, 20);
  const GpuPlan hv = make_gpu_plan(pb, adi_scheme("hundsdorfer-verwer"));
  const GpuPlan douglas = make_gpu_plan(pb, adi_scheme("douglas"));
  const double values = 100.0;
  // Damped steps: Douglas, 5 arrays; HV steps: 11 arrays (8 bytes in fp64, 4 in fp32).
  BOOST_TEST(step_bytes(hv, hv.steps[0], 8) == 5 * 8 * values);
  BOOST_TEST(step_bytes(hv, hv.steps.back(), 8) == 11 * 8 * values);
  BOOST_TEST(step_bytes(hv, hv.steps.back(), 4) == 11 * 4 * values);
  BOOST_TEST(march_bytes(douglas, 8) == 20 * 5 * 8 * values);
  BOOST_TEST(floor_bytes_per_value(8) == 64.0);
  // An ELS step reads one weight array (a value a node, both layers share it) per event.
  const Product els = resolve_product("sample-2a-stepdown");
  const Problem pe = problem_for(els, 10, 800);
  const GpuPlan pl = make_gpu_plan(pe, adi_scheme("douglas"));
  for (const GpuStep& s : pl.steps)
    BOOST_TEST(step_bytes(pl, s, 8) == 5 * 8 * 200.0 + s.event_count * 8 * 100.0);
}

}  // namespace
}  // namespace elsbench::gpu
