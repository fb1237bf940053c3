// Meshes: the knock-in barrier on a cell face (so that its daily application is exact at every
// node), nodes concentrated at the barrier, and the builder's knock-in weights being 0 or 1.
#include <boost/test/unit_test.hpp>
#include <cmath>

#include "products/catalog.hpp"
#include "solvers/meshers/mesh.hpp"
#include "solvers/meshers/time_grid.hpp"
#include "solvers/problem/problem_builder.hpp"

using namespace elsbench;

namespace {

MeshSpec els_axis(int nodes, double face, double second_density) {
  MeshSpec m;
  m.nodes = nodes;
  m.s_max = 400;
  m.center = 100;
  m.face = face;
  m.second_center = second_density > 0 ? face : 0;
  m.second_density = second_density;
  return m;
}

// Smallest |midpoint - level| over the cells of s.
double face_gap(const std::vector<double>& s, double level) {
  double gap = INFINITY;
  for (std::size_t i = 0; i + 1 < s.size(); ++i) gap = std::min(gap, std::abs(0.5 * (s[i] + s[i + 1]) - level));
  return gap;
}

double spacing_at(const std::vector<double>& s, double level) {
  for (std::size_t i = 0; i + 1 < s.size(); ++i)
    if (s[i] <= level && level < s[i + 1]) return s[i + 1] - s[i];
  return NAN;
}

}  // namespace

BOOST_AUTO_TEST_CASE(the_face_level_is_a_midpoint_and_the_mesh_stays_monotone_from_zero_to_s_max) {
  for (MeshKind kind : {MeshKind::Sinh, MeshKind::Uniform})
    for (int n : {17, 40, 101, 200, 333}) {
      MeshSpec m = els_axis(n, 50.0, 0.0);
      m.kind = kind;
      const std::vector<double> s = make_mesh(m);
      BOOST_TEST(face_gap(s, 50.0) < 1e-12, "n = " << n);
      BOOST_TEST(s.front() == 0.0);
      BOOST_TEST(s.back() == 400.0);
      for (std::size_t i = 0; i + 1 < s.size(); ++i) BOOST_TEST_REQUIRE(s[i] < s[i + 1]);
    }
  // Without a face, 50 falls inside a cell in general: the test above is not vacuous.
  BOOST_TEST(face_gap(make_mesh(els_axis(101, 0.0, 0.0)), 50.0) > 1e-3);
}

// A lizard's barrier on a second face above the knock-in's: both midpoints, the first where it was.
BOOST_AUTO_TEST_CASE(an_upper_face_is_a_midpoint_too_and_leaves_the_lower_one_in_place) {
  for (int n : {17, 40, 101, 200, 333})
    for (double upper : {55.0, 70.0, 95.0}) {
      MeshSpec m = els_axis(n, 50.0, 0.1);
      m.upper_face = upper;
      const std::vector<double> s = make_mesh(m);
      BOOST_TEST(face_gap(s, 50.0) < 1e-12, "n = " << n);
      if (n > 17) BOOST_TEST(face_gap(s, upper) < 1e-12, "n = " << n << " upper " << upper);
      BOOST_TEST(s.front() == 0.0);
      BOOST_TEST(s.back() == 400.0);
      for (std::size_t i = 0; i + 1 < s.size(); ++i) BOOST_TEST_REQUIRE(s[i] < s[i + 1]);
    }
}

BOOST_AUTO_TEST_CASE(a_second_center_concentrates_nodes_at_the_barrier_and_keeps_them_at_the_reference) {
  const std::vector<double> one = make_mesh(els_axis(200, 50.0, 0.0));
  const std::vector<double> two = make_mesh(els_axis(200, 50.0, 0.1));
  BOOST_TEST(spacing_at(two, 50.0) < 0.5 * spacing_at(one, 50.0));
  BOOST_TEST(spacing_at(two, 100.0) < 2.0 * spacing_at(one, 100.0));
  BOOST_TEST(face_gap(two, 50.0) < 1e-12);
}

// A spot within one sd of log S over the note's life of the knock-in barrier (sample ELS: 0.5,
// sd 0.43 and 0.52 over three years) halves the barrier's scale on its own axis only.
BOOST_AUTO_TEST_CASE(a_spot_near_the_knock_in_barrier_concentrates_its_axis_nodes_there_twice_as_much) {
  Product near = resolve_product("sample-2a-stepdown");
  near.assets[1].spot = 62.0;  // log(62 / 50) = 0.22 < 0.52
  GridOptions g;
  g.n = 144;
  const Problem far_pb = build_problem(resolve_product("sample-2a-stepdown"), g), near_pb = build_problem(near, g);
  BOOST_TEST(near_pb.axes[0].s == far_pb.axes[0].s, boost::test_tools::per_element());
  const double far_cell = spacing_at(far_pb.axes[1].s, 50.0), near_cell = spacing_at(near_pb.axes[1].s, 50.0);
  BOOST_TEST(near_cell < 0.7 * far_cell, near_cell << " against " << far_cell);
  BOOST_TEST(near_cell > 0.4 * far_cell, near_cell << " against " << far_cell);
  BOOST_TEST(face_gap(near_pb.axes[1].s, 50.0) < 1e-12);
}

// Without a daily knock-in to come, the payoff and each autocall date open their step with two
// damped sub-steps that together take 0.35 of it; no whole step is damped. With one (the sample as
// issued) the knock-in's sub-steps open each day, the payoff's first day too: no whole day is damped.
BOOST_AUTO_TEST_CASE(a_note_damps_its_payoff_and_payment_dates_in_sub_steps) {
  Product knocked = resolve_product("sample-2a-stepdown");
  knocked.els().knocked_in = true;
  GridOptions g;
  g.n = 40;
  g.nt = 60;
  const TimeGrid t = build_problem(knocked, g).time;
  const std::size_t dates = knocked.els().autocall.size();  // the payoff's and the five before it
  BOOST_TEST(t.sub_steps == 2 * dates);
  BOOST_TEST(t.steps() == 60 + 2 * dates);
  std::size_t damped = 0;
  for (std::size_t j = 0; j < t.steps(); ++j) {
    if (!t.damped[j]) continue;
    ++damped;
    BOOST_TEST_REQUIRE(j + 2 < t.steps());
    BOOST_TEST_REQUIRE(t.damped[j + 1] == 1);
    BOOST_TEST_REQUIRE(t.damped[j + 2] == 0);
    BOOST_TEST(t.dt(j) == t.dt(j + 1), boost::test_tools::tolerance(1e-9));
    const double damped_part = t.dt(j) + t.dt(j + 1);
    BOOST_TEST(damped_part / (damped_part + t.dt(j + 2)) == 0.35, boost::test_tools::tolerance(1e-9));
    ++j, ++damped;
  }
  BOOST_TEST(damped == 2 * dates);
  const TimeGrid daily = build_problem(resolve_product("sample-2a-stepdown"), g).time;
  BOOST_TEST((daily.damped[0] == 1 && daily.damped[1] == 1 && daily.damped[2] == 0));
  BOOST_TEST((daily.dt(0) + daily.dt(1)) * 252 == 0.35, boost::test_tools::tolerance(1e-9));
  for (std::size_t j = 0; j < daily.steps(); ++j)
    if (daily.damped[j]) BOOST_TEST_REQUIRE(daily.dt(j) * 252 < 0.2, "step " << j);
}

// The sample's first autocall (barrier 0.95) moved to 10 days, its second spot 2 % above that
// barrier (sd of log S to then 0.06): that axis's cells at the barrier shrink; 30 days off, or the
// spot 26 % above (more than 3 sd), the axis is the one the date at half a year gives.
BOOST_AUTO_TEST_CASE(a_near_autocall_date_concentrates_nodes_at_its_barrier_where_the_spot_is_near) {
  const auto axis_of = [](double first_date, double spot) {
    Product p = resolve_product("sample-2a-stepdown");
    p.els().autocall.front().time = first_date;
    p.assets[1].spot = spot;
    GridOptions g;
    g.n = 144;
    return build_problem(p, g).axes[1].s;
  };
  const double soon = 10.0 / 252;
  const std::vector<double> near = axis_of(soon, 96.9), issued = axis_of(0.5, 96.9);
  BOOST_TEST(spacing_at(near, 95.0) < 0.6 * spacing_at(issued, 95.0),
             spacing_at(near, 95.0) << " against " << spacing_at(issued, 95.0));
  BOOST_TEST(face_gap(near, 50.0) < 1e-12);  // the knock-in barrier still on a face
  BOOST_TEST(axis_of(30.0 / 252, 96.9) == issued, boost::test_tools::per_element());
  BOOST_TEST(axis_of(soon, 120.0) == axis_of(0.5, 120.0), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(knock_in_weights_of_the_sample_els_are_exactly_zero_or_one) {
  const Product p = resolve_product("sample-2a-stepdown");
  GridOptions g;
  g.n = 73;
  const Problem pb = build_problem(p, g);
  BOOST_TEST_REQUIRE(pb.layers == 2);
  const auto& phi = pb.event_weights.at(pb.knock_in_weights);
  std::size_t knocked = 0;
  for (double w : phi) {
    BOOST_TEST_REQUIRE((w == 0.0 || w == 1.0));
    knocked += w == 1.0;
  }
  // Worst-of below 50 %: nodes with S1 < 50 or S2 < 50, a fraction of the grid, never none or all.
  BOOST_TEST(knocked > 0u);
  BOOST_TEST(knocked < phi.size());
}

BOOST_AUTO_TEST_CASE(the_step_count_of_a_max_dt_grid_is_the_grid_it_would_build) {
  // The pre-flight counts steps without building the grid; the count must be that grid's.
  const std::vector<double> events{0.25, 0.5, 0.5 + 1e-12, 0.75, 1.9};
  for (double max_dt : {1.0, 0.3, 0.01, 1.7e-3}) {
    const TimeGrid g = make_time_grid_max_dt(2.0, events, max_dt);
    BOOST_TEST(count_steps_max_dt(2.0, events, max_dt) == static_cast<double>(g.steps()));
    BOOST_TEST(g.max_dt() <= max_dt * (1 + 1e-12));
  }
  BOOST_TEST(count_steps_max_dt(30.0, {}, 1e-9) == 3e10);
}

// Two concentration points: each node is the root of xi(S) = target (mesh.cpp, by Newton's method)
// to within 1e-14 of S_max, as a bisection that evaluates xi at every halving finds it.
BOOST_AUTO_TEST_CASE(two_centre_nodes_are_the_roots_of_the_mesh_map) {
  for (const double density : {0.05, 0.2, 0.5, 2.0})
    for (const int nodes : {5, 48, 101, 400}) {
      MeshSpec m = els_axis(nodes, 0, density);
      m.second_center = 62.5;
      m.s_max = 437.3;
      const double c1 = m.center, a1 = m.density * m.center, c2 = m.second_center, a2 = density * c2;
      const auto xi = [&](double x) { return std::asinh((x - c1) / a1) + std::asinh((x - c2) / a2); };
      const double lo = xi(0.0), hi = xi(m.s_max);
      const std::vector<double> s = make_mesh(m);
      BOOST_TEST_REQUIRE(s.size() == static_cast<std::size_t>(nodes));
      BOOST_TEST(s.front() == 0.0);
      BOOST_TEST(s.back() == m.s_max);
      for (std::size_t i = 1; i + 1 < s.size(); ++i) {
        const double target = lo + (hi - lo) * static_cast<double>(i) / static_cast<double>(nodes - 1);
        double a = 0.0, b = m.s_max;
        for (int it = 0; it < 200 && b - a > 1e-15 * m.s_max; ++it) {
          const double mid = 0.5 * (a + b);
          (xi(mid) < target ? a : b) = mid;
        }
        BOOST_TEST(std::abs(s[i] - 0.5 * (a + b)) <= 1e-14 * m.s_max,
                   "density " << density << ", node " << i << " of " << nodes << ": off by "
                              << (s[i] - 0.5 * (a + b)) / m.s_max);
      }
    }
}
