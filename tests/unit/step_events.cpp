// The events at a step's end (solvers/march/march.hpp): applied a layer and a stretch of points at
// a time, as the ADI applies them to each thread's parts, they give what one pass over every
// point gives, to the bit; a knock-in falls where the product says it does; an autocall takes
// the continuation of a cell's part it redeems at that part's centroid.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "products/catalog.hpp"
#include "solvers/march/march.hpp"
#include "solvers/problem/problem_builder.hpp"

namespace elsbench {
namespace {

Problem els_problem(Monitoring monitoring) {
  Product p = resolve_product("sample-2a-stepdown");
  p.els().knock_in.monitoring = monitoring;
  GridOptions g;
  g.n = 40;
  g.nt = 800;
  return build_problem(p, g);
}

// Values that differ from point to point and layer to layer, as a march leaves them.
template <class T>
std::vector<T> scattered_values(const Problem& pb) {
  std::mt19937 gen(7);
  std::uniform_real_distribution<double> u(0.0, 150.0);
  std::vector<T> v(pb.values());
  for (T& x : v) x = static_cast<T>(u(gen));
  return v;
}

// The first step after which an autocall falls (a knock-in falls there too on a monitoring day).
std::size_t autocall_step(const Problem& pb) {
  for (const EventAction& e : pb.events)
    if (e.kind == EventAction::Kind::Autocall) return e.at_node - 1;
  return 0;
}

template <class T>
void check_pieces_equal_whole(const Problem& pb, std::size_t j) {
  const StepEvents events(pb);
  std::vector<T> whole = scattered_values<T>(pb), pieces = whole;
  // Lifts read every point before any event writes one; in pieces they are the same.
  for (std::size_t from = 0; from < pb.points; from += 333)
    events.lift(j, whole.data(), from, std::min(pb.points, from + 333));
  events.after(j, whole.data(), 0, pb.points);
  // Layer 1 first (the knock-in reads it), in uneven stretches, as threads own parts of layers.
  std::mt19937 gen(11);
  for (std::size_t layer = static_cast<std::size_t>(pb.layers); layer-- > 0;) {
    for (std::size_t from = 0; from < pb.points;) {
      const std::size_t to = std::min(pb.points, from + 1 + gen() % 700);
      events.on_layer(j, pieces.data(), layer, from, to);
      from = to;
    }
  }
  BOOST_TEST((whole == pieces));
  // Where no event falls nothing moves; where one does, values move.
  BOOST_TEST((whole == scattered_values<T>(pb)) == !events.fall_after(j), "step " << j);
}

}  // namespace

BOOST_AUTO_TEST_CASE(a_layer_and_a_stretch_at_a_time_give_the_whole_pass_to_the_bit) {
  for (const Monitoring m : {Monitoring::Daily, Monitoring::Continuous}) {
    const Problem pb = els_problem(m);
    BOOST_TEST_REQUIRE(pb.layers == 2);
    const std::size_t j = autocall_step(pb);
    BOOST_TEST_REQUIRE(j > 0);
    check_pieces_equal_whole<double>(pb, j);
    check_pieces_equal_whole<float>(pb, j);
    check_pieces_equal_whole<double>(pb, 0);
    // An autocall over the knock-in's own points, so that the knock-in must see layer 1 after
    // its autocall (the products' regions do not overlap, which would hide the order).
    Problem overlap = pb;
    for (EventAction& e : overlap.events)
      if (e.kind == EventAction::Kind::Autocall) e.weights = overlap.knock_in_weights;
    check_pieces_equal_whole<double>(overlap, j);
    check_pieces_equal_whole<float>(overlap, j);
  }
}

// Node i's hat on an axis (rising from s[i-1] to s[i], falling to s[i+1]): the share of its weight
// at or above `level`, the centroid of that part and the hat's own, by Gauss points on the pieces
// between s[i-1], s[i], the level and s[i+1] (weight x S is quadratic on each: two points exact).
struct HatPart {
  double share = 0, part = 0, whole = 0;
};

HatPart hat_part(const Axis& ax, std::size_t i, double level) {
  const double a = ax.s[i - 1], b = ax.s[i], c = ax.s[i + 1];
  const auto weight = [&](double y) { return y <= b ? (y - a) / (b - a) : (c - y) / (c - b); };
  double mass = 0, moment = 0, above = 0, above_moment = 0;
  std::vector<double> ends{a, b, c, std::clamp(level, a, c)};
  std::sort(ends.begin(), ends.end());
  for (std::size_t k = 0; k + 1 < ends.size(); ++k) {
    const double mid = 0.5 * (ends[k] + ends[k + 1]), half = 0.5 * (ends[k + 1] - ends[k]);
    for (const double y : {mid - half / std::sqrt(3.0), mid + half / std::sqrt(3.0)}) {
      const double w = half * weight(y);
      mass += w, moment += w * y;
      if (y >= level) above += w, above_moment += w * y;
    }
  }
  return {above / mass, above > 0 ? above_moment / above : 0.0, moment / mass};
}

// Values linear in the spots: V at any point is exact, so at a node whose hat the autocall's
// barrier cuts the autocall must leave V_i + phi (R - V(c)), phi the share of the hat's weight at
// or above the barrier (a product over axes), c that part's centroid and V_i standing for V at
// the hat's centroid; elsewhere V_i + phi (R - V_i), phi 0 or 1.
BOOST_AUTO_TEST_CASE(an_autocall_takes_a_cut_cells_continuation_at_its_redeemed_part_s_centroid) {
  const Problem pb = els_problem(Monitoring::Daily);
  const std::size_t j = autocall_step(pb);
  const auto at_step = [&](const EventAction& e) { return e.at_node == j + 1; };
  const EventAction& call = *std::find_if(pb.events.begin(), pb.events.end(), at_step);
  BOOST_TEST_REQUIRE((call.kind == EventAction::Kind::Autocall && call.at_node == j + 1 && call.at_centroid));
  const Axis &x = pb.axes[0], &y = pb.axes[1];
  const auto value = [](std::size_t l, double s0, double s1) { return 10.0 + 3.0 * double(l) + 0.3 * s0 - 0.2 * s1; };
  std::vector<double> v(pb.values());
  for (std::size_t l = 0; l < 2; ++l)
    for (std::size_t i1 = 0; i1 < y.size(); ++i1)
      for (std::size_t i0 = 0; i0 < x.size(); ++i0) v[l * pb.points + i0 + i1 * x.size()] = value(l, x.s[i0], y.s[i1]);
  const std::vector<double> before = v;
  const StepEvents events(pb);
  events.lift(j, v.data(), 0, pb.points);
  events.after(j, v.data(), 0, pb.points);
  const Product p = resolve_product("sample-2a-stepdown");  // pb.product was els_problem's own
  const std::vector<double>& phi = pb.event_weights[call.weights];
  const std::vector<double>& knock_in = pb.event_weights[pb.knock_in_weights];
  std::size_t cut = 0;
  for (std::size_t i1 = 1; i1 + 1 < y.size(); ++i1)
    for (std::size_t i0 = 1; i0 + 1 < x.size(); ++i0) {
      const std::size_t i = i0 + i1 * x.size();
      if (phi[i] == 0.0 || phi[i] == 1.0 || knock_in[i] != 0.0) continue;
      ++cut;
      const HatPart h0 = hat_part(x, i0, call.barrier * p.assets[0].reference);
      const HatPart h1 = hat_part(y, i1, call.barrier * p.assets[1].reference);
      BOOST_TEST(phi[i] == h0.share * h1.share, boost::test_tools::tolerance(1e-12));
      // An axis whose hat lies wholly above the level keeps its centroid.
      const double p0 = h0.share < 1 ? h0.part : h0.whole, p1 = h1.share < 1 ? h1.part : h1.whole;
      for (std::size_t l = 0; l < 2; ++l) {
        const double at_node = before[l * pb.points + i];
        const double centroid = at_node + value(l, p0, p1) - value(l, h0.whole, h1.whole);
        const double want = at_node + phi[i] * (call.value - centroid);
        BOOST_TEST(v[l * pb.points + i] == want, boost::test_tools::tolerance(1e-12));
      }
    }
  BOOST_TEST(cut >= 20);  // cells along the barrier's two faces
}

BOOST_AUTO_TEST_CASE(a_knock_in_falls_on_monitoring_days_or_after_every_step) {
  const Problem daily = els_problem(Monitoring::Daily), continuous = els_problem(Monitoring::Continuous);
  const StepEvents on_days(daily), always(continuous);
  std::size_t days = 0;
  for (std::size_t j = 0; j < daily.time.steps(); ++j) {
    bool day = false;
    for (const EventAction& e : daily.events) day = day || (e.kind == EventAction::Kind::KnockIn && e.at_node == j + 1);
    BOOST_TEST(on_days.reads_layers_after(j) == day, "step " << j);
    days += day ? 1 : 0;
    BOOST_TEST(always.reads_layers_after(j));
    BOOST_TEST(always.fall_after(j));
  }
  // Three years of 252 monitoring days, the last of them at maturity (the payoff's own).
  BOOST_TEST(days == 3 * 252 - 1);
}

// What each event kind does at a node (event_kind.hpp), as the CPU march and the GPU kernels read
// it: an autocall moves every layer toward its value, a knock-in the alive layer only, toward the
// knocked-in layer.
BOOST_AUTO_TEST_CASE(each_event_kind_says_which_layers_it_moves_and_toward_what) {
  BOOST_TEST(moves_layer(EventKind::Autocall, 0, 2));
  BOOST_TEST(moves_layer(EventKind::Autocall, 1, 2));
  BOOST_TEST(moves_layer(EventKind::KnockIn, 0, 2));
  BOOST_TEST(!moves_layer(EventKind::KnockIn, 1, 2));
  BOOST_TEST(target_layer(EventKind::Autocall, 2) == -1);
  BOOST_TEST(target_layer(EventKind::KnockIn, 2) == 1);
  // With a lizard: layer 1 alive with the lizard broken, layer 2 knocked in.
  BOOST_TEST(moves_layer(EventKind::KnockIn, 1, 3));
  BOOST_TEST(!moves_layer(EventKind::KnockIn, 2, 3));
  BOOST_TEST(target_layer(EventKind::KnockIn, 3) == 2);
  BOOST_TEST(target_layer(EventKind::LizardBreak, 3) == 1);
  BOOST_TEST(!moves_layer(EventKind::LizardRedeem, 1, 3));
  BOOST_TEST(moves_layer(EventKind::Coupon, 2, 3));
}

}  // namespace elsbench
