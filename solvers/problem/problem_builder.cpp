#include "solvers/problem/problem_builder.hpp"

#include <omp.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <iomanip>
#include <sstream>
#include <stdexcept>
#include <tuple>
#include <utility>

#include "platform/side_by_side.hpp"
#include "platform/solver_error.hpp"
#include "platform/thread_share.hpp"
#include "products/note_events.hpp"
#include "products/payoff.hpp"
#include "solvers/meshers/time_grid.hpp"
#include "solvers/problem/grid_codec.hpp"

namespace elsbench {
namespace {

// Sinh scale around the knock-in barrier, as a fraction of it: 0.05-0.2 give the same limit; 0.1
// had the smallest error at n = 100-300 on the sample ELS with a knock-in only.
constexpr double kKnockInDensity = 0.1;

// A spot within one sd of log S over the note's life (sigma sqrt(T)) of the barrier: the daily
// knock-in decides much of the price, and its boundary layer (sigma sqrt(1 day), 1-2 % of the
// barrier) takes half the scale (book-s3-00017, 11 % above it: 1.50 bp off, 0.37 at 0.05). Every
// axis at 0.05 took the nodes of near autocall dates (book-s3-00039: 1.1 to 8.3 bp; accuracy.md).
constexpr double kNearKnockInDensity = 0.05, kNearKnockInSpreads = 1.0;

// An autocall date within weeks with a spot within 3 sd (sigma sqrt(t)) of its barrier: the price
// is nearly that date's digital, smoothed over sigma sqrt(t), a few cells of the mesh. Nodes
// concentrate at its barrier too, scale 2 sigma sqrt(t) of it: book-s3-00062 (11 days, spot 0.843
// at 0.85) 1.92 to 0.18 bp. A monthly note's first date (21 days) lost more than it gained.
constexpr double kNearDateYears = 0.05, kNearDateSpreads = 3.0, kNearDateScale = 2.0, kMinNearDateDensity = 0.005;

// Level around which the mesh is concentrated: where the payoff has its kinks.
double mesh_center(const Product& p, int d) {
  const Underlying& a = p.assets[static_cast<std::size_t>(d)];
  switch (p.type) {
    case ProductType::StepdownEls: return a.reference;
    case ProductType::Exchange: return a.spot;
    case ProductType::CashOrNothing2: return p.option().strikes[static_cast<std::size_t>(d)];
    default: return p.option().strikes[0];
  }
}

// The far boundary takes the value as linear in S (axis_operator.hpp). That is exact where the
// value is flat, as a bounded payoff's is (puts, digitals, the ELS's redemptions), but only
// asymptotic where it grows with S (calls): the gap there is a far out-of-the-money put, which
// fades more slowly. So S_max lies k standard deviations of log S above the level's forward,
// k (Tavella & Randall's "a few sigma sqrt(T)") measured at vol 1 by widening the domain: from 2
// to 3 sd a put moves by 0.017 %, while a min call moves by 4.8 % from 2.3 to 3.4 sd and 0.13 %
// more to 4.6 sd (docs/accuracy.md). Both keep the catalog's domains at 4x (the ELS need 3.8x at most).
constexpr double kBoundedSpread = 2.5, kGrowingSpread = 4.0;

// sigma sqrt(T): the sd of log S over the note's life.
double log_spread(const Product& p, const Underlying& a) { return a.vol * std::sqrt(p.maturity()); }

bool value_grows_with_spot(ProductType t) {
  return t == ProductType::EuropeanCall || t == ProductType::MinCall || t == ProductType::MaxCall ||
         t == ProductType::Exchange;
}

// log(S_max / level) the model asks for: the forward over the note's life plus k sd of log S.
double model_log_range(const Product& p, const Underlying& a) {
  const double k = value_grows_with_spot(p.type) ? kGrowingSpread : kBoundedSpread;
  return (p.rate - a.div_yield) * p.maturity() + k * log_spread(p, a);
}

// S_max of axis d: the grid's multiple of the level (the mesh's center, spot or reference,
// whichever is highest), or wider where the model's range of S over the note's life needs it;
// the multiple is a floor, never a truncation.
double far_boundary(const Product& p, int d, const GridOptions& g) {
  const Underlying& a = p.assets[static_cast<std::size_t>(d)];
  const double level = std::max({mesh_center(p, d), a.spot, a.reference});
  return level * std::max(g.s_max_multiple, std::exp(model_log_range(p, a)));
}

// The sinh scale, as a fraction of the center: the grid's density, or less where S's spread over
// the note's life (sigma sqrt(T) of the center) is narrower: a scale wider than 4 sd puts the
// whole distribution inside a cell or two (a call at vol 0.05 over 4 days priced 0.63 against
// 0.215 at n = 60; 0.217 with this rule). The catalog's spreads (0.14 and up) keep the density 0.5.
constexpr double kSpreadsPerScale = 4.0;

double mesh_density(const Product& p, const Underlying& a, const GridOptions& g) {
  return std::max(kMinDensity, std::min(g.density, kSpreadsPerScale * log_spread(p, a)));
}

double knock_in_density(const Product& p, const Underlying& a) {
  const double distance = std::abs(std::log(a.spot / (p.els().knock_in.barrier * a.reference)));
  return distance < kNearKnockInSpreads * log_spread(p, a) ? kNearKnockInDensity : kKnockInDensity;
}

// The first autocall date's barrier level and its sinh scale (a fraction of it) where that date is
// near and the spot near its barrier; 0 and 0 otherwise.
std::pair<double, double> near_autocall(const Product& p, const Underlying& a) {
  if (!p.is_els() || p.els().autocall.empty()) return {0.0, 0.0};
  const AutocallDate& first = p.els().autocall.front();
  const double level = first.barrier * a.reference, spread = a.vol * std::sqrt(first.time);
  if (!(first.time > 0 && first.time <= kNearDateYears)) return {0.0, 0.0};
  if (std::abs(std::log(a.spot / level)) >= kNearDateSpreads * spread) return {0.0, 0.0};
  return {level, std::max(kMinNearDateDensity, kNearDateScale * spread)};
}

// A price-space grid carries a spread sigma sqrt(T) of log S over the note's life up to about 2:
// beyond, the domain spans e^{4 sigma sqrt(T)} of the level and the nodes near the strike thin out:
// a call at vol 3 over a year was 3 % off at n = 60 (1 % at n = 120) and a put at vol 1 over 30
// years 7 % off: refused rather than priced with an error of percent (docs/accuracy.md).
constexpr double kMaxSpread = 2.0;

void check_spread(const Product& p) {
  for (const Underlying& a : p.assets) {
    const double spread = log_spread(p, a);
    if (spread > kMaxSpread) {
      std::ostringstream msg;
      msg << "vol x sqrt(maturity) of " << a.name << " is " << spread << ", beyond the " << kMaxSpread
          << " a price-space grid carries (its domain would reach e^" << model_log_range(p, a)
          << " of the level); price it by Monte Carlo (elsbench reference)";
      throw SolverError(SolverError::Kind::Unsupported, msg.str());
    }
  }
}

// A grid's values carry a note's state in their layers. A payment that accrues (memory coupons)
// would need a layer per count of dates missed; Monte Carlo carries the count on each path.
void check_state(const std::vector<NoteEvent>& events) {
  if (std::any_of(events.begin(), events.end(), [](const NoteEvent& e) { return e.accrues; }))
    throw SolverError(SolverError::Kind::Unsupported,
                      "memory coupons depend on how many coupons the path has missed, a state no finite-difference "
                      "grid here carries; price the note by Monte Carlo (elsbench reference)");
}

// Carries the mesh on beyond its S_max to `factor` x S_max, each new cell wider than the last by
// the mesh's own ratio there (at least the last cell's width): the nodes below S_max stay where
// they were, so a price on the extended mesh differs by the truncation alone.
void extend_domain(std::vector<double>& s, double factor) {
  if (factor <= 1.0 || s.size() < 3) return;
  const std::size_t n = s.size();
  const double far = factor * s.back(), last = s[n - 1] - s[n - 2];
  const double ratio = std::max(1.0, last / (s[n - 2] - s[n - 3]));
  for (double cell = last * ratio; s.back() < far; cell *= ratio) s.push_back(s.back() + cell);
}

// The barrier of a state of the note's own observed on the knock-in's days (event_kind.hpp's
// has_own_layer: a lizard's), or 0.
double own_state_barrier(const std::vector<NoteEvent>& events) {
  for (const NoteEvent& e : events)
    if (has_own_layer(e.kind)) return e.barrier;
  return 0.0;
}

Axis make_axis(const Product& p, const std::vector<NoteEvent>& events, int d, const GridOptions& g, std::size_t stride) {
  const Underlying& a = p.assets[static_cast<std::size_t>(d)];
  MeshSpec m;
  m.kind = g.mesh;
  m.nodes = g.nodes(d);
  m.center = mesh_center(p, d);
  m.density = mesh_density(p, a, g);
  m.s_max = far_boundary(p, d, g);
  // The knock-in replaces the value below the barrier every monitoring day: a jump that diffuses
  // only about sigma * sqrt(1 day) * S before the next one. Nodes concentrate there as well, and
  // the barrier sits on a cell face (see put_on_face in mesh.cpp).
  if (p.can_knock_in()) {
    m.face = p.els().knock_in.barrier * a.reference;
    m.second_center = m.face;
    m.second_density = knock_in_density(p, a);
    // A state of the note's own (a lizard's) is observed daily too: its barrier on a face as well.
    if (const double own = own_state_barrier(events); own > 0) m.upper_face = own * a.reference;
  }
  std::tie(m.third_center, m.third_density) = near_autocall(p, a);
  Axis axis;
  axis.s = make_mesh(m);
  extend_domain(axis.s, g.domain_extension);
  axis.op = axis_operator(axis.s, a.vol, p.rate - a.div_yield, p.rate / p.dimension());
  axis.d1 = scaled_first_derivative(axis.s);
  axis.stride = stride;
  axis.spot = a.spot;
  axis.at_spot = spot_stencil(axis.s, a.spot);
  return axis;
}

// A mesh whose cell at the spot is wider than 2.5 of the spot's spreads over the note's life
// (sigma sqrt(T) S) has about one node where the note's value changes, and prices anything (the
// cases that showed it: docs/accuracy.md, "Domain from the model"). Refused (exit 3),
// naming the flags; a grid that passes may still be percent off: it is a benchmark's fixed grid,
// and the accuracy contract (no --n) or a reference's verdict stands behind a price.
constexpr double kMaxCellSpreads = 2.5;

void check_resolution(const Axis& axis, const Product& p, const Underlying& a) {
  const auto above = std::upper_bound(axis.s.begin(), axis.s.end(), a.spot);
  if (above == axis.s.begin() || above == axis.s.end()) return;
  const double cell = *above - *(above - 1), spread = log_spread(p, a) * a.spot;
  if (cell <= kMaxCellSpreads * spread) return;
  std::ostringstream msg;
  msg << "the mesh's cell at the spot of " << a.name << " is " << cell << " wide, more than " << kMaxCellSpreads
      << " x its spread vol x sqrt(maturity) x spot = " << spread
      << " over the note's life: the grid cannot resolve it; use more nodes (--n), a smaller --s-max or --mesh sinh";
  throw SolverError(SolverError::Kind::Unsupported, msg.str());
}

// Calls f(flat index, indices, spots) for every node of the mesh, on OpenMP threads in equal shares
// of nodes: f must only write what belongs to its node (a cut cell's payoff average takes a
// thousand payoff samples, which made the set-up a serial tenth of a short pricing).
template <class F>
void for_each_node(const Problem& pb, F&& f) {
#pragma omp parallel if (pb.points >= 4096 && omp_get_max_threads() > 1)
  {
    const auto [first, last] = thread_share(pb.points);
    std::vector<double> spots(static_cast<std::size_t>(pb.dim));
    std::vector<std::size_t> idx(static_cast<std::size_t>(pb.dim), 0);
    for (std::size_t d = 0, rest = first; d < idx.size(); rest /= pb.axes[d].size(), ++d)
      idx[d] = rest % pb.axes[d].size();
    for (std::size_t flat = first; flat < last; ++flat) {
      for (std::size_t d = 0; d < spots.size(); ++d) spots[d] = pb.axes[d].s[idx[d]];
      f(flat, idx, spots);
      for (std::size_t d = 0; d < idx.size(); ++d) {
        if (++idx[d] < pb.axes[d].size()) break;
        idx[d] = 0;
      }
    }
  }
}

// The payoff at tau = 0 is the average of the payoff over each node's cell (midpoint to
// midpoint), not its value at the node: a kink or a jump sampled at nodes gives an error that
// jumps about with n, and a jump only first order (Pooley, Vetzal & Forsyth 2003). Where the
// centre value equals the mean of the corners (the payoff is affine or bilinear over the cell)
// the centre value is the exact average; cells cut by a kink or a jump take a fine midpoint rule
// (Gauss rules are not accurate on a jump), or for the ELS, whose payoff is a function of one
// number, the performance, an exact integral over that number's distribution in the cell (in the
// node's hat where that spans a break: SideWeight).
class CellAverage {
 public:
  explicit CellAverage(const Problem& pb) {
    for (const Axis& ax : pb.axes) {
      std::vector<std::array<double, 2>> cells;
      for (std::size_t i = 0; i < ax.size(); ++i)
        cells.push_back({i == 0 ? ax.s[0] : 0.5 * (ax.s[i - 1] + ax.s[i]),
                         i + 1 == ax.size() ? ax.s[i] : 0.5 * (ax.s[i] + ax.s[i + 1])});
      cells_.push_back(std::move(cells));
      nodes_.push_back(ax.s);
    }
    constexpr std::size_t kPerAxis[4] = {1, 64, 32, 12};  // ~1e3 samples per cut cell at most
    per_axis_ = kPerAxis[std::min<std::size_t>(cells_.size(), 3)];
  }

  // values(spots, out) writes the payoff of each layer at spots[0 .. dim) into out[0 .. layers).
  template <class Payoff>
  void fill(Problem& pb, Payoff&& values) const {
    fill_cells(
        pb, [&](const std::vector<std::size_t>& idx) { return sample(idx, values, 0.5); },
        [&](const std::vector<std::size_t>& idx, const LayerValues& centre, std::size_t layers) {
          return bilinear(idx, centre, layers, [&](std::size_t corner) { return corner_sample(idx, values, corner); });
        },
        [&](const std::vector<std::size_t>& idx, std::size_t layers) { return midpoint_average(idx, layers, values); });
  }

  // The same for a payoff of the performance alone (the ELS): values_of(perf, out), linear in the
  // performance between the levels `breaks` (its jumps and kinks). An average there is exact
  // (expected_payoff), not a midpoint rule, whose samples put a jump up to 1/(2m) of a cell from
  // where it is (a single-date knocked-in note: 2.1 bp off at the default grid, 0.4 bp exact);
  // and a node whose hat spans a break takes the hat's weight, as an event's side does.
  template <class PerfPayoff>
  void fill_by_performance(Problem& pb, const PayoffTerms& terms, const std::vector<double>& breaks,
                           PerfPayoff&& values_of) const {
    if (breaks.size() > kMaxBreaks) throw std::logic_error("fill_by_performance: more breaks than kMaxBreaks");
    const std::vector<RatioCells> ratios = ratio_cells(terms, breaks);
    const AxisValues at = axis_values(terms, values_of);
    fill_cells(
        pb, [&](const std::vector<std::size_t>& idx) { return at.centre(idx, terms.worst_of); },
        [&](const std::vector<std::size_t>& idx, const LayerValues& centre, std::size_t layers) {
          if (hat_holds_break(idx, terms, ratios, breaks)) return false;
          return affine_in_one_ratio(idx, terms, ratios) || bilinear(idx, centre, layers, [&](std::size_t corner) {
                   return at.corner(idx, corner, terms.worst_of);
                 });
        },
        [&](const std::vector<std::size_t>& idx, std::size_t layers) {
          return hat_holds_break(idx, terms, ratios, breaks) ? hat_average(idx, layers, terms, breaks, values_of)
                                                             : cell_average(idx, layers, terms, breaks, values_of);
        });
  }

 private:
  // Payoff at the point of the cell at fraction t of its width on every axis (t = 0.5: centre).
  template <class Payoff>
  LayerValues sample(const std::vector<std::size_t>& idx, Payoff& values, double t) const {
    Spots spots{};
    for (std::size_t d = 0; d < idx.size(); ++d) {
      const auto [lo, hi] = cells_[d][idx[d]];
      spots[d] = lo + t * (hi - lo);
    }
    LayerValues v{};
    values(spots.data(), v.data());
    return v;
  }

  // The payoff at a corner of the cell: bit d of `corner` picks the cell's upper end on axis d.
  template <class Payoff>
  LayerValues corner_sample(const std::vector<std::size_t>& idx, Payoff& values, std::size_t corner) const {
    Spots spots{};
    for (std::size_t d = 0; d < idx.size(); ++d) spots[d] = cells_[d][idx[d]][(corner >> d) & 1];
    LayerValues v{};
    values(spots.data(), v.data());
    return v;
  }

  // Whether the centre value is the mean of the corners' (corner_value(corner), as corner_sample).
  template <class CornerValue>
  static bool bilinear(const std::vector<std::size_t>& idx, const LayerValues& centre, std::size_t layers,
                       CornerValue corner_value) {
    const std::size_t corners = std::size_t{1} << idx.size();
    LayerValues mean{};
    for (std::size_t corner = 0; corner < corners; ++corner) {
      const LayerValues v = corner_value(corner);
      for (std::size_t l = 0; l < layers; ++l) mean[l] += v[l] / static_cast<double>(corners);
    }
    for (std::size_t l = 0; l < layers; ++l)
      if (std::abs(mean[l] - centre[l]) > 1e-12 * (1.0 + std::abs(centre[l]))) return false;
    return true;
  }

  template <class Payoff>
  LayerValues midpoint_average(const std::vector<std::size_t>& idx, std::size_t layers,
                                         Payoff& values) const {
    const std::size_t dim = idx.size(), m = per_axis_;
    std::size_t samples = 1;
    for (std::size_t d = 0; d < dim; ++d) samples *= m;
    Spots spots{};
    LayerValues sum{}, v{};
    for (std::size_t k = 0; k < samples; ++k) {
      std::size_t rest = k;
      for (std::size_t d = 0; d < dim; ++d, rest /= m) spots[d] = spot_sample(d, idx[d], rest % m);
      values(spots.data(), v.data());
      for (std::size_t l = 0; l < layers; ++l) sum[l] += v[l] / static_cast<double>(samples);
    }
    return sum;
  }

  // centre(idx): the payoff at the cell's centre; exact(idx, centre, layers): whether that is the
  // cell's average (the payoff affine or bilinear over it); cut_average(idx, layers) where not.
  template <class Centre, class Exact, class CutAverage>
  void fill_cells(Problem& pb, Centre centre_of, Exact exact, CutAverage cut_average) const {
    const auto layers = static_cast<std::size_t>(pb.layers);
    for_each_node(pb, [&](std::size_t flat, const std::vector<std::size_t>& idx, const std::vector<double>&) {
      LayerValues centre = centre_of(idx), avg = centre;
      if (!exact(idx, centre, layers)) avg = cut_average(idx, layers);
      for (std::size_t l = 0; l < layers; ++l) pb.initial[l * pb.points + flat] = avg[l];
    });
  }

  // The performance payoff at each cell's lower end, upper end and centre along each axis, with
  // the ratio there: the performance at a cell's corner or centre is one axis's ratio there, so
  // 3n payoff evaluations an axis give every node's centre and corner values, with the same bits
  // as sampling them (corner_sample and sample form the same spots).
  struct AxisValues {
    std::vector<std::vector<std::array<double, 3>>> ratio;  // lower end, upper end, centre
    std::vector<std::vector<std::array<LayerValues, 3>>> value;
    LayerValues centre(const std::vector<std::size_t>& idx, bool worst_of) const {
      return pick(idx, worst_of, [](std::size_t) { return std::size_t{2}; });
    }
    LayerValues corner(const std::vector<std::size_t>& idx, std::size_t corner, bool worst_of) const {
      return pick(idx, worst_of, [&](std::size_t d) { return (corner >> d) & 1; });
    }
    // The value at the point whose end on axis d is end(d), from the axis with the worst (best) ratio.
    template <class End>
    LayerValues pick(const std::vector<std::size_t>& idx, bool worst_of, End end) const {
      std::size_t axis = 0;
      for (std::size_t d = 1; d < idx.size(); ++d) {
        const double x = ratio[d][idx[d]][end(d)], perf = ratio[axis][idx[axis]][end(axis)];
        if (worst_of ? x < perf : x > perf) axis = d;
      }
      return value[axis][idx[axis]][end(axis)];
    }
  };

  template <class PerfPayoff>
  AxisValues axis_values(const PayoffTerms& terms, PerfPayoff& values_of) const {
    AxisValues out;
    for (std::size_t d = 0; d < cells_.size(); ++d) {
      std::vector<std::array<double, 3>> ratio;
      std::vector<std::array<LayerValues, 3>> value;
      for (const auto& [lo, hi] : cells_[d]) {
        const std::array<double, 3> r = {lo / terms.reference[d], hi / terms.reference[d],
                                         (lo + 0.5 * (hi - lo)) / terms.reference[d]};
        std::array<LayerValues, 3> v{};
        for (std::size_t k = 0; k < 3; ++k) values_of(r[k], v[k].data());
        ratio.push_back(r);
        value.push_back(v);
      }
      out.ratio.push_back(std::move(ratio));
      out.value.push_back(std::move(value));
    }
    return out;
  }

  // Each cell's ratios S_d / reference_d along one axis, widened by a margin that leaves a cell
  // whose ends touch a level to the corners' test, and whether a break of the payoff lies between.
  // Each node's hat span in ratios too (hat_lo = hat_hi = 0 at an axis' ends, which have no hat).
  struct RatioCells {
    std::vector<double> lo, hi;
    std::vector<char> broken;
    std::vector<double> hat_lo, hat_hi;
  };

  std::vector<RatioCells> ratio_cells(const PayoffTerms& terms, const std::vector<double>& breaks) const {
    constexpr double kMargin = 1e-12;
    std::vector<RatioCells> out(cells_.size());
    for (std::size_t d = 0; d < cells_.size(); ++d)
      for (const auto& [lo, hi] : cells_[d]) {
        const double from = lo / terms.reference[d] * (1 - kMargin), to = hi / terms.reference[d] * (1 + kMargin);
        out[d].lo.push_back(from);
        out[d].hi.push_back(to);
        const auto inside = [&](double b) { return from <= b && b <= to; };
        out[d].broken.push_back(std::any_of(breaks.begin(), breaks.end(), inside));
      }
    for (std::size_t d = 0; d < nodes_.size(); ++d) {
      const std::vector<double>& s = nodes_[d];
      for (std::size_t i = 0; i < s.size(); ++i) {
        const bool inner = i > 0 && i + 1 < s.size();
        out[d].hat_lo.push_back(inner ? s[i - 1] / terms.reference[d] : 0.0);
        out[d].hat_hi.push_back(inner ? s[i + 1] / terms.reference[d] : 0.0);
      }
    }
    return out;
  }

  // Whether one ratio is the worst (best) over the whole cell, with no break of the payoff between
  // its ends: the payoff is then affine in that ratio and its centre value is the cell's average,
  // as the corners would show (most cells of a book: it saves their four corner evaluations).
  static bool affine_in_one_ratio(const std::vector<std::size_t>& idx, const PayoffTerms& terms,
                                  const std::vector<RatioCells>& r) {
    std::size_t pick = 0;
    for (std::size_t d = 1; d < idx.size(); ++d)
      if (terms.worst_of ? r[d].lo[idx[d]] < r[pick].lo[idx[pick]] : r[d].hi[idx[d]] > r[pick].hi[idx[pick]]) pick = d;
    if (r[pick].broken[idx[pick]]) return false;
    for (std::size_t d = 0; d < idx.size(); ++d)
      if (d != pick && (terms.worst_of ? !(r[pick].hi[idx[pick]] < r[d].lo[idx[d]])
                                       : !(r[d].hi[idx[d]] < r[pick].lo[idx[pick]])))
        return false;
    return true;
  }

  // Sample k of m along axis d of the cell: midpoint_average's spots.
  double spot_sample(std::size_t d, std::size_t i, std::size_t k) const {
    const auto [lo, hi] = cells_[d][i];
    const std::size_t m = per_axis_;
    return lo + (hi - lo) * (static_cast<double>(k) + 0.5) / static_cast<double>(m);
  }

  // A ratio r = S_d / reference_d over a piece of a node's weight: uniform on [lo, hi] (its cell),
  // or with a density rising to hi or falling from lo (the two sides of its hat).
  struct RatioPiece {
    double lo = 0, hi = 0;
    int slope = 0;  // 0 uniform, +1 rising, -1 falling
    double below(double t) const {  // P(r < t)
      const double u = std::clamp((t - lo) / (hi - lo), 0.0, 1.0);
      return slope == 0 ? u : slope > 0 ? u * u : 1 - (1 - u) * (1 - u);
    }
    double density(double t) const {
      if (!(lo < t && t < hi)) return 0.0;
      const double u = (t - lo) / (hi - lo);
      return (slope == 0 ? 1.0 : 2 * (slope > 0 ? u : 1 - u)) / (hi - lo);
    }
  };
  using Pieces = std::array<RatioPiece, kMaxAssets>;

  // The payoff's mean over independent ratios on their pieces. The worst ratio w = min_d r_d has
  // density sum_d density_d(v) prod_{e != d} P(r_e > v) (the best, max_d r_d, the same with
  // P(r_e < v)): a polynomial of degree at most 2 dim - 1 between the pieces' ends; the payoff is
  // linear between its breaks. Four Gauss points on each stretch between these levels integrate
  // payoff x density exactly (degree <= 7).
  template <class PerfPayoff>
  LayerValues expected_payoff(const Pieces& r, std::size_t dim, std::size_t layers, const PayoffTerms& terms,
                              const std::vector<double>& breaks, PerfPayoff& values_of) const {
    std::array<double, 2 * kMaxAssets + kMaxBreaks> levels{};
    std::size_t count = 0;
    for (std::size_t d = 0; d < dim; ++d) {
      levels[count++] = r[d].lo;
      levels[count++] = r[d].hi;
    }
    // w lies between the lowest (highest) of the lower ends and of the upper ends.
    double from = r[0].lo, to = r[0].hi;
    for (std::size_t d = 1; d < dim; ++d) {
      from = terms.worst_of ? std::min(from, r[d].lo) : std::max(from, r[d].lo);
      to = terms.worst_of ? std::min(to, r[d].hi) : std::max(to, r[d].hi);
    }
    for (double b : breaks) levels[count++] = b;
    std::sort(levels.begin(), levels.begin() + static_cast<std::ptrdiff_t>(count));
    const auto density = [&](double v) {
      double sum = 0;
      for (std::size_t d = 0; d < dim; ++d) {
        double others = r[d].density(v);
        for (std::size_t e = 0; e < dim && others != 0.0; ++e)
          if (e != d) others *= terms.worst_of ? 1 - r[e].below(v) : r[e].below(v);
        sum += others;
      }
      return sum;
    };
    static constexpr double kNode[4] = {-0.86113631159405258, -0.33998104358485626, 0.33998104358485626,
                                        0.86113631159405258};
    static constexpr double kWeight[4] = {0.34785484513745386, 0.65214515486254614, 0.65214515486254614,
                                          0.34785484513745386};
    LayerValues sum{}, v{};
    for (std::size_t k = 0; k + 1 < count; ++k) {
      const double a = std::max(levels[k], from), b = std::min(levels[k + 1], to);
      if (!(a < b)) continue;
      const double mid = 0.5 * (a + b), half = 0.5 * (b - a);
      for (std::size_t g = 0; g < 4; ++g) {
        const double x = mid + half * kNode[g];
        values_of(x, v.data());
        const double w = half * kWeight[g] * density(x);
        for (std::size_t l = 0; l < layers; ++l) sum[l] += w * v[l];
      }
    }
    return sum;
  }

  // The payoff's average over the node's cell, where each ratio is uniform.
  template <class PerfPayoff>
  LayerValues cell_average(const std::vector<std::size_t>& idx, std::size_t layers, const PayoffTerms& terms,
                           const std::vector<double>& breaks, PerfPayoff& values_of) const {
    Pieces r{};
    for (std::size_t d = 0; d < idx.size(); ++d)
      r[d] = {cells_[d][idx[d]][0] / terms.reference[d], cells_[d][idx[d]][1] / terms.reference[d], 0};
    return expected_payoff(r, idx.size(), layers, terms, breaks, values_of);
  }

  // Whether the node has a hat (an inner node on every axis) whose span holds a break of the
  // payoff on the worst (best) ratio's range: a jump there is averaged with the hat's weight, whose
  // first moment is the jump's (SideWeight in this file says why).
  static bool hat_holds_break(const std::vector<std::size_t>& idx, const PayoffTerms& terms,
                              const std::vector<RatioCells>& r, const std::vector<double>& breaks) {
    double from = 0, to = 0;
    for (std::size_t d = 0; d < idx.size(); ++d) {
      const double lo = r[d].hat_lo[idx[d]], hi = r[d].hat_hi[idx[d]];
      if (!(lo < hi)) return false;
      from = d == 0 ? lo : terms.worst_of ? std::min(from, lo) : std::max(from, lo);
      to = d == 0 ? hi : terms.worst_of ? std::min(to, hi) : std::max(to, hi);
    }
    return std::any_of(breaks.begin(), breaks.end(), [&](double b) { return from < b && b < to; });
  }

  // The payoff's average with the node's hat weight: per axis a mix of its rising left side and
  // its falling right side, each in proportion to its width.
  template <class PerfPayoff>
  LayerValues hat_average(const std::vector<std::size_t>& idx, std::size_t layers, const PayoffTerms& terms,
                          const std::vector<double>& breaks, PerfPayoff& values_of) const {
    const std::size_t dim = idx.size();
    LayerValues sum{};
    for (std::size_t side = 0; side < (std::size_t{1} << dim); ++side) {
      Pieces r{};
      double share = 1;
      for (std::size_t d = 0; d < dim; ++d) {
        const std::vector<double>& s = nodes_[d];
        const std::size_t i = idx[d];
        const bool left = ((side >> d) & 1) == 0;
        const double lo = left ? s[i - 1] : s[i], hi = left ? s[i] : s[i + 1];
        r[d] = {lo / terms.reference[d], hi / terms.reference[d], left ? 1 : -1};
        share *= (hi - lo) / (s[i + 1] - s[i - 1]);
      }
      const LayerValues part = expected_payoff(r, dim, layers, terms, breaks, values_of);
      for (std::size_t l = 0; l < layers; ++l) sum[l] += share * part[l];
    }
    return sum;
  }

  static constexpr std::size_t kMaxBreaks = 4;

  // A sample's spots: on the stack, as a cut cell takes a thousand samples.
  using Spots = std::array<double, kMaxAssets>;

  std::vector<std::vector<std::array<double, 2>>> cells_;
  std::vector<std::vector<double>> nodes_;  // per axis: the hats' nodes
  std::size_t per_axis_ = 1;
};

// The hat's weight (linear interpolation's: rising from s[i-1] to s[i], falling to s[i+1]) on
// node i's part at or above `level`, over the hat's whole weight, and that part's centroid less
// the hat's, over s[i+1] - s[i-1] (CellFractions::lift).
std::array<double, 2> hat_fraction(const std::vector<double>& s, std::size_t i, double level) {
  const double left = s[i] - s[i - 1], right = s[i + 1] - s[i];
  if (level >= s[i + 1]) return {0.0, 0.0};
  if (level <= s[i - 1]) return {1.0, 0.0};
  // In u = S - s[i]: the weight is (right - u) / right on [a, right], (left + u) / left on [b, 0].
  const double a = std::max(level - s[i], 0.0), b = std::min(level - s[i], 0.0);
  const double mass = (right - a) * (right - a) / (2 * right) + (left * left - (left + b) * (left + b)) / (2 * left);
  const double moment = (right * right * right / 6 - right * a * a / 2 + a * a * a / 3) / right -
                        (left * b * b / 2 + b * b * b / 3) / left;
  const double f = mass / (0.5 * (left + right));
  if (!(f > 0.0 && f < 1.0)) return {f >= 1.0 ? 1.0 : 0.0, 0.0};
  return {f, (moment / mass - (right - left) / 3) / (left + right)};
}

// How a side's fractions weigh a node's neighbourhood. An event's jump at a barrier inside a cell,
// set as the part of the cell (midpoint to midpoint) on its side, has the right mass but puts it
// at the node: its first moment is off by up to an eighth of h^2 times the jump, a second-order
// error that swings with the barrier's place in its cell (book-s3-00041: steps of 0.6 bp between
// neighbouring n). The hat's part has the mass and the first moment of the jump that linear
// interpolation sees (docs/accuracy.md). The knock-in's barrier lies on a face, where the cell's
// first moment is already right (the hat's there measured worse: docs/accuracy.md).
enum class SideWeight { Cell, Hat };

// Fraction of each node's weight (its cell, or its hat) where performance >= barrier, per axis
// (cell_fractions.hpp: the set is a product of half-lines, or its complement, so the product of
// the per-axis fractions is exact for either weight, each a product over axes).
CellFractions fractions_at_or_above(const Problem& pb, const Product& p, double barrier, SideWeight weight) {
  CellFractions out;
  out.worst_of = p.els().performance == Performance::WorstOf ? 1 : 0;
  for (std::size_t d = 0; d < pb.axes.size(); ++d) {
    const auto& s = pb.axes[d].s;
    const double level = barrier * p.assets[d].reference;
    for (std::size_t i = 0; i < s.size(); ++i) {
      if (weight == SideWeight::Hat && i > 0 && i + 1 < s.size()) {
        const auto [f, lift] = hat_fraction(s, i, level);
        out.per_axis.push_back(f);
        out.lift.push_back(lift);
        continue;
      }
      const double lo = i == 0 ? s[0] : 0.5 * (s[i - 1] + s[i]);
      const double hi = i + 1 == s.size() ? s[i] : 0.5 * (s[i] + s[i + 1]);
      // A cell of zero width (never, but S = 0 and S_max end cells are half cells) falls back to the node.
      const double f = hi > lo ? std::clamp((hi - level) / (hi - lo), 0.0, 1.0) : (s[i] >= level ? 1.0 : 0.0);
      out.per_axis.push_back(f);
      const bool cut = f > 0.0 && f < 1.0 && i > 0 && i + 1 < s.size();
      out.lift.push_back(cut ? 0.5 * (hi - lo) * (1.0 - f) / (s[i + 1] - s[i - 1]) : 0.0);
    }
  }
  return out;
}

}  // namespace

std::vector<double> node_weights(const Problem& pb, const CellFractions& f) {
  std::vector<std::size_t> first(pb.axes.size(), 0);
  for (std::size_t d = 1; d < pb.axes.size(); ++d) first[d] = first[d - 1] + pb.axes[d - 1].size();
  std::vector<double> phi(pb.points);
  for_each_node(pb, [&](std::size_t flat, const std::vector<std::size_t>& idx, const std::vector<double>&) {
    double at[kMaxAssets];
    for (std::size_t d = 0; d < idx.size(); ++d) at[d] = f.per_axis[first[d] + idx[d]];
    phi[flat] = cell_fraction(at, static_cast<int>(idx.size()), f.worst_of, f.below);
  });
  return phi;
}

namespace {

// Adds an event side to the problem; returns its index in event_fractions (and event_weights).
std::size_t add_event_side(Problem& pb, CellFractions f) {
  pb.event_fractions.push_back(std::move(f));
  return pb.event_fractions.size() - 1;
}

// The coupons paid on maturity beside the redemption: part of the payoff at tau = 0.
std::vector<NoteEvent> coupons_at_maturity(const std::vector<NoteEvent>& events) {
  std::vector<NoteEvent> out;
  for (const NoteEvent& e : events)
    if (e.in_payoff && payment(e.kind) == EventPayment::Coupon) out.push_back(e);
  return out;
}

// What those coupons pay at performance perf.
double coupons_paid(const std::vector<NoteEvent>& coupons, double perf) {
  double paid = 0.0;
  for (const NoteEvent& e : coupons)
    if (e.below ? perf < e.barrier : perf >= e.barrier) paid += e.amount;
  return paid;
}

void set_els_payoff(Problem& pb, const Product& p, const std::vector<NoteEvent>& events) {
  const KnockIn& ki = p.els().knock_in;
  const bool has_knock_in = p.can_knock_in();
  pb.layers = value_layers(p, events);
  const int own_layers = pb.layers - (has_knock_in ? 2 : 1);
  pb.continuous_knock_in = has_knock_in && ki.monitoring == Monitoring::Continuous;
  pb.knock_in_barrier = ki.barrier;
  pb.initial.resize(pb.values());
  const PayoffTerms terms = payoff_terms(p);
  if (has_knock_in) {
    CellFractions below = fractions_at_or_above(pb, p, ki.barrier, SideWeight::Cell);
    below.below = 1;
    pb.knock_in_weights = add_event_side(pb, std::move(below));
  }
  // The payoff jumps at the last redemption barrier, the knock-in barrier and a coupon's barrier,
  // and has a kink at 1 (a knocked-in note repays at most its notional).
  std::vector<double> breaks{terms.barrier[terms.dates - 1], ki.barrier, 1.0};
  const std::vector<NoteEvent> coupons = coupons_at_maturity(events);
  for (const NoteEvent& e : coupons) breaks.push_back(e.barrier);
  CellAverage(pb).fill_by_performance(pb, terms, breaks, [&](double perf, double* out) {
    // A knock-in or a coupon on the maturity date itself is part of the payoff at tau = 0.
    const bool ki_now = ki.monitoring != Monitoring::None &&
                        (pb.continuous_knock_in ? perf <= ki.barrier : knocks_in(terms, perf));
    const double coupon = coupons_paid(coupons, perf);
    out[0] = maturity_amount(terms, perf, p.els().knocked_in || ki_now) + coupon;
    // A state of the note's own (a broken lizard) pays at maturity what the alive note pays.
    for (int l = 1; l <= own_layers; ++l) out[l] = out[0];
    if (has_knock_in) out[pb.layers - 1] = maturity_amount(terms, perf, true) + coupon;
  });
}

void set_option_payoff(Problem& pb, const Product& p) {
  pb.layers = 1;
  pb.initial.resize(pb.points);
  const PayoffTerms terms = payoff_terms(p);
  CellAverage(pb).fill(pb, [&](const double* spots, double* out) { out[0] = option_payoff(terms, spots); });
}

std::string describe_mesh(const Problem& pb, const GridOptions& g) {
  std::ostringstream s;
  s << to_string(g.mesh) << ' ';
  for (int d = 0; d < pb.dim; ++d) s << (d ? "x" : "") << pb.axes[static_cast<std::size_t>(d)].size();
  s << ", S_max ";
  for (int d = 0; d < pb.dim; ++d) s << (d ? "/" : "") << pb.axes[static_cast<std::size_t>(d)].s.back();
  return s.str();
}

// Weights of the side at or above a barrier (an autocall's, a coupon's) or below it (a lizard's),
// shared between events with the same side; below the knock-in's barrier, the knock-in's own (a
// knock-in's, a lizard's at that barrier).
std::size_t weights_of_side(Problem& pb, const Product& p, double barrier, bool below) {
  if (below && p.can_knock_in() && barrier == pb.knock_in_barrier) return pb.knock_in_weights;
  for (const EventAction& e : pb.events)
    if (e.barrier == barrier && (pb.event_fractions[e.weights].below != 0) == below) return e.weights;
  CellFractions f = fractions_at_or_above(pb, p, barrier, below ? SideWeight::Cell : SideWeight::Hat);
  if (below) f.below = 1;
  return add_event_side(pb, std::move(f));
}

std::size_t node_of(const TimeGrid& g, double tau) {
  const auto it = std::lower_bound(g.tau.begin(), g.tau.end(), tau - 1e-9);
  if (it == g.tau.end() || std::abs(*it - tau) > 1e-9)
    throw std::logic_error("event date is not a node of the time grid");
  return static_cast<std::size_t>(it - g.tau.begin());
}

// Per node of an axis, its row sums of |A_d| and |d1| (the weights of the mixed terms).
struct AxisRowSums {
  std::vector<double> op, d1;
  std::vector<std::size_t> front;  // nodes no other node beats on both sums
};

AxisRowSums axis_row_sums(const Axis& ax) {
  const auto row = [](const Tridiagonal& t, std::size_t i) {
    return std::abs(t.lower[i]) + std::abs(t.diag[i]) + std::abs(t.upper[i]);
  };
  AxisRowSums r;
  for (std::size_t i = 0; i < ax.size(); ++i) {
    r.op.push_back(row(ax.op, i));
    r.d1.push_back(row(ax.d1, i));
  }
  // The front, by op descending: a node enters when its d1 beats every node with a larger op.
  std::vector<std::size_t> order(ax.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return r.op[a] > r.op[b]; });
  double best_d1 = -1.0;
  for (std::size_t i : order)
    if (r.d1[i] > best_d1) {
      r.front.push_back(i);
      best_d1 = r.d1[i];
    }
  return r;
}

// The explicit Euler stability bound: 2 / max row sum of |A| (Gershgorin) over the full operator.
// The row sum at a node is sum_d op_d(i_d) + sum_m |c_m| d1_a(i_a) d1_b(i_b), increasing in every
// per-axis sum, so its maximum lies on the product of the axes' fronts: a few nodes per axis, not
// the grid's points (a grid of 1e15 points reaches the pre-flight at once). Where the fronts'
// product is large, each term's own maximum bounds it: a stable step, a few more of them.
double explicit_dt_bound(const Problem& pb) {
  constexpr double kMaxFrontNodes = 1e6;
  std::vector<AxisRowSums> sums;
  double front_nodes = 1.0, bound = 0.0;
  for (const Axis& ax : pb.axes) {
    sums.push_back(axis_row_sums(ax));
    front_nodes *= static_cast<double>(sums.back().front.size());
    bound += *std::max_element(sums.back().op.begin(), sums.back().op.end());
  }
  const auto d1_max = [&](int d) {
    const auto& v = sums[static_cast<std::size_t>(d)].d1;
    return *std::max_element(v.begin(), v.end());
  };
  for (const MixedTerm& m : pb.mixed) bound += std::abs(m.coeff) * d1_max(m.a) * d1_max(m.b);
  if (front_nodes > kMaxFrontNodes) return 2.0 / bound;

  double worst = 0.0;
  std::vector<std::size_t> k(sums.size(), 0);  // position in each axis's front
  for (bool more = true; more;) {
    const auto node = [&](int d) { return sums[static_cast<std::size_t>(d)].front[k[static_cast<std::size_t>(d)]]; };
    double row = 0.0;
    for (std::size_t d = 0; d < sums.size(); ++d) row += sums[d].op[node(static_cast<int>(d))];
    for (const MixedTerm& m : pb.mixed)
      row += std::abs(m.coeff) * sums[static_cast<std::size_t>(m.a)].d1[node(m.a)] *
             sums[static_cast<std::size_t>(m.b)].d1[node(m.b)];
    worst = std::max(worst, row);
    more = false;
    for (std::size_t d = 0; d < k.size() && !more; ++d) {
      if (++k[d] < sums[d].front.size()) more = true;
      else k[d] = 0;
    }
  }
  return 2.0 / worst;
}

// auto keeps a margin under the bound so that the highest modes are damped, not just bounded.
constexpr double kExplicitAutoFraction = 0.9;
void check_time_steps(double steps) {
  if (!(steps <= kMaxTimeSteps)) {
    // Whole numbers as such: 1e+07 would not show why 10000001 is refused.
    const auto count = [](double x) {
      std::ostringstream s;
      if (x < 1e15) s << std::fixed << std::setprecision(0);
      s << x;
      return s.str();
    };
    std::ostringstream msg;
    msg << "the time grid would have " << count(steps) << " steps, beyond the limit of " << count(kMaxTimeSteps)
        << "; use a smaller --n or --nt";
    throw SolverError(SolverError::Kind::TooMuchWork, msg.str());
  }
}

// The dates the time grid holds as nodes: every event's, in tau (make_time_grid merges a date
// that several events share).
std::vector<double> taus_of(const Product& p, const std::vector<NoteEvent>& events) {
  std::vector<double> taus;
  const double T = p.maturity();
  for (const NoteEvent& e : events) taus.push_back(T - e.time);
  return taus;
}

// The time grid the variant's rule asks for; an explicit step beyond its bound is refused here,
// before the payoff and event arrays are built.
TimeGrid time_grid_for(const Problem& pb, const Product& p, const std::vector<NoteEvent>& events, const GridOptions& g,
                       const TimeStepping& stepping) {
  const double T = p.maturity();
  const std::vector<double> taus = taus_of(p, events);
  if (g.nt) check_time_steps(*g.nt);
  if (stepping.rule == TimeStepping::Rule::PerYear)
    return make_time_grid(T, taus, g.nt ? *g.nt : steps_per_year_rule(p, g.n));
  const double bound = explicit_dt_bound(pb);
  if (!g.nt) check_time_steps(count_steps_max_dt(T, taus, kExplicitAutoFraction * bound));
  TimeGrid grid = g.nt ? make_time_grid(T, taus, *g.nt)
                       : make_time_grid_max_dt(T, taus, kExplicitAutoFraction * bound);
  if (grid.max_dt() > bound * (1 + 1e-12)) {
    std::ostringstream needed, msg;
    needed << std::fixed << std::setprecision(0) << count_steps_max_dt(T, taus, bound);
    msg << "explicit: time step " << grid.max_dt() << " exceeds the stability bound " << bound
        << " of this grid; use --nt " << needed.str() << " or more, or --nt auto";
    throw SolverError(SolverError::Kind::Unstable, msg.str());
  }
  return grid;
}

// The daily knock-in overwrites the alive layer below the barrier on every monitoring date: a jump
// each day, whose stiff modes an A-stable but not L-stable scheme (HV, CN) carries on from day to
// day with alternating sign, so the price wanders with the step count. Implicit sub-steps opening
// each monitoring interval damp them; short ones keep their first-order error small. The payoff's
// jumps open the first day alike: two whole damped days there were 1.1 bp of book-s3-00017's
// default price (docs/accuracy.md).
void damp_after_knock_in_dates(TimeGrid& grid, const Product& p, const GridOptions& g) {
  if (g.knock_in_damping <= 0 || !p.knocks_in_daily()) return;
  const double T = p.maturity();
  std::vector<double> taus{0.0};
  const auto dates = p.monitoring_dates();
  for (std::size_t i = 0; i + 1 < dates.size(); ++i) taus.push_back(T - dates[i]);
  split_after(grid, taus, g.knock_in_damping, g.knock_in_damping_fraction);
  check_time_steps(static_cast<double>(grid.steps()));
}

// Without a daily knock-in to come the steps span days (n/2 a year: 3.5 days at n = 144), and
// whole damped steps after the payoff and each payment date cost a first-order error of their
// length: a knocked-in note's default price 1-2 bp off (book-s3-00020, -00049; accuracy.md). There
// the damping steps are sub-steps that together take this fraction of the step, as the knock-in's.
constexpr double kPaymentDampingFraction = 0.35;

void damp_after_payments(TimeGrid& grid, const Product& p, const std::vector<NoteEvent>& events, int steps) {
  if (steps <= 0 || !p.steps_span_days()) return;
  std::vector<double> taus{0.0};
  for (const NoteEvent& e : events)
    if (!e.in_payoff && payment(e.kind) != EventPayment::None) taus.push_back(p.maturity() - e.time);
  split_after(grid, taus, steps, kPaymentDampingFraction);
  check_time_steps(static_cast<double>(grid.steps()));
}

// An autocall takes its cut cells' continuation at their part's centroid (centroid_lift) where it
// is the first event at its node, so its lifts read the step's values as they are; its side a
// box (worst-of). A lizard's redemption before it, or best-of, leaves it at the nodes.
void mark_centroid_autocalls(Problem& pb) {
  for (std::size_t k = 0; k < pb.events.size(); ++k) {
    EventAction& e = pb.events[k];
    const bool first = k == 0 || pb.events[k - 1].at_node != e.at_node;
    const CellFractions& side = pb.event_fractions[e.weights];
    e.at_centroid = first && e.kind == EventKind::Autocall && side.worst_of && !side.below;
  }
}

// Places the note's events (note_events.hpp; those on maturity are in the payoff) and the damping
// steps on the grid: a payment's digital jump is damped, by whole steps unless sub-steps
// (damp_after_knock_in_dates) already open its node.
void place_events(Problem& pb, const std::vector<NoteEvent>& events, TimeGrid grid, int damping_steps) {
  const Product& p = *pb.product;
  const auto damp_from = [&](std::size_t node) {
    if (node < grid.steps() && grid.damped[node]) return;
    for (std::size_t j = node; j < node + static_cast<std::size_t>(damping_steps) && j < grid.steps(); ++j)
      grid.damped[j] = 1;
  };
  damp_from(0);
  const double T = p.maturity();
  for (const NoteEvent& e : events) {
    if (e.in_payoff) continue;
    const std::size_t node = node_of(grid, T - e.time);
    pb.events.push_back({e.kind, node, e.barrier, e.amount, false, weights_of_side(pb, p, e.barrier, e.below)});
    if (payment(e.kind) != EventPayment::None) damp_from(node);
  }
  std::stable_sort(pb.events.begin(), pb.events.end(), [](const EventAction& x, const EventAction& y) {
    return x.at_node != y.at_node ? x.at_node < y.at_node : x.kind < y.kind;
  });
  mark_centroid_autocalls(pb);
  pb.time = std::move(grid);
}

}  // namespace

std::vector<int> Problem::shape() const {
  std::vector<int> s;
  for (const auto& a : axes) s.push_back(static_cast<int>(a.size()));
  return s;
}

int steps_per_year_rule(const Product& product, int n) {
  // One step per node per year of maturity, at least 50: keeps dt ~ h so both errors shrink together.
  return std::max(50, static_cast<int>(std::lround(n * std::max(1.0, product.maturity()) / 2.0)));
}

// Above the highest barrier an autocall date sets the value to its redemption on every node, so
// what the far boundary's linearity gets wrong is wiped out at each date: on 230 generated notes
// of one to three assets, S_max 2.6 to 19 sd above their highest barriers, pricing the domain
// twice as wide moved no price by more than 5e-6 bp of the notional.
bool truncation_negligible(const Product& p, const GridOptions& g) {
  if (!p.is_els()) return false;
  double highest = 0;
  for (const NoteEvent& e : note_events(p)) highest = std::max(highest, e.barrier);
  if (highest <= 0) return false;
  for (int d = 0; d < p.dimension(); ++d) {
    const Underlying& a = p.assets[static_cast<std::size_t>(d)];
    if (std::log(far_boundary(p, d, g) / (highest * a.reference)) < kBoundedSpread * log_spread(p, a)) return false;
  }
  return true;
}

namespace {

Problem plan_note(const Product& p, const std::vector<NoteEvent>& events, const GridOptions& g,
                  const TimeStepping& stepping) {
  if (g.n < 4) throw std::invalid_argument("n must be at least 4 nodes per axis");
  if (!g.axis_nodes.empty() && g.axis_nodes.size() != static_cast<std::size_t>(p.dimension()))
    throw std::invalid_argument("the grid names the nodes of " + std::to_string(g.axis_nodes.size()) +
                                " axes (--n N1,N2,...) for a product of " + std::to_string(p.dimension()) + " assets");
  if (g.s_max_multiple <= 1.0) throw std::invalid_argument("S_max multiple must be > 1");
  check_spread(p);
  check_state(events);
  Problem pb;
  pb.product = &p;
  pb.dim = p.dimension();
  std::size_t stride = 1;
  for (int d = 0; d < pb.dim; ++d) {
    pb.axes.push_back(make_axis(p, events, d, g, stride));
    check_resolution(pb.axes.back(), p, p.assets[static_cast<std::size_t>(d)]);
    stride *= pb.axes.back().size();
  }
  pb.points = stride;
  for (int a = 0; a < pb.dim; ++a)
    for (int b = a + 1; b < pb.dim; ++b) {
      const auto ua = static_cast<std::size_t>(a), ub = static_cast<std::size_t>(b);
      const double coeff = p.correlation[ua][ub] * p.assets[ua].vol * p.assets[ub].vol;
      if (coeff != 0.0) pb.mixed.push_back({a, b, coeff});
    }
  pb.time = time_grid_for(pb, p, events, g, stepping);
  if (stepping.damping) damp_after_knock_in_dates(pb.time, p, g);
  if (stepping.damping) damp_after_payments(pb.time, p, events, g.damping_steps);
  return pb;
}

// Everything but the per-node event weights; the note's events read once.
Problem build_without_node_weights(const Product& p, const GridOptions& g, const TimeStepping& stepping,
                                   const BeforeArrays& before_arrays) {
  const std::vector<NoteEvent> events = note_events(p);
  Problem pb = plan_note(p, events, g, stepping);
  if (before_arrays) before_arrays(pb.points, pb.time.march_steps());
  if (p.is_els()) {
    set_els_payoff(pb, p, events);
  } else {
    set_option_payoff(pb, p);
  }
  pb.mesh = describe_mesh(pb, g);
  TimeGrid grid = std::move(pb.time);
  place_events(pb, events, std::move(grid), stepping.damping && !p.steps_span_days() ? g.damping_steps : 0);
  return pb;
}

}  // namespace

Problem plan_problem(const Product& p, const GridOptions& g, const TimeStepping& stepping) {
  return plan_note(p, note_events(p), g, stepping);
}

Problem build_problem(const Product& p, const GridOptions& g, const TimeStepping& stepping,
                      const BeforeArrays& before_arrays) {
  Problem pb = build_without_node_weights(p, g, stepping, before_arrays);
  for (const CellFractions& f : pb.event_fractions) pb.event_weights.push_back(node_weights(pb, f));
  return pb;
}

const std::vector<std::vector<double>>& node_weights(const Problem& pb, std::vector<std::vector<double>>& formed) {
  if (!pb.event_weights.empty() || pb.event_fractions.empty()) return pb.event_weights;
  formed.clear();
  for (const CellFractions& f : pb.event_fractions) formed.push_back(node_weights(pb, f));
  return formed;
}

std::vector<Problem> build_problems(const std::vector<const Product*>& products, const GridOptions& grid,
                                    const TimeStepping& stepping, const BeforeNoteArrays& before_arrays) {
  std::vector<Problem> problems(products.size());
  side_by_side(products.size(), [&](std::size_t i) {
    BeforeArrays check;
    if (before_arrays) check = [&](std::size_t points, double steps) { before_arrays(i, points, steps); };
    problems[i] = build_without_node_weights(*products[i], grid, stepping, check);
  });
  return problems;
}

std::vector<const Problem*> pointers_to(const std::vector<Problem>& problems) {
  std::vector<const Problem*> out;
  for (const Problem& pb : problems) out.push_back(&pb);
  return out;
}

}  // namespace elsbench
