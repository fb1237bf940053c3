// adi: Douglas, Craig-Sneyd, modified Craig-Sneyd and Hundsdorfer-Verwer splitting on the shared
// problem. Mixed derivatives are explicit as each scheme prescribes; each axis is implicit, solved
// as one batch of tridiagonal systems that share a factorisation.
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <memory>
#include <optional>
#include <type_traits>

#include "platform/spin_wait.hpp"
#include "platform/stealing_shares.hpp"
#include "platform/subnormals.hpp"
#include "platform/thread_share.hpp"
#include "solvers/contract/solver.hpp"
#include "solvers/march/march.hpp"
#include "solvers/operators/fused_explicit.hpp"
#include "solvers/schemes/adi_scheme.hpp"
#include "solvers/tridiagonal/line_solve.hpp"
#include "solvers/tridiagonal/split_solve.hpp"

namespace elsbench {
namespace {

// CS and MCS read F_0(X) and each F_d(X) in their second round: the only schemes that store them.
bool keeps_x_terms(SchemeKind k) { return k == SchemeKind::CraigSneyd || k == SchemeKind::ModifiedCraigSneyd; }

// One ADI step, scheme by scheme, on fused passes (solvers/operators/fused_explicit.hpp). Notation of
// In 't Hout & Foulon: F = F_0 (mixed) + sum_d F_d, X the values at the start of the step; F(X) is
// never stored: Y0 = X + dt F(X) gives it back as (Y0 - X) / dt. A step is one or two rounds of an
// explicit pass, then the implicit stage of each axis; each thread runs the pass and the axis-0 stage
// (rows, the lines the pass writes) on a block of rows while it is in cache, so A_0 v goes to memory
// only if a later round needs it. With two or more assets threads own parts of the layers (run_parts)
// in one parallel region for the march; no value's arithmetic, so no price, depends on the thread.
template <class T>
class AdiStepper {
  using Vec = std::vector<T>;

 public:
  // `keep_x_terms`: the scheme's second round reads F_0(X) and each F_d(X) (CS, MCS).
  // `increments`: the march's values are fp64 and the steps run on their increments (step_increments).
  AdiStepper(const Problem& pb, bool keep_x_terms, bool increments = false)
      : pb_(pb), stencils_(pb), y0_(pb.values()), y_(pb.values()),
        threaded_(pb.values() >= 4096 && omp_get_max_threads() > 1),
        row_blocks_((explicit_rows(pb) + kRowsPerBlock - 1) / kRowsPerBlock, omp_get_max_threads()),
        parts_(layer_parts(pb)), events_(pb), edges_(2 * 2 * parts_.layers * parts_.stride),
        joined_(std::make_unique<std::atomic<std::size_t>[]>(parts_.items())),
        arrivals_(std::make_unique<std::atomic<std::size_t>[]>(parts_.layers)),
        layer_joined_(std::make_unique<std::atomic<std::size_t>[]>(parts_.layers)) {
    if (keep_x_terms) {
      mixed_x_.resize(pb.values());
      axis_x_.assign(static_cast<std::size_t>(pb.dim), Vec(pb.values()));
    }
    const std::size_t n0 = pb.axes[0].size();
    if (increments) wide_stencils_.emplace(pb);
    for (int t = 0; t < (threaded_ ? omp_get_max_threads() : 1); ++t) {
      scratch_.push_back({PassScratch<T>(n0), Vec(kRowsPerBlock * n0), Vec(line_buffer_size(pb)), y_.data()});
      if (increments) scratch_.back().wide.emplace(n0);
    }
  }

  // Called by every thread of the march's region (march_on_threads), or by the one thread of an
  // unthreaded march, with X at x for step j; returns, once the calling thread's share of the step
  // is done, where the values are: x, or the other value buffer, which X's storage then becomes.
  // With two or more assets the step applies the events that fall after it to the calling
  // thread's parts, and the next step waits only for what it reads of another thread's parts;
  // with one, the step ends with a barrier (its rows go to whichever thread takes them) and the
  // march applies the events.
  T* step(const StepWeights& w, T* x, std::size_t j) {
    Scratch& s = scratch_[static_cast<std::size_t>(omp_get_thread_num())];
    T* const y = s.spare;
    factor_axes(w.theta_dt);
    const bool keep_mixed = keeps_x_terms(w.kind);
    // Y0 = X + dt F(X), keeping F_d(X) (and F_0(X)) where the second round uses them.
    // X is left alone until the last round's pass has read it: unless CS or MCS read F_d(X) in
    // that round, each axis's stage forms A_d X from X instead of storing it.
    Round predictor = round_over(x, y, keep_mixed ? &axis_x_ : nullptr, keep_mixed, y);
    predictor.pass.mixed_out = keep_mixed ? mixed_x_.data() : nullptr;
    set_out(predictor.pass, y0_, {{x, 1.0}}, w.dt, w.dt);
    predictor.theta_dt = w.theta_dt;
    const bool two = w.two_rounds();
    const Round second = two ? corrector(w, x, y) : Round{};
    const FlushSubnormals flush(std::is_same_v<T, float>);
    run_round(predictor, s, two ? kNoStepEnd : j);
    if (two) run_round(second, s, j);
    T* const result = (two ? second : predictor).result;
    // Each thread keeps its own record of which buffer is spare, changed the same way on every
    // thread: swapping a shared record would race with threads still reading it.
    if (result != x) s.spare = x;
    if (pb_.dim == 1) {
#pragma omp barrier
    }
    return result;
  }

  // A mixed march's step (Precision::Mixed): X stays fp64 at x and the step runs in T on its
  // increment D = Y - X. F is linear, so F(Y) - F(X) = A D and only the first pass reads X:
  //   D0 = dt F(X) (in fp64, rounded once);  (I - theta dt A_d) D_d = D_{d-1};
  // the second round from D = D_dim: D0 + corr_mixed M D + corr_full (M + sum_d A_d) D, its
  // stages subtracting theta dt A_d D under HV only (CS and MCS subtract F_d(X), which the
  // increment cancels); then X += D. Rounding to T costs a relative 2^-24 of a step's change
  // instead of the values', so errors stay at fp64's while every stage streams T.
  double* step_increments(const StepWeights& w, double* x, std::size_t j) {
    static_assert(!std::is_same_v<T, double>, "increments are for a narrower march");
    Scratch& s = scratch_[static_cast<std::size_t>(omp_get_thread_num())];
    factor_axes(w.theta_dt);
    Round predictor;
    predictor.wide.v = x;
    predictor.wide.out = y0_.data();
    predictor.wide.mixed_coeff = w.dt;
    predictor.wide.axes_coeff = w.dt;
    predictor.axis_terms = false;
    predictor.theta_dt = w.theta_dt;
    predictor.stage0_out = predictor.result = y_.data();
    const bool two = w.two_rounds();
    Round second;
    if (two) {
      second.pass.v = y_.data();
      set_out(second.pass, y0_, {{y0_.data(), 1.0}}, w.corr_mixed + w.corr_full, w.corr_full);
      second.axis_terms = w.kind == SchemeKind::HundsdorferVerwer;
      second.theta_dt = w.theta_dt;
      // Every stage in place in D0's buffer: the pass reads only its own rows of it.
      second.stage0_out = second.result = y0_.data();
    }
    (two ? second : predictor).add_to = x;
    const FlushSubnormals flush(true);
    run_round(predictor, s, two ? kNoStepEnd : j);
    if (two) run_round(second, s, j);
    if (pb_.dim == 1) {
#pragma omp barrier
    }
    return x;
  }

  bool threaded() const { return threaded_; }
  bool applies_events() const { return pb_.dim > 1; }

 private:
  struct Term {
    const T* base;
    double coeff;
  };
  struct Round {
    ExplicitPassT<T> pass;
    ExplicitPassT<double, T> wide;  // instead of pass when wide.v is set: a pass over fp64 values
    bool axis_terms = true;         // the stages subtract theta dt F_d (false: they solve from z alone)
    // F_d for each axis's stage; null: the pass's own A_d v (kept in cache for axis 0, formed
    // again inside the solve from pass.v for the others).
    const T* f[3] = {nullptr, nullptr, nullptr};
    double theta_dt = 0;
    T* stage0_out = nullptr;  // never pass.v, whose rows the pass still reads
    T* result = nullptr;      // where the other axes' stages write (in place after the first)
    double* add_to = nullptr;  // increments: the fp64 values the result is added to
  };
  struct Scratch {
    PassScratch<T> pass;
    Vec axis0_rows, lines;
    T* spare;  // the value buffer that does not hold X (y_'s storage or the march's)
    std::size_t stages = 0;  // last-axis stages run by this thread (each thread runs all of them)
    // Per value buffer (value_slot): the stage after which a knock-in last read it.
    std::size_t knock_in_read[3] = {0, 0, 0};
    std::optional<PassScratch<double>> wide{};  // increments: the first pass's, over fp64 values
  };
  static constexpr std::size_t kNoStepEnd = ~std::size_t{0};

  // The axes' factors for theta dt: kept while theta dt stays (a uniform grid refactors only
  // around the damping sub-steps). Every thread reads the factored theta dt before one of them
  // changes it.
  void factor_axes(double theta_dt) {
    if (theta_dt == factored_theta_dt_) return;
#pragma omp barrier
#pragma omp single
    {
      for (int d = 0; d < pb_.dim; ++d) {
        LineFactors f = factor_axis(pb_.axes[static_cast<std::size_t>(d)].op, theta_dt);
        const bool last = d == pb_.dim - 1 && pb_.dim > 1;
        if constexpr (std::is_same_v<T, double>) {
          if (last) split_ = factor_split(pb_.axes[static_cast<std::size_t>(d)].op, theta_dt, f, parts_.split);
          factors_[d] = std::move(f);
        } else {
          if (last) split_ = to_fp32(factor_split(pb_.axes[static_cast<std::size_t>(d)].op, theta_dt, f, parts_.split));
          factors_[d] = to_fp32(f);
        }
      }
      factored_theta_dt_ = theta_dt;
    }
  }

  // A pass over v whose axis terms are the stages' F_d, stored in `axis_out` (none: each stage forms
  // its own from v); `keep0`: A_0 v is stored for a later round.
  // `y`: the spare value buffer, where the last stage writes.
  Round round_over(const T* v, T* y, std::vector<Vec>* axis_out, bool keep0, T* stage0_out) {
    Round r;
    r.pass.v = v;
    for (std::size_t d = 0; axis_out && d < axis_out->size(); ++d) {
      if (d == 0 && !keep0) continue;
      r.pass.axis_out[d] = (*axis_out)[d].data();
      r.f[d] = (*axis_out)[d].data();
    }
    r.stage0_out = stage0_out;
    r.result = pb_.dim == 1 ? r.stage0_out : y;
    return r;
  }

  static void set_out(ExplicitPassT<T>& p, Vec& out, std::initializer_list<Term> terms, double mixed_coeff,
                      double axes_coeff) {
    p.out = out.data();
    int k = 0;
    for (const Term& t : terms) {
      p.base[k] = t.base;
      p.base_coeff[k++] = t.coeff;
    }
    p.mixed_coeff = mixed_coeff;
    p.axes_coeff = axes_coeff;
  }

  // Second round of CS, MCS and HV: Y0 <- corrected Y0 (from Y = Y_dim), then the stages again.
  // F(X) is not stored: dt F(X) = Y0 - X, which is where MCS's and HV's X terms come from. The
  // pass reads Y's neighbouring rows, so the axis-0 stage writes Y0 in place, except in one
  // dimension, where a row has no neighbours and the stage is the last. The other axes' stages
  // write into X, which the pass reads only in a thread's own rows: Y's rows next to another
  // thread's part are still being read while this thread's stages run.
  Round corrector(const StepWeights& w, T* x, T* y) {
    T* const stage0_out = pb_.dim == 1 ? y : y0_.data();
    Round r;
    r.pass.v = y;
    r.theta_dt = w.theta_dt;
    r.stage0_out = stage0_out;
    switch (w.kind) {
      case SchemeKind::CraigSneyd:
        set_out(r.pass, y0_, {{y0_.data(), 1.0}, {mixed_x_.data(), -w.corr_mixed}}, w.corr_mixed, 0.0);
        for (std::size_t d = 0; d < axis_x_.size(); ++d) r.f[d] = axis_x_[d].data();
        break;
      case SchemeKind::ModifiedCraigSneyd:
        set_out(r.pass, y0_, {{y0_.data(), 0.5 + w.theta}, {x, 0.5 - w.theta}, {mixed_x_.data(), -w.corr_mixed}},
                0.5 * w.dt, w.corr_full);
        for (std::size_t d = 0; d < axis_x_.size(); ++d) r.f[d] = axis_x_[d].data();
        break;
      default:
        // Hundsdorfer-Verwer: its stages subtract F_d(Y), not F_d(X), formed from Y.
        r = round_over(y, y, nullptr, false, stage0_out);
        r.theta_dt = w.theta_dt;
        set_out(r.pass, y0_, {{y0_.data(), 0.5}, {x, 0.5}}, w.corr_full, w.corr_full);
        break;
    }
    r.result = pb_.dim == 1 ? stage0_out : x;
    return r;
  }

  // The pass, then Y <- (I - theta dt A_d)^{-1} (Y - theta dt F_d) for each axis, Y starting at Y0.
  // `step_end`: the step this round ends, or kNoStepEnd if another round follows.
  void run_round(const Round& r, Scratch& s, std::size_t step_end) {
    if (pb_.dim == 1) {
      // Blocks of kRowsPerBlock rows from the first, whichever thread runs them.
      const std::size_t rows = explicit_rows(pb_);
      row_blocks_.run([&](std::size_t block) {
        const std::size_t first = block * kRowsPerBlock;
        run_rows(r, s, first, std::min(rows, first + kRowsPerBlock));
      });
      // The next round's pass reads neighbouring rows.
      if (step_end == kNoStepEnd) {
#pragma omp barrier
      }
    } else {
      run_parts(r, s, step_end);
    }
  }

  // The pass and the axis-0 stage on rows [first, last). Blocks start where the grid or a part
  // starts, never where a thread's share does, so a row's tile (the transposes' unit, whose last
  // rows take other code) does not depend on the thread count.
  void run_rows(const Round& r, Scratch& s, std::size_t first, std::size_t last) {
    const std::size_t n0 = pb_.axes[0].size();
    T* own_axis0 = r.axis_terms && !r.f[0] ? s.axis0_rows.data() : nullptr;
    if (r.wide.v) {
      run_explicit_rows(pb_, *wide_stencils_, r.wide, first, last, *s.wide);
    } else {
      run_explicit_rows(pb_, stencils_, r.pass, first, last, s.pass, own_axis0);
    }
    const T* f0 = own_axis0 ? own_axis0 : r.f[0] ? r.f[0] + first * n0 : nullptr;
    solve_rows(n0, factors_[0], last - first, (r.wide.v ? r.wide.out : r.pass.out) + first * n0, f0,
               static_cast<T>(-r.theta_dt), r.stage0_out + first * n0, s.lines.data());
    if (r.add_to && pb_.dim == 1) add_increments(r, first * n0, last * n0);
  }

  // Nodes [first, last) of the last axis in `layer` of a mixed march: X += D.
  void add_nodes(const Round& r, std::size_t layer, std::size_t first, std::size_t last) const {
    const std::size_t base = layer * parts_.points;
    add_increments(r, base + first * parts_.stride, base + last * parts_.stride);
  }

  // Values [from, to) of a mixed march: X += D.
  void add_increments(const Round& r, std::size_t from, std::size_t to) const {
    double* __restrict x = r.add_to;
    const T* __restrict d = r.result;
#pragma omp simd
    for (std::size_t i = from; i < to; ++i) x[i] += static_cast<double>(d[i]);
  }

  StageRhs<T> stage_rhs(const Round& r, int d) const {
    StageRhs<T> rhs;
    rhs.z = d == 1 ? r.stage0_out : r.result;
    rhs.f = r.f[d];
    rhs.v = r.f[d] || !r.axis_terms ? nullptr : r.pass.v;
    rhs.op = stencils_.op(d);
    rhs.g = static_cast<T>(-r.theta_dt);
    return rhs;
  }

  // Every stage of a round on the calling thread's parts (items layer * parts + part, in equal
  // shares), a few nodes of the last axis at a time: their rows (pass, axis-0 stage), in 3-D their
  // plane's axis-1 lines, then their last-axis elimination while those rows are in cache (upper part
  // ascending, lower descending); once the layer is joined, each part's substitution; at the step's
  // end, their events. A layer on two threads is joined, both parts, by the second to finish its
  // elimination. A thread waits only for what it reads of another's part and overwrites nothing
  // another still reads: docs/solvers.md, "Threads in the CPU ADI march", says why.
  void run_parts(const Round& r, Scratch& s, std::size_t step_end) {
    const std::size_t n0 = pb_.axes[0].size(), per_node = parts_.stride / n0;
    const auto [first, last] = thread_share(parts_.items());
    const int dl = pb_.dim - 1;
    const StageRhs<T> rhs = stage_rhs(r, dl), plane_rhs = stage_rhs(r, 1);
    const std::size_t done = s.stages++;
    T* const edges = edges_.data() + (done % 2) * (edges_.size() / 2);
    wait_for_joins(first, last, done);
    wait_for_knock_ins(s, first, last, r.result);
    if (r.add_to) wait_for_knock_ins(s, first, last, r.add_to);
    // 2-D: a node is a row, taken kRowsPerBlock at a time; 3-D: a node is a plane.
    const std::size_t nodes_per_block = dl == 1 ? kRowsPerBlock : 1;
    for (std::size_t item = first; item < last; ++item) {
      const std::size_t layer = item / parts_.parts(), part = item % parts_.parts();
      const auto [lo, hi] = parts_.nodes(part);
      const std::size_t blocks = (hi - lo + nodes_per_block - 1) / nodes_per_block;
      for (std::size_t k = 0; k < blocks; ++k) {
        const std::size_t a = lo + (part == 0 ? k : blocks - 1 - k) * nodes_per_block;
        const std::size_t e = std::min(hi, a + nodes_per_block);
        const std::size_t row0 = layer * parts_.points / n0 + a * per_node, row1 = row0 + (e - a) * per_node;
        for (std::size_t b = row0; b < row1; b += kRowsPerBlock) run_rows(r, s, b, std::min(row1, b + kRowsPerBlock));
        if (dl == 2) {
          const std::size_t plane0 = layer * parts_.n;
          solve_axis_groups(pb_, 1, factors_[1], plane_rhs, r.result, plane0 + a, plane0 + e);
        }
        eliminate_nodes(parts_, factors_[dl], split_, rhs, r.result, layer, part, a, e, edge(edges, item));
      }
    }
    // With events to come, an item is published once they are applied: until then its values
    // are not the step's. A mixed march's values are the step's once their increment is added:
    // the joined node's first, which the other part reads.
    const bool events = step_end != kNoStepEnd && events_.fall_after(step_end);
    const bool split = parts_.parts() > 1;
    // Whether what the other part reads is final once joined (it is, unless increments are still
    // to be added to a layer that has no joined node).
    const bool final_once_joined = split || !r.add_to;
    const std::size_t published = !events && final_once_joined ? done + 1 : 0;
    const auto shared = [&](std::size_t item) { return split && ((item ^ 1) < first || (item ^ 1) >= last); };
    for (std::size_t item = first; item < last; ++item)
      if (shared(item) && arrived_second(item / 2)) join_layer(r, item / 2, edges, published, done + 1);
    for (std::size_t item = first; item < last; ++item) {
      const std::size_t layer = item / parts_.parts(), part = item % parts_.parts();
      auto [lo, hi] = parts_.nodes(part);
      if (shared(item)) {
        wait_until_at_least(layer_joined_[layer], done + 1);
      } else {
        join_node(r, layer, part, edges);
        if (published) publish(item, published);
      }
      // The joined node's increment is added by the join.
      if (r.add_to && split) {
        if (part == 0) {
          --hi;
        } else {
          ++lo;
        }
      }
      substitute_part(parts_, factors_[dl], split_, r.result, layer, part);
      if (r.add_to) add_nodes(r, layer, lo, hi);
      if (!events && !final_once_joined) publish(item, done + 1);
    }
    if (!events) return;
    if (r.add_to) {
      apply_events(s, step_end, r.add_to, first, last, done + 1);
    } else {
      apply_events(s, step_end, r.result, first, last, done + 1);
    }
  }

  // A centroid autocall's lifts (StepEvents::lift) read neighbours of every thread's parts: once
  // all are the step's, each thread takes a share of the points, and all are lifted before any
  // event is applied. `v`: the values the events apply to (T, or a mixed march's fp64).
  template <class V>
  void lift_all(std::size_t j, const V* v) {
#pragma omp barrier
    const auto [from, to] = thread_share(pb_.points);
    events_.lift(j, v, from, to);
#pragma omp barrier
  }

  // The node next to the split of `layer`'s part (nothing in a layer that is one part), from both
  // parts' edges; in a mixed march with its increment added, as the other part reads X there.
  void join_node(const Round& r, std::size_t layer, std::size_t part, T* edges) {
    join_part(parts_, factors_[pb_.dim - 1], split_, r.result, layer, part, edge(edges, 2 * layer),
              edge(edges, 2 * layer + 1));
    if (!r.add_to || parts_.parts() < 2) return;
    const std::size_t joined = part == 0 ? parts_.split - 1 : parts_.split;
    add_nodes(r, layer, joined, joined + 1);
  }

  // Where item's elimination leaves its last node, in one stage's set of edges.
  T* edge(T* edges, std::size_t item) const { return edges + item * parts_.stride; }

  // Both parts of a layer that is on two threads, by the second to arrive; `published`: the stage
  // both items are published as (0: none yet), `joined`: the stage the layer is joined in.
  void join_layer(const Round& r, std::size_t layer, T* edges, std::size_t published, std::size_t joined) {
    for (std::size_t part = 0; part < 2; ++part) {
      join_node(r, layer, part, edges);
      if (published) publish(2 * layer + part, published);
    }
    raise_to(layer_joined_[layer], joined);
  }

  // Whether the calling thread is the second of a shared layer's two to finish its elimination
  // in this stage: each arrives once a stage, and the first waits for the join.
  bool arrived_second(std::size_t layer) {
    return arrivals_[layer].fetch_add(1, std::memory_order_acq_rel) % 2 == 1;
  }

  // The events after step j on items [first, last) of v, each item published once its events are
  // applied as `stage`. The last layer's items go first: a knock-in (or a lizard's break) reads the
  // layers above its own, waiting for another thread's (each point sees the same arithmetic as
  // StepEvents::after).
  template <class V>
  void apply_events(Scratch& s, std::size_t j, V* v, std::size_t first, std::size_t last, std::size_t stage) {
    if (events_.lifts_after(j)) lift_all(j, v);
    const bool knock_in = events_.reads_layers_after(j);
    const auto layers = static_cast<std::size_t>(pb_.layers);
    for (std::size_t item = last; item-- > first;) {
      const std::size_t layer = item / parts_.parts(), part = item % parts_.parts();
      if (knock_in)
        for (std::size_t above = layer + 1; above < layers; ++above)
          wait_until_published(part + above * parts_.parts(), stage, first, last);
      const auto [lo, hi] = parts_.nodes(part);
      events_.on_layer(j, v, layer, lo * parts_.stride, hi * parts_.stride);
      publish(item, stage);
    }
    if (knock_in) s.knock_in_read[value_slot(v)] = stage;
  }

  // Before a round overwrites a value buffer a knock-in read: until the events on the same part of
  // every layer below each item this thread owns (the layers that read it) are done.
  template <class V>
  void wait_for_knock_ins(const Scratch& s, std::size_t first, std::size_t last, const V* written) {
    const std::size_t read_at = s.knock_in_read[value_slot(written)];
    if (read_at == 0) return;
    for (std::size_t item = std::max(first, parts_.parts()); item < last; ++item)
      for (std::size_t below = 0; below < item / parts_.parts(); ++below)
        wait_until_published(item % parts_.parts() + below * parts_.parts(), read_at, first, last);
  }

  // Which value buffer v is (0: the march's, 1: y_, 2: a mixed march's fp64 values).
  template <class V>
  std::size_t value_slot(const V* v) const {
    if constexpr (!std::is_same_v<V, T>) {
      return 2;
    } else {
      return v == y_.data() ? 1 : 0;
    }
  }

  void publish(std::size_t item, std::size_t stage) { raise_to(joined_[item], stage); }

  // Until `item` is published at `stage` or later, unless it is one of the calling thread's own
  // items [first, last).
  void wait_until_published(std::size_t item, std::size_t stage, std::size_t first, std::size_t last) {
    if (item < first || item >= last) wait_until_at_least(joined_[item], stage);
  }

  // Until the other part of each split layer this thread works on has published `done` stages.
  void wait_for_joins(std::size_t first, std::size_t last, std::size_t done) {
    if (parts_.parts() < 2 || done == 0) return;
    for (std::size_t item = first; item < last; ++item) wait_until_published(item ^ 1, done, first, last);
  }

  const Problem& pb_;
  const GridStencils<T> stencils_;
  std::optional<GridStencils<double>> wide_stencils_;  // increments: the first pass's, over X
  Vec y0_, y_, mixed_x_;
  std::vector<Vec> axis_x_;
  bool threaded_;
  std::vector<Scratch> scratch_;
  StealingShares row_blocks_;  // one asset: the rows
  LayerParts parts_;
  const StepEvents events_;  // with two or more assets, applied by the step (applies_events)
  // Per layer and part, the last node each part's elimination left, for the join; two sets, used by
  // turns, so that one stage's edges are not overwritten while a late thread still reads them.
  Vec edges_;
  // Per item, the stages it has published: its node next to the split joined, and at a step's end
  // with events, every value final.
  std::unique_ptr<std::atomic<std::size_t>[]> joined_;
  // Per layer on two threads: its parts' arrivals at a join, and the stages it is joined in.
  std::unique_ptr<std::atomic<std::size_t>[]> arrivals_, layer_joined_;
  LineFactorsT<T> factors_[3];
  SplitFactorsT<T> split_;  // the last axis's lower parts
  double factored_theta_dt_ = -1;
};

// Steps in T on values V: V = T, or a mixed march's fp64 values under fp32 steps (increments).
template <class T, class V = T>
MarchResult march_in(const Problem& pb, const SolverOptions& opt) {
  constexpr bool increments = !std::is_same_v<T, V>;
  const AdiScheme scheme = adi_scheme(opt.scheme.empty() ? adi_scheme_names().front() : opt.scheme);
  const AdiScheme damped = damping_scheme();
  AdiStepper<T> stepper(pb, !increments && keeps_x_terms(scheme.kind), increments);
  MarchResult m;
  m.scheme = scheme.name();
  std::vector<V> values = march_on_threads<V>(pb, stepper.threaded(), [&](std::size_t j, V* v) {
    const StepWeights w = step_weights(pb.time.damped[j] ? damped : scheme, pb.time.dt(j));
    if constexpr (increments) {
      return stepper.step_increments(w, v, j);
    } else {
      return stepper.step(w, v, j);
    }
  }, stepper.applies_events());
  if constexpr (std::is_same_v<V, double>) {
    m.values = std::move(values);
  } else {
    m.values.assign(values.begin(), values.end());
  }
  return m;
}

// fp32 keeps the problem (mesh, payoff, events) in fp64 and marches fp32 values with fp32 copies
// of the operators and factors: half the bytes a step streams, twice the lanes per vector. Mixed
// keeps the values in fp64 as well and runs the steps in fp32 on their increments.
MarchResult march_adi(const Problem& pb, const SolverOptions& opt) {
  switch (opt.precision) {
    case Precision::FP32: return march_in<float>(pb, opt);
    case Precision::Mixed: return march_in<float, double>(pb, opt);
    default: return march_in<double>(pb, opt);
  }
}

SolverInfo adi_info() {
  SolverInfo s;
  s.name = "adi";
  s.description = "CPU ADI (mixed term as each scheme prescribes), threads over lines";
  s.schemes = adi_scheme_names();
  s.devices = {Device::Kind::Cpu};
  s.precisions = {Precision::FP64, Precision::FP32, Precision::Mixed};
  s.max_dim = 3;
  s.memory = MemoryModel{MemorySpace::Host, 4, 0, 0, true,
                         "per layer: payoff, values, Y0, Y (CS, MCS: F_0(X) and each F_d(X) too, except in mixed)"};
  for (const std::string& name : adi_scheme_names())
    if (keeps_x_terms(adi_scheme(name).kind))  // a mixed march keeps no F(X) terms
      s.scheme_memory.push_back({name, 5, 1, {Precision::FP64, Precision::FP32}});
  s.march = march_adi;
  return s;
}

}  // namespace

ELSBENCH_REGISTER_SOLVER(adi_info);

}  // namespace elsbench
