#pragma once
// The kinds of event a march applies at a time node, and what each does at a node, declared once
// for the CPU march, the GPU kernels and their emulation. The values carry a note's state in
// layers: 0 alive; with a knock-in, the last layer knocked in; with a lizard (three layers), layer
// 1 alive with the lizard broken. An event acts on the layers it moves, weighted by phi (the
// node's cell's fraction on the event's side of its barrier):
//   LizardRedeem: layer 0 (lizard intact) takes the lizard's redemption (phi is 1 at every node:
//                 an autocall on the same date comes after it and takes its own side);
//   Autocall:     every layer moves phi of the way to the event's value (the note redeems);
//   LizardBreak:  layer 0 moves phi of the way to layer 1's value (the lizard breaks);
//   KnockIn:      every layer but the last moves phi of the way to the last's value;
//   Coupon:       every layer gains phi times the event's value (a coupon paid on the date).
// Below, what each kind pays and whether it has a state of its own (the grids' set-up, the price
// bounds); its rule on a Monte Carlo path is reference/pair_path.hpp's on_path. Each function
// switches over the kind without a default, and a switch that misses a kind does not compile
// (ELSBENCH_EVERY_KIND): a kind added here says what it does, never runs as another.
// docs/adding-an-event.md walks through adding one.
#include "platform/hd.hpp"

// Around the switches over EventKind: one that misses a kind is an error, not a warning.
#define ELSBENCH_EVERY_KIND_BEGIN _Pragma("GCC diagnostic push") _Pragma("GCC diagnostic error \"-Wswitch\"")
#define ELSBENCH_EVERY_KIND_END _Pragma("GCC diagnostic pop")

namespace elsbench {
ELSBENCH_EVERY_KIND_BEGIN

// Within a node, events apply in this order (the march goes backward in time, so the reverse of
// the note's day: observations, then the redemptions, then the coupon paid beside them). Two
// partial blends toward complementary sides would leave a straddling cell phi (1 - phi) short of
// either, so the lizard's redemption covers every node and the autocall's side overwrites it.
enum class EventKind : int { LizardRedeem, Autocall, LizardBreak, KnockIn, Coupon };

// Whether event `kind` moves the values of layer `layer` of `layers`.
ELSBENCH_HD constexpr bool moves_layer(EventKind kind, int layer, int layers) {
  switch (kind) {
    case EventKind::LizardRedeem: return layer == 0;
    case EventKind::Autocall: return true;
    case EventKind::LizardBreak: return layer == 0;
    case EventKind::KnockIn: return layer != layers - 1;
    case EventKind::Coupon: return true;
  }
  return false;
}

// The layer whose value at the node is the event's target, or -1 for the event's own value. A
// layer's target lies above it, so marching the layers from the last down meets every target done.
ELSBENCH_HD constexpr int target_layer(EventKind kind, int layers) {
  switch (kind) {
    case EventKind::LizardRedeem: return -1;
    case EventKind::Autocall: return -1;
    case EventKind::LizardBreak: return 1;
    case EventKind::KnockIn: return layers - 1;
    case EventKind::Coupon: return -1;
  }
  return -1;
}

// What an event pays: nothing (an observation), a redemption that ends the note, or a coupon
// beside it. The price's bounds take a note's largest redemption and all its coupons; the grids
// damp the steps after a payment's date (its digital jump) and put a coupon on maturity in the payoff.
enum class EventPayment : int { None, Redemption, Coupon };

constexpr EventPayment payment(EventKind kind) {
  switch (kind) {
    case EventKind::LizardRedeem: return EventPayment::Redemption;
    case EventKind::Autocall: return EventPayment::Redemption;
    case EventKind::LizardBreak: return EventPayment::None;
    case EventKind::KnockIn: return EventPayment::None;
    case EventKind::Coupon: return EventPayment::Coupon;
  }
  return EventPayment::None;
}

// Whether the kind's events move the note into a state of its own, a value layer between the
// alive one (0) and the knocked-in one (the last): the lizard's break, layer 1 (target_layer).
// Such a state pays at maturity what the alive note pays, and its barrier, observed on the
// knock-in's days, lies on a cell face as the knock-in's does.
constexpr bool has_own_layer(EventKind kind) {
  switch (kind) {
    case EventKind::LizardRedeem: return false;
    case EventKind::Autocall: return false;
    case EventKind::LizardBreak: return true;
    case EventKind::KnockIn: return false;
    case EventKind::Coupon: return false;
  }
  return false;
}

// The value v at a node after the event, with weight phi and target (target_layer's value, else
// the event's value), in the arithmetic R of the march.
template <class R>
ELSBENCH_HD constexpr R moved_value(EventKind kind, R v, R phi, R target) {
  switch (kind) {
    case EventKind::LizardRedeem:
    case EventKind::Autocall:
    case EventKind::LizardBreak:
    case EventKind::KnockIn: return v + phi * (target - v);
    case EventKind::Coupon: return v + phi * target;
  }
  return v;
}

ELSBENCH_EVERY_KIND_END
}  // namespace elsbench
