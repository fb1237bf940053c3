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

// The same march held in one parallel region (`threaded`: more than one thread): every thread
// calls step(j, values) for every step, and step shares out its own work and returns where the
// calling thread left the values (values, or a buffer of its own that stays alive until the march
// returns); step itself sees to it that a thread reads another's values only once they are
// written. Where events fall, a barrier, each thread's share of the points, and a barrier. The
// threads never leave the region between steps, and the events run on all of them.
template <class T>
using ThreadStepFnT = std::function<T*(std::size_t step, T* values)>;
template <class T>
std::vector<T> march_on_threads(const Problem& pb, bool threaded, const ThreadStepFnT<T>& step);

}  // namespace elsbench
