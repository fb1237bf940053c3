// The events at a step's end (solvers/march/march.hpp): applied a layer and a stretch of points at
// a time, as the ADI applies them to each thread's parts, they give what one pass over every
// point gives, to the bit; and a knock-in falls where the product says it does.
#include <boost/test/unit_test.hpp>

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
