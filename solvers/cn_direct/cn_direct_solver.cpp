// cn-direct: Crank-Nicolson on the full operator (mixed term included) with a sparse LU, no
// splitting. Slow, but its only error is the discretisation shared by every variant, so it
// measures the splitting error of ADI.
#include <Eigen/SparseCore>
#include <Eigen/SparseLU>
#include <cmath>
#include <memory>

#include "platform/solver_error.hpp"
#include "solvers/contract/solver.hpp"
#include "solvers/march/march.hpp"

namespace elsbench {
namespace {

using SparseMatrix = Eigen::SparseMatrix<double>;
using Triplet = Eigen::Triplet<double>;

// Flat index offsets of a node's neighbours along each axis.
struct NodeWalker {
  const Problem& pb;
  std::vector<std::size_t> idx;
  explicit NodeWalker(const Problem& p) : pb(p), idx(static_cast<std::size_t>(p.dim), 0) {}
  void next() {
    for (std::size_t d = 0; d < idx.size(); ++d) {
      if (++idx[d] < pb.axes[d].size()) return;
      idx[d] = 0;
    }
  }
};

// Entries of row `flat` of the 1-D operator of axis d.
void add_axis_row(std::vector<Triplet>& t, const Problem& pb, std::size_t d, std::size_t i,
                  std::size_t flat) {
  const Axis& ax = pb.axes[d];
  const auto row = static_cast<int>(flat);
  if (i > 0) t.emplace_back(row, static_cast<int>(flat - ax.stride), ax.op.lower[i]);
  t.emplace_back(row, row, ax.op.diag[i]);
  if (i + 1 < ax.size()) t.emplace_back(row, static_cast<int>(flat + ax.stride), ax.op.upper[i]);
}

SparseMatrix full_operator(const Problem& pb) {
  std::vector<Triplet> t;
  t.reserve(pb.points * (3 * static_cast<std::size_t>(pb.dim) + 9 * pb.mixed.size()));
  NodeWalker w(pb);
  for (std::size_t flat = 0; flat < pb.points; ++flat, w.next()) {
    for (std::size_t d = 0; d < w.idx.size(); ++d) add_axis_row(t, pb, d, w.idx[d], flat);
    for (const MixedTerm& m : pb.mixed) {
      const auto a = static_cast<std::size_t>(m.a), b = static_cast<std::size_t>(m.b);
      const Axis &A = pb.axes[a], &B = pb.axes[b];
      const std::size_t ia = w.idx[a], ib = w.idx[b];
      const double wa[3] = {A.d1.lower[ia], A.d1.diag[ia], A.d1.upper[ia]};
      const double wb[3] = {B.d1.lower[ib], B.d1.diag[ib], B.d1.upper[ib]};
      for (int p = -1; p <= 1; ++p)
        for (int q = -1; q <= 1; ++q) {
          const double weight = m.coeff * wa[p + 1] * wb[q + 1];
          if (weight == 0.0) continue;  // one-sided rows and S = 0 have zero weights off the mesh
          const auto col = static_cast<std::ptrdiff_t>(flat) + p * static_cast<std::ptrdiff_t>(A.stride) +
                           q * static_cast<std::ptrdiff_t>(B.stride);
          // A NaN weight (0 x inf on a mesh beyond fp64's range) is not zero and would point off
          // the mesh: setFromTriplets would write outside its buffers.
          if (!std::isfinite(weight) || col < 0 || col >= static_cast<std::ptrdiff_t>(pb.points))
            throw SolverError(SolverError::Kind::NonFinite,
                              "cn-direct: the operator has a non-finite weight; the mesh or the product's "
                              "levels lie beyond what fp64 can hold");
          t.emplace_back(static_cast<int>(flat), static_cast<int>(col), weight);
        }
    }
  }
  SparseMatrix a(static_cast<Eigen::Index>(pb.points), static_cast<Eigen::Index>(pb.points));
  a.setFromTriplets(t.begin(), t.end());
  return a;
}

// LU of I - theta dt A, refactorised only when theta dt changes (daily grids repeat a few steps).
class CachedLu {
 public:
  explicit CachedLu(const SparseMatrix& a) : a_(a) {}
  const Eigen::SparseLU<SparseMatrix>& get(double theta_dt) {
    if (!lu_ || std::abs(theta_dt - key_) > 1e-12 * std::abs(key_)) {
      SparseMatrix m(a_.rows(), a_.cols());
      m.setIdentity();
      m -= theta_dt * a_;
      m.makeCompressed();
      lu_ = std::make_unique<Eigen::SparseLU<SparseMatrix>>();
      lu_->compute(m);
      if (lu_->info() != Eigen::Success) throw std::runtime_error("cn-direct: sparse LU failed");
      key_ = theta_dt;
      ++factorisations_;
    }
    return *lu_;
  }
  int factorisations() const { return factorisations_; }

 private:
  const SparseMatrix& a_;
  std::unique_ptr<Eigen::SparseLU<SparseMatrix>> lu_;
  double key_ = 0;
  int factorisations_ = 0;
};

MarchResult march_cn_direct(const Problem& pb, const SolverOptions&) {
  const SparseMatrix a = full_operator(pb);
  CachedLu implicit(a), damped(a);
  const auto rows = static_cast<Eigen::Index>(pb.points), cols = static_cast<Eigen::Index>(pb.layers);
  Eigen::MatrixXd rhs(rows, cols);
  MarchResult m;
  m.scheme = "crank-nicolson";
  m.values = march(pb, [&](std::size_t j, std::vector<double>& v) {
    const double theta = pb.time.damped[j] ? 1.0 : 0.5, dt = pb.time.dt(j);
    Eigen::Map<Eigen::MatrixXd> x(v.data(), rows, cols);  // one column per layer
    rhs = x + (1.0 - theta) * dt * (a * x);
    x = (pb.time.damped[j] ? damped : implicit).get(theta * dt).solve(rhs);
  });
  m.notes.push_back("sparse LU factorisations: " + std::to_string(implicit.factorisations() + damped.factorisations()));
  return m;
}

SolverInfo cn_direct_info() {
  SolverInfo s;
  s.name = "cn-direct";
  s.description = "Crank-Nicolson on the full operator with a sparse LU: no splitting error, slow";
  s.devices = {Device::Kind::Cpu};
  s.max_dim = 2;
  s.memory = MemoryModel{
      MemorySpace::Host, 4, 0, 60, false,  // Eigen's factors are not tracked: checked against RSS
      "per layer: payoff, values, right-hand side, product A x; shared: the sparse 2-D operator "
      "(9 entries a row), I - theta dt A and the triplets; and Eigen's SparseLU factors of the implicit "
      "and the damped step, whose fill grows like log N a point: 500 (ln N - 4) bytes, fitted to the "
      "process's peak RSS at n = 50..400 (2.3-4.3 KiB a point; docs/performance.md; "
      "unit.reliability_binary checks it)",
      500};
  s.march = march_cn_direct;
  return s;
}

}  // namespace

ELSBENCH_REGISTER_SOLVER(cn_direct_info);

}  // namespace elsbench
