#include "harness/sweep/axis.hpp"

#include <algorithm>
#include <stdexcept>

#include "platform/whole_number.hpp"

namespace elsbench {
namespace {

std::vector<SweepAxis>& registry() {
  static std::vector<SweepAxis> axes;
  return axes;
}

std::string expected(const SweepAxis& a) {
  return a.type == SweepAxis::Type::Whole
             ? "a whole number in [" + std::to_string(a.min) + ", " + std::to_string(a.max) + "]"
             : "a non-empty string";
}

}  // namespace

const std::vector<SweepAxis>& sweep_axes() { return registry(); }

const SweepAxis* find_sweep_axis(const std::string& key) {
  for (const SweepAxis& a : registry())
    if (a.key == key) return &a;
  return nullptr;
}

bool declare_sweep_axis(SweepAxis axis) {
  auto& axes = registry();
  if (find_sweep_axis(axis.key)) throw std::logic_error("sweep axis '" + axis.key + "' declared twice");
  axes.push_back(std::move(axis));
  std::stable_sort(axes.begin(), axes.end(), [](const SweepAxis& a, const SweepAxis& b) { return a.order < b.order; });
  return true;
}

nlohmann::json axis_value(const SweepAxis& axis, const nlohmann::json& value) {
  if (axis.type == SweepAxis::Type::Whole) {
    if (!value.is_number_integer() || value.get<long long>() < axis.min || value.get<long long>() > axis.max)
      throw std::invalid_argument("expected " + expected(axis) + ", got " + value.dump());
    return value;
  }
  if (!value.is_string() || value.get<std::string>().empty())
    throw std::invalid_argument("expected " + expected(axis) + ", got " + value.dump());
  if (axis.check) axis.check(value.get<std::string>());
  return value;
}

nlohmann::json axis_value_from_text(const SweepAxis& axis, const std::string& text) {
  if (axis.type == SweepAxis::Type::Text) return axis_value(axis, text);
  const std::optional<long long> v = whole_number(text);
  if (!v) throw std::invalid_argument("expected " + expected(axis) + ", got '" + text + "'");
  return axis_value(axis, *v);
}

}  // namespace elsbench
