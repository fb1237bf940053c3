#pragma once
// The kinds of event a march applies at a time node, and what each does at a node, declared once
// for the CPU march, the GPU kernels and their emulation. An event moves the values it touches
// phi of the way toward its target (phi: the node's cell's fraction on the event's side):
//   Autocall: every layer, toward the event's value (the note redeems);
//   KnockIn:  the alive layer 0, toward the knocked-in layer 1's value at the node.
// Each function switches over the kind without a default, so a kind added here is a -Wswitch
// warning (an error with ELSBENCH_WARNINGS_AS_ERRORS) until it says what it does: never run as
// another kind.
#include "platform/hd.hpp"

namespace elsbench {

enum class EventKind : int { Autocall, KnockIn };

// Whether event `kind` moves the values of layer `layer`.
ELSBENCH_HD constexpr bool moves_layer(EventKind kind, int layer) {
  switch (kind) {
    case EventKind::Autocall: return true;
    case EventKind::KnockIn: return layer == 0;
  }
  return false;
}

// Whether its target is the knocked-in layer's value at the node (else the event's own value).
ELSBENCH_HD constexpr bool targets_knocked_in(EventKind kind) {
  switch (kind) {
    case EventKind::Autocall: return false;
    case EventKind::KnockIn: return true;
  }
  return false;
}

}  // namespace elsbench
