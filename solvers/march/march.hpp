#pragma once
// The backward march shared by the CPU variants: payoff at tau = 0, one step at a time, events
// (autocall resets, knock-in projections) at the time nodes where they fall, in the order of
// pb.events, then the continuous knock-in projection. Values in T = double or float (an fp32
// march; the event weights stay fp64).
#include <functional>
#include <string>
#include <vector>

#include "solvers/problem/problem.hpp"

namespace elsbench {

// step(j, values) advances values from tau[j] to tau[j+1].
template <class T>
using StepFnT = std::function<void(std::size_t step, std::vector<T>& values)>;
using StepFn = StepFnT<double>;
template <class T>
std::vector<T> march(const Problem& pb, const StepFnT<T>& step);
inline std::vector<double> march(const Problem& pb, const StepFn& step) { return march<double>(pb, step); }

// Points [first, last) where an event's weight is not zero; `ones`: it is 1 on all of them.
struct EventStretch {
  std::size_t first, last;
  bool ones;
  std::size_t cut = 0;  // unless ones, the side's cut cells before `first` (where its lifts start)
};

// The events that fall at the end of each step, on any range of points, in the order of pb.events
// (by node, then by kind: event_kind.hpp), then the continuous knock-in.
class StepEvents {
 public:
  explicit StepEvents(const Problem& pb);
  StepEvents(const StepEvents&) = delete;  // weights_ may point into formed_
  StepEvents& operator=(const StepEvents&) = delete;

  // Whether any event falls after step j (at time node j + 1).
  bool fall_after(std::size_t j) const;
  // Whether one that reads another layer does (a knock-in, a lizard's break): a layer then reads
  // the layers above it.
  bool reads_layers_after(std::size_t j) const;
  // Whether an autocall after step j takes its cut cells at their centroids (EventAction::
  // at_centroid): its lifts read neighbours, so lift() must see every point before any event is
  // applied, then after() or on_layer() may run.
  bool lifts_after(std::size_t j) const;
  // Those lifts on the cut cells among points [from, to) of every layer.
  template <class T>
  void lift(std::size_t j, const T* values, std::size_t from, std::size_t to) const;
  // After step j (and lift()), on points [from, to) of every layer.
  template <class T>
  void after(std::size_t j, T* values, std::size_t from, std::size_t to) const;
  // After step j, what writes layer `layer` on its points [from, to). Its events may read the
  // layers above it there, which must have had their own events; on a point, the layers from the
  // last down are the same arithmetic as after().
  template <class T>
  void on_layer(std::size_t j, T* values, std::size_t layer, std::size_t from, std::size_t to) const;

 private:
  std::vector<EventAction>::const_iterator first_at(std::size_t node) const;
  const Problem& pb_;
  std::vector<std::vector<double>> formed_;  // phi per node, where the problem has none
  const std::vector<std::vector<double>>* weights_ = nullptr;  // the problem's, or formed_
  std::vector<std::vector<EventStretch>> where_;  // per event weights
  std::vector<std::size_t> cuts_;                  // per event weights: its cut cells
  mutable std::vector<double> lifts_;              // a centroid autocall's, cuts_ per layer
  EventAction knock_in_;
};

// The same march held in one parallel region (`threaded`: more than one thread): every thread
// calls step(j, values) for every step, and step shares out its own work and returns where the
// calling thread left the values (values, or a buffer of its own that stays alive until the march
// returns); step itself sees to it that a thread reads another's values only once they are
// written. The threads never leave the region between steps. Events: `step_applies_events`, step
// applies them (StepEvents) to what it owns; otherwise, where they fall, a barrier, each thread's
// share of the points, and a barrier.
template <class T>
using ThreadStepFnT = std::function<T*(std::size_t step, T* values)>;
template <class T>
std::vector<T> march_on_threads(const Problem& pb, bool threaded, const ThreadStepFnT<T>& step,
                                bool step_applies_events = false);

}  // namespace elsbench
