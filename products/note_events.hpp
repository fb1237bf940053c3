#pragma once
// A note as its terms plus its list of events: every dated event of a step-down ELS, built once
// from its terms (its kind's rule at a node is event_kind.hpp's). The grids place the events on
// their time grid (problem_builder.cpp), and the Monte Carlo paths stop at their dates
// (reference/path_plan.cpp), so a feature's schedule is written here only.
#include <vector>

#include "products/event_kind.hpp"
#include "products/product.hpp"

namespace elsbench {

struct NoteEvent {
  EventKind kind = EventKind::Autocall;
  double time = 0;        // years from the valuation date
  double barrier = 0;     // the performance level of the event's side; 0: every node
  bool below = false;     // its side lies below the barrier (a lizard's break)
  double amount = 0;      // the event's value: a redemption or a coupon, in price units
  bool in_payoff = false; // on maturity: the grids take it in the payoff at tau = 0
  bool accrues = false;   // a payment that also pays the dates of its kind missed since the last paid (memory)
};

// The events of a step-down ELS (none for another product), by kind: its autocall dates, coupon
// dates, lizard (its redemption, then a break on each knock-in monitoring day up to it) and daily
// knock-in observations, each kind in time order.
std::vector<NoteEvent> note_events(const Product& p);

// The value layers a grid marches for the note: alive (0); one for a kind of event with a state
// of its own (event_kind.hpp's has_own_layer: layer 1, the one such kind there is); knocked in
// (the last), with a knock-in to come.
int value_layers(const Product& p, const std::vector<NoteEvent>& events);

}  // namespace elsbench
