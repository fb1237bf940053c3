#pragma once
// The kinds of event a march applies at a time node, and what each does at a node, declared once
// for the CPU march, the GPU kernels and their emulation. An event acts on the values it touches
// weighted by phi (the node's cell's fraction on the event's side of its barrier):
//   Autocall: every layer moves phi of the way to the event's value (the note redeems);
//   KnockIn:  the alive layer 0 moves phi of the way to the knocked-in layer 1's value;
//   Coupon:   every layer gains phi times the event's value (a coupon paid on the date).
// Each function switches over the kind without a default, so a kind added here is a -Wswitch
// warning (an error with ELSBENCH_WARNINGS_AS_ERRORS) until it says what it does: never run as
// another kind. docs/adding-an-event.md walks through adding one.
#include "platform/hd.hpp"

namespace elsbench {

// Within a node, events apply in this order (march backward in time: a coupon is added to what
// the autocall left, and it is the same on both layers, so the knock-in may come before it).
enum class EventKind : int { Autocall, KnockIn, Coupon };

// Whether event `kind` moves the values of layer `layer`.
ELSBENCH_HD constexpr bool moves_layer(EventKind kind, int layer) {
  switch (kind) {
    case EventKind::Autocall: return true;
    case EventKind::KnockIn: return layer == 0;
    case EventKind::Coupon: return true;
  }
  return false;
}

// Whether its target is the knocked-in layer's value at the node (else the event's own value).
ELSBENCH_HD constexpr bool targets_knocked_in(EventKind kind) {
  switch (kind) {
    case EventKind::Autocall: return false;
    case EventKind::KnockIn: return true;
    case EventKind::Coupon: return false;
  }
  return false;
}

// The value v at a node after the event, with weight phi and target (targets_knocked_in: the
// knocked-in layer's value, else the event's value), in the arithmetic R of the march.
template <class R>
ELSBENCH_HD constexpr R moved_value(EventKind kind, R v, R phi, R target) {
  switch (kind) {
    case EventKind::Autocall:
    case EventKind::KnockIn: return v + phi * (target - v);
    case EventKind::Coupon: return v + phi * target;
  }
  return v;
}

}  // namespace elsbench
