#include "solvers/march/march.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

#include "platform/solver_error.hpp"
#include "platform/stop_request.hpp"
#include "platform/thread_share.hpp"
#include "solvers/problem/problem_builder.hpp"

namespace elsbench {
namespace {

constexpr std::size_t kNoStop = std::numeric_limits<std::size_t>::max();
// Values a threaded march updates between two looks for a stop request: some 20 ms of steps.
constexpr std::size_t kValuesBetweenStopChecks = std::size_t{4} << 20;

// Why a march ends early: a request, or the pricing's own deadline (`limit` seconds).
struct Stop {
  StopReason reason = StopReason::None;
  double limit = 0;
};

Stop stop_now() {
  Stop s;
  s.reason = stop_reason(&s.limit);
  return s;
}

SolverError stopped(const Problem& pb, std::size_t steps_done, const Stop& why) {
  const std::string after = " after " + std::to_string(steps_done) + " of " + std::to_string(pb.time.steps()) + " time steps";
  if (why.reason == StopReason::Deadline) {
    char limit[32];
    std::snprintf(limit, sizeof limit, "%g", why.limit);
    return SolverError(SolverError::Kind::TooMuchWork,
                       std::string("ran past its time limit of ") + limit + " s (--max-seconds)" + after);
  }
  return SolverError(SolverError::Kind::Interrupted, "stopped on request" + after);
}

// v after event `kind` (event_kind.hpp), in fp64 (an fp32 value rounded once after).
template <class T>
inline void blend(EventKind kind, T& v, double phi, double target) {
  if constexpr (std::is_same_v<T, double>) {
    v = moved_value(kind, v, phi, target);
  } else {
    v = static_cast<T>(moved_value<double>(kind, v, phi, target));
  }
}

// The stretches [first, last) of points where an event's weight is not zero, each either all
// ones or not. Elsewhere a blend leaves the value as it is (v + 0 (target - v) = v), and an
// autocall's or a knock-in's region is a part of the grid, so events visit their stretches only;
// where the weight is one (a knock-in's every point, an autocall's inside its barrier) a blend
// need not read it, and 1 (target - v) is target - v to the bit.
using Stretches = std::vector<EventStretch>;

Stretches nonzero_stretches(const std::vector<double>& phi, std::size_t& cuts) {
  Stretches s;
  cuts = 0;
  for (std::size_t i = 0; i < phi.size();) {
    if (phi[i] == 0.0) {
      ++i;
      continue;
    }
    const std::size_t first = i;
    const bool ones = phi[i] == 1.0;
    while (i < phi.size() && phi[i] != 0.0 && (phi[i] == 1.0) == ones) ++i;
    s.push_back({first, i, ones, cuts});
    if (!ones) cuts += i - first;
  }
  return s;
}

// Node i's lifts per axis (CellFractions::lift) and its neighbours' distances.
struct NodeLifts {
  double at[3] = {0, 0, 0};
  std::size_t stride[3] = {0, 0, 0};
};

NodeLifts node_lifts(const Problem& pb, const CellFractions& side, std::size_t i) {
  NodeLifts n;
  std::size_t first = 0;
  for (int d = 0; d < pb.dim; ++d) {
    const Axis& ax = pb.axes[static_cast<std::size_t>(d)];
    n.at[d] = side.lift[first + (i / ax.stride) % ax.size()];
    n.stride[d] = ax.stride;
    first += ax.size();
  }
  return n;
}

// Event e on the points [from, to) of layer `layer` (event_kind.hpp: the layers it moves, the
// layer it reads).
// `lifts`: a centroid autocall's on this layer (StepEvents::lift), else null.
template <class T>
void apply(const Problem& pb, const double* phi, const Stretches& where, const EventAction& e, T* values,
           std::size_t layer, std::size_t from, std::size_t to, const double* lifts) {
  if (!moves_layer(e.kind, static_cast<int>(layer), pb.layers)) return;
  const int reads = target_layer(e.kind, pb.layers);
  const std::size_t P = pb.points;
  T* v = values + layer * P;
  const T* target = values + static_cast<std::size_t>(reads >= 0 ? reads : 0) * P;
  for (const EventStretch& st : where) {
    const std::size_t first = std::max(st.first, from), last = std::min(st.last, to);
    if (lifts && !st.ones) {
      for (std::size_t i = first; i < last; ++i) blend(e.kind, v[i], phi[i], e.value - lifts[st.cut + i - st.first]);
    } else if (reads >= 0 && st.ones) {
      for (std::size_t i = first; i < last; ++i) blend(e.kind, v[i], 1.0, target[i]);
    } else if (reads >= 0) {
      for (std::size_t i = first; i < last; ++i) blend(e.kind, v[i], phi[i], target[i]);
    } else if (st.ones) {
      for (std::size_t i = first; i < last; ++i) blend(e.kind, v[i], 1.0, e.value);
    } else {
      for (std::size_t i = first; i < last; ++i) blend(e.kind, v[i], phi[i], e.value);
    }
  }
}

}  // namespace

StepEvents::StepEvents(const Problem& pb) : pb_(pb) {
  weights_ = &node_weights(pb, formed_);
  std::size_t most = 0;
  for (const std::vector<double>& phi : *weights_) {
    where_.push_back(nonzero_stretches(phi, cuts_.emplace_back()));
    most = std::max(most, cuts_.back());
  }
  lifts_.resize(most * static_cast<std::size_t>(pb.layers));
  // Continuous knock-in: the alive layer takes the knocked-in value on and below the barrier.
  knock_in_.kind = EventAction::Kind::KnockIn;
  knock_in_.weights = pb.knock_in_weights;
}

bool StepEvents::fall_after(std::size_t j) const {
  const auto e = first_at(j + 1);
  return pb_.continuous_knock_in || (e != pb_.events.end() && e->at_node == j + 1);
}

bool StepEvents::reads_layers_after(std::size_t j) const {
  if (pb_.continuous_knock_in) return true;
  for (auto e = first_at(j + 1); e != pb_.events.end() && e->at_node == j + 1; ++e)
    if (target_layer(e->kind, pb_.layers) >= 0) return true;
  return false;
}

bool StepEvents::lifts_after(std::size_t j) const {
  const auto e = first_at(j + 1);
  return e != pb_.events.end() && e->at_node == j + 1 && e->at_centroid;
}

template <class T>
void StepEvents::lift(std::size_t j, const T* values, std::size_t from, std::size_t to) const {
  if (!lifts_after(j)) return;
  const EventAction& e = *first_at(j + 1);
  const CellFractions& side = pb_.event_fractions[e.weights];
  const std::size_t cuts = cuts_[e.weights];
  for (const EventStretch& st : where_[e.weights]) {
    if (st.ones) continue;
    for (std::size_t i = std::max(st.first, from); i < std::min(st.last, to); ++i) {
      const NodeLifts n = node_lifts(pb_, side, i);
      for (std::size_t l = 0; l < static_cast<std::size_t>(pb_.layers); ++l) {
        const T* v = values + l * pb_.points + i;
        const auto neighbour = [&](int d, int s) { return s > 0 ? v[n.stride[d]] : *(v - n.stride[d]); };
        lifts_[l * cuts + st.cut + i - st.first] = centroid_lift(n.at, pb_.dim, neighbour);
      }
    }
  }
}

template <class T>
void StepEvents::after(std::size_t j, T* values, std::size_t from, std::size_t to) const {
  for (std::size_t layer = static_cast<std::size_t>(pb_.layers); layer-- > 0;) on_layer(j, values, layer, from, to);
}

template <class T>
void StepEvents::on_layer(std::size_t j, T* values, std::size_t layer, std::size_t from, std::size_t to) const {
  for (auto e = first_at(j + 1); e != pb_.events.end() && e->at_node == j + 1; ++e) {
    const double* lifts = e->at_centroid ? lifts_.data() + layer * cuts_[e->weights] : nullptr;
    apply(pb_, (*weights_)[e->weights].data(), where_[e->weights], *e, values, layer, from, to, lifts);
  }
  if (pb_.continuous_knock_in)
    apply(pb_, (*weights_)[knock_in_.weights].data(), where_[knock_in_.weights], knock_in_, values, layer, from, to,
          nullptr);
}

std::vector<EventAction>::const_iterator StepEvents::first_at(std::size_t node) const {
  return std::lower_bound(pb_.events.begin(), pb_.events.end(), node,
                          [](const EventAction& a, std::size_t n) { return a.at_node < n; });
}

template <class T>
std::vector<T> march(const Problem& pb, const StepFnT<T>& step) {
  const StepEvents events(pb);
  MarchProgress& progress = march_progress();
  progress.start_march(pb.time.steps());
  std::vector<T> values(pb.initial.begin(), pb.initial.end());
  for (std::size_t j = 0; j < pb.time.steps(); ++j) {
    if (const Stop why = stop_now(); why.reason != StopReason::None) throw stopped(pb, j, why);
    step(j, values);
    events.lift(j, values.data(), 0, pb.points);
    events.after(j, values.data(), 0, pb.points);
    ++progress.done;
  }
  return values;
}

template <class T>
std::vector<T> march_on_threads(const Problem& pb, bool threaded, const ThreadStepFnT<T>& step,
                                bool step_applies_events) {
  // A step that applies the events builds its own StepEvents: the march's would be set-up thrown away.
  std::optional<StepEvents> events;
  if (!step_applies_events) events.emplace(pb);
  MarchProgress& progress = march_progress();
  progress.start_march(pb.time.steps());
  std::vector<T> values(pb.initial.begin(), pb.initial.end());
  const T* last = values.data();
  // A stop is looked for every `every` steps (some 20 ms of work), by the first thread, between two
  // steps and behind a barrier: threads may run steps apart (each waits only for what it reads of
  // another's parts), so they agree on the check at which they end, written once, before its barrier.
  const std::size_t every = std::max<std::size_t>(1, kValuesBetweenStopChecks / pb.values());
  std::atomic<std::size_t> stop_check{kNoStop};
  Stop why;  // the first thread's (the caller's: its deadline), read after the region
#pragma omp parallel if (threaded)
  {
    const auto [from, to] = thread_share(pb.points);
    const bool first = omp_get_thread_num() == 0;
    T* v = values.data();
    for (std::size_t j = 0; j < pb.time.steps(); ++j) {
      if (j % every == 0) {
        const std::size_t check = j / every;
        if (first && (why = stop_now()).reason != StopReason::None) stop_check.store(check);
#pragma omp barrier
        if (stop_check.load() == check) break;
      }
      v = step(j, v);
      if (first) ++progress.done;
      // Events read and write every thread's points (every thread takes the same branch).
      if (events && events->fall_after(j)) {
#pragma omp barrier
        if (events->lifts_after(j)) {
          events->lift(j, v, from, to);
#pragma omp barrier
        }
        events->after(j, v, from, to);
#pragma omp barrier
      }
    }
    if (first) last = v;
  }
  if (stop_check.load() != kNoStop) throw stopped(pb, stop_check.load() * every, why);
  if (last != values.data()) std::copy(last, last + values.size(), values.begin());
  return values;
}

template std::vector<double> march(const Problem&, const StepFnT<double>&);
template std::vector<float> march(const Problem&, const StepFnT<float>&);
template std::vector<double> march_on_threads(const Problem&, bool, const ThreadStepFnT<double>&, bool);
template std::vector<float> march_on_threads(const Problem&, bool, const ThreadStepFnT<float>&, bool);
template void StepEvents::lift(std::size_t, const double*, std::size_t, std::size_t) const;
template void StepEvents::lift(std::size_t, const float*, std::size_t, std::size_t) const;
template void StepEvents::after(std::size_t, double*, std::size_t, std::size_t) const;
template void StepEvents::after(std::size_t, float*, std::size_t, std::size_t) const;
template void StepEvents::on_layer(std::size_t, double*, std::size_t, std::size_t, std::size_t) const;
template void StepEvents::on_layer(std::size_t, float*, std::size_t, std::size_t, std::size_t) const;

}  // namespace elsbench
