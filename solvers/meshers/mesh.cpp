#include "solvers/meshers/mesh.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace elsbench {
namespace {

// Moves the midpoint nearest to `face` onto it: scales the nodes up to that cell, then stretches the
// rest linearly up to S_max. A barrier monitored daily is applied hundreds of times; on a face its
// cell fractions are exactly 0 or 1, where a barrier inside a cell is smeared at each application
// and the price wanders with n instead of converging.
// The cell whose midpoint is nearest `face`, at or after cell `from`.
std::size_t nearest_midpoint(const std::vector<double>& s, double face, std::size_t from) {
  std::size_t j = from;
  double best = INFINITY;
  for (std::size_t i = from; i + 1 < s.size(); ++i) {
    const double gap = std::abs(0.5 * (s[i] + s[i + 1]) - face);
    if (gap < best) best = gap, j = i;
  }
  return j;
}

void put_on_face(std::vector<double>& s, double face) {
  const std::size_t j = nearest_midpoint(s, face, 0);
  const double scale = face / (0.5 * (s[j] + s[j + 1]));
  const double pivot = s[j + 1], s_max = s.back();
  if (!(pivot * scale < s_max)) throw std::invalid_argument("mesh: the level to put on a cell face lies beyond S_max");
  const double stretch = (s_max - pivot * scale) / (s_max - pivot);
  for (std::size_t i = 0; i < s.size(); ++i)
    s[i] = i <= j + 1 ? s[i] * scale : pivot * scale + (s[i] - pivot) * stretch;
  s.back() = s_max;
}

// A second level on a face, above the first (whose cell ends at node `fixed`, left where it is):
// the nodes from there to the upper face's cell move by one affine map, the rest stretch up to
// S_max. Left out when the nearest midpoint is the first face's own.
void put_on_upper_face(std::vector<double>& s, double lower, double face) {
  const std::size_t fixed = nearest_midpoint(s, lower, 0) + 1, j = nearest_midpoint(s, face, fixed);
  const double mid = 0.5 * (s[j] + s[j + 1]);
  if (!(mid > s[fixed]) || !(face > s[fixed])) return;
  const double scale = (face - s[fixed]) / (mid - s[fixed]);
  const double pivot = s[fixed] + (s[j + 1] - s[fixed]) * scale, s_max = s.back();
  if (!(pivot < s_max)) throw std::invalid_argument("mesh: the level to put on a cell face lies beyond S_max");
  const double stretch = (s_max - pivot) / (s_max - s[j + 1]), old_pivot = s[j + 1];
  for (std::size_t i = fixed + 1; i < s.size(); ++i)
    s[i] = i <= j + 1 ? s[fixed] + (s[i] - s[fixed]) * scale : pivot + (s[i] - old_pivot) * stretch;
  s.back() = s_max;
}

// The root of the increasing xi(x) = target on [0, s_max] by Newton's method from `guess`,
// bisecting where a step leaves the bracket. Newton's error squares each step, so the step that
// moves under 1e-9 of S_max lands within about 1e-16 of S_max of the root (xi'' / xi' is at most
// 1 / (density x centre)); a root that does not settle takes the bisection to 1e-14 of S_max.
template <class Xi, class Slope>
double newton_root(Xi xi, Slope slope, double target, double s_max, double guess) {
  double a = 0.0, b = s_max, x = guess;
  for (int it = 0; it < 60; ++it) {
    const double f = xi(x) - target;
    (f < 0 ? a : b) = x;
    const double next = x - f / slope(x);
    if (std::abs(next - x) <= 1e-9 * s_max) return next;
    x = next > a && next < b ? next : 0.5 * (a + b);
  }
  for (int it = 0; it < 200 && b - a > 1e-14 * s_max; ++it) {
    const double m = 0.5 * (a + b);
    (xi(m) < target ? a : b) = m;
  }
  return 0.5 * (a + b);
}

// Several concentration points: the mesh coordinate is the sum of their sinh maps' coordinates,
// xi(S) = sum_k asinh((S - c_k) / a_k), monotone, inverted node by node by Newton's method from
// the line through the two nodes below (a bisection to 1e-14 of S_max evaluated xi 47 times a
// node: 14 % of a GPU book's host set-up).
std::vector<double> multi_center_sinh(const MeshSpec& spec) {
  struct Center {
    double c, a;
  };
  std::vector<Center> centers{{spec.center, spec.density * spec.center}};
  if (spec.second_center > 0) centers.push_back({spec.second_center, spec.second_density * spec.second_center});
  if (spec.third_center > 0) centers.push_back({spec.third_center, spec.third_density * spec.third_center});
  auto xi = [&](double x) {
    double sum = 0;
    for (const Center& k : centers) sum += std::asinh((x - k.c) / k.a);
    return sum;
  };
  auto slope = [&](double x) {
    double sum = 0;
    for (const Center& k : centers) sum += 1 / std::hypot(k.a, x - k.c);
    return sum;
  };
  const double lo = xi(0.0), hi = xi(spec.s_max);
  const std::size_t n = static_cast<std::size_t>(spec.nodes);
  std::vector<double> s(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double target = lo + (hi - lo) * static_cast<double>(i) / static_cast<double>(n - 1);
    const double guess = i < 2 ? 0.0 : 2 * s[i - 1] - s[i - 2];
    s[i] = newton_root(xi, slope, target, spec.s_max, std::clamp(guess, 0.0, spec.s_max));
  }
  return s;
}

}  // namespace

std::vector<double> make_mesh(const MeshSpec& spec) {
  if (spec.nodes < 4) throw std::invalid_argument("a mesh needs at least 4 nodes per axis");
  if (!(spec.s_max > 0)) throw std::invalid_argument("S_max must be > 0");
  const auto n = static_cast<std::size_t>(spec.nodes);
  std::vector<double> s(n);
  const double last = static_cast<double>(n - 1);
  if (spec.kind == MeshKind::Uniform) {
    for (std::size_t i = 0; i < n; ++i) s[i] = spec.s_max * static_cast<double>(i) / last;
  } else if (spec.second_center > 0 || spec.third_center > 0) {
    s = multi_center_sinh(spec);
  } else {
    const double alpha = spec.density * spec.center;
    const double lo = std::asinh(-spec.center / alpha);
    const double hi = std::asinh((spec.s_max - spec.center) / alpha);
    for (std::size_t i = 0; i < n; ++i)
      s[i] = spec.center + alpha * std::sinh(lo + (hi - lo) * static_cast<double>(i) / last);
  }
  s.front() = 0.0;
  s.back() = spec.s_max;
  if (spec.face > 0 && spec.face < spec.s_max) put_on_face(s, spec.face);
  if (spec.face > 0 && spec.upper_face > spec.face && spec.upper_face < spec.s_max)
    put_on_upper_face(s, spec.face, spec.upper_face);
  return s;
}

MeshKind parse_mesh_kind(const std::string& name) {
  if (name == "uniform") return MeshKind::Uniform;
  if (name == "sinh") return MeshKind::Sinh;
  throw std::invalid_argument("unknown mesh '" + name + "' (expected uniform or sinh)");
}

const char* to_string(MeshKind k) { return k == MeshKind::Uniform ? "uniform" : "sinh"; }

}  // namespace elsbench
