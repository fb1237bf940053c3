#pragma once
// The backward march shared by the CPU variants: payoff at tau = 0, one step at a time, events
// (autocall resets, knock-in projections) at the time nodes where they fall.
#include <functional>
#include <string>
#include <vector>

#include "solvers/problem/problem.hpp"

namespace elsbench {

// Applies the actions due at time node `node`; `next` indexes pb.events and is advanced. Values in
// T = double or float (an fp32 march; the weights stay fp64).
template <class T>
void apply_events(const Problem& pb, std::size_t node, std::size_t& next, T* values);
// Continuous knock-in: the alive layer takes the knocked-in value on and below the barrier.
template <class T>
void project_knock_in(const Problem& pb, T* values);

// step(j, values) advances values from tau[j] to tau[j+1].
template <class T>
using StepFnT = std::function<void(std::size_t step, std::vector<T>& values)>;
using StepFn = StepFnT<double>;
template <class T>
std::vector<T> march(const Problem& pb, const StepFnT<T>& step);
inline std::vector<double> march(const Problem& pb, const StepFn& step) { return march<double>(pb, step); }

}  // namespace elsbench
