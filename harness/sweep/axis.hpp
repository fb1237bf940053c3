#pragma once
// A sweep axis as an object, declared where it is defined (as nvbench declares a benchmark's axes):
// its key (the preset's JSON key and the field of the results file), its flag, the type of its
// values, how a value is checked, what a group that leaves it empty takes, and how a value enters
// a case. One file under harness/sweep/axes/ per axis, registered with ELSBENCH_SWEEP_AXIS; the
// planner takes the product of every declared axis in their order (docs/adding-an-axis.md).
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "harness/run/case.hpp"

namespace elsbench {

struct SweepAxis {
  enum class Type { Text, Whole };
  std::string key = "";   // "products", "n", ...
  std::string flag = "";  // "--products", "--n", ...
  std::string help = "";
  int order = 0;     // position in the product: a lower order varies more slowly
  Type type = Type::Text;
  long long min = 0, max = 0;  // Whole: the bounds of a value
  // What a group that leaves the axis empty takes: null, the axis is required; an empty array, it
  // stays empty and `enter` sees one null value (the case keeps its default).
  nlohmann::json defaults = nullptr;
  // Text: throws std::invalid_argument for a value that cannot be parsed (refused before any case).
  std::function<void(const std::string& value)> check = nullptr;
  // The cases a value makes of the case planned so far: usually one, several where a value
  // expands (every scheme), none where it does not apply. Throws std::invalid_argument for a
  // value that is wrong in that context.
  std::function<std::vector<SweepCase>(SweepCase c, const nlohmann::json& value)> enter = nullptr;
};

// Every declared axis, by order.
const std::vector<SweepAxis>& sweep_axes();
const SweepAxis* find_sweep_axis(const std::string& key);
bool declare_sweep_axis(SweepAxis axis);

// A value of `axis` from JSON (a string, or a whole number in bounds) or from the command line's
// text, checked; throws std::invalid_argument saying what was expected.
nlohmann::json axis_value(const SweepAxis& axis, const nlohmann::json& value);
nlohmann::json axis_value_from_text(const SweepAxis& axis, const std::string& text);

}  // namespace elsbench

#define ELSBENCH_SWEEP_AXIS(...)                                                        \
  static const bool ELSBENCH_AXIS_CONCAT(elsbench_sweep_axis_, __LINE__) [[maybe_unused]] = \
      ::elsbench::declare_sweep_axis(__VA_ARGS__)
#define ELSBENCH_AXIS_CONCAT_INNER(a, b) a##b
#define ELSBENCH_AXIS_CONCAT(a, b) ELSBENCH_AXIS_CONCAT_INNER(a, b)
