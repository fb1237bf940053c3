// The fused explicit pass (solvers/operators/fused_explicit.hpp) against the operator written out
// node by node: A_d v from each axis's stencil, and each mixed term as the product of the two S d/dS
// stencils, on random values, in one, two and three dimensions with two layers. The pass applies
// S0 d/dS0 once to a weighted sum of neighbouring rows and walks rows in blocks; a row it takes
// from the wrong neighbour (as a round-robin cache of derivative rows once did in three dimensions)
// shows up here as an O(1) difference.
// Also: the pass split into any row ranges, and the ADI price on 1 and 2 threads, agree bit for bit.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <random>

#include "products/catalog.hpp"
#include "solvers/contract/solver.hpp"
#include "solvers/operators/fused_explicit.hpp"
#include "solvers/problem/problem_builder.hpp"

namespace elsbench {
namespace {

using Vec = std::vector<double>;

Vec random_values(std::size_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Vec v(n);
  for (double& x : v) x = u(gen);
  return v;
}

struct Node {
  std::size_t layer = 0, i[3] = {0, 0, 0};
};

// The value at node `at` moved by `shift` along the axes, 0 off the mesh.
double value_at(const Problem& pb, const Vec& v, Node at, const int (&shift)[3]) {
  std::size_t offset = at.layer * pb.points;
  for (int d = 0; d < pb.dim; ++d) {
    const auto& ax = pb.axes[static_cast<std::size_t>(d)];
    const auto j = static_cast<std::ptrdiff_t>(at.i[d]) + shift[d];
    if (j < 0 || j >= static_cast<std::ptrdiff_t>(ax.size())) return 0.0;
    offset += static_cast<std::size_t>(j) * ax.stride;
  }
  return v[offset];
}

double weight(const Tridiagonal& t, std::size_t i, int p) {
  return p < 0 ? t.lower[i] : p == 0 ? t.diag[i] : t.upper[i];
}

double axis_term(const Problem& pb, const Vec& v, const Node& at, int d) {
  double sum = 0;
  for (int p = -1; p <= 1; ++p) {
    int shift[3] = {0, 0, 0};
    shift[d] = p;
    sum += weight(pb.axes[static_cast<std::size_t>(d)].op, at.i[d], p) * value_at(pb, v, at, shift);
  }
  return sum;
}

double mixed_terms(const Problem& pb, const Vec& v, const Node& at) {
  double sum = 0;
  for (const MixedTerm& m : pb.mixed)
    for (int p = -1; p <= 1; ++p)
      for (int q = -1; q <= 1; ++q) {
        int shift[3] = {0, 0, 0};
        shift[m.a] = p;
        shift[m.b] = q;
        sum += m.coeff * weight(pb.axes[static_cast<std::size_t>(m.a)].d1, at.i[m.a], p) *
               weight(pb.axes[static_cast<std::size_t>(m.b)].d1, at.i[m.b], q) * value_at(pb, v, at, shift);
      }
  return sum;
}

Node node_of(const Problem& pb, std::size_t k) {
  Node at;
  at.layer = k / pb.points;
  for (int d = 0; d < pb.dim; ++d) {
    const auto& ax = pb.axes[static_cast<std::size_t>(d)];
    at.i[d] = (k % pb.points) / ax.stride % ax.size();
  }
  return at;
}

double max_abs(const Vec& a) {
  double m = 0;
  for (double x : a) m = std::max(m, std::abs(x));
  return m;
}

Problem problem(const char* id, int n) {
  GridOptions g;
  g.n = n;
  return build_problem(resolve_product(id), g);
}

}  // namespace

BOOST_AUTO_TEST_CASE(the_pass_equals_the_operator_written_out_node_by_node) {
  for (const char* id : {"els-1a-stepdown", "min-call", "sample-2a-stepdown", "els-3a-stepdown"}) {
    for (int n : {5, 9, 13}) {
      const Problem pb = problem(id, n);
      const Vec v = random_values(pb.values(), 7u + static_cast<unsigned>(n));
      const Vec base = random_values(pb.values(), 11u + static_cast<unsigned>(n));
      Vec axis[3], mixed(pb.values()), out(pb.values());
      ExplicitPass pass;
      pass.v = v.data();
      for (int d = 0; d < pb.dim; ++d) {
        axis[d].assign(pb.values(), 0.0);
        pass.axis_out[d] = axis[d].data();
      }
      pass.mixed_out = pb.dim > 1 ? mixed.data() : nullptr;
      pass.out = out.data();
      pass.base[0] = base.data();
      pass.base_coeff[0] = 0.75;
      pass.mixed_coeff = 0.3;
      pass.axes_coeff = -0.2;
      run_explicit_pass(pb, pass);

      Vec want_axis[3], want_mixed(pb.values()), want_out(pb.values());
      for (int d = 0; d < pb.dim; ++d) want_axis[d].assign(pb.values(), 0.0);
      for (std::size_t k = 0; k < pb.values(); ++k) {
        const Node at = node_of(pb, k);
        double axes = 0;
        for (int d = 0; d < pb.dim; ++d) axes += want_axis[d][k] = axis_term(pb, v, at, d);
        want_mixed[k] = mixed_terms(pb, v, at);
        want_out[k] = 0.75 * base[k] + 0.3 * want_mixed[k] - 0.2 * axes;
      }
      const auto close = [&](const Vec& got, const Vec& want, const char* what) {
        double worst = 0;
        for (std::size_t k = 0; k < got.size(); ++k) worst = std::max(worst, std::abs(got[k] - want[k]));
        BOOST_TEST(worst <= 1e-12 * std::max(1.0, max_abs(want)), id << " n " << n << " " << what << ": " << worst);
      };
      for (int d = 0; d < pb.dim; ++d) close(axis[d], want_axis[d], "A_d v");
      if (pb.dim > 1) close(mixed, want_mixed, "mixed terms");
      close(out, want_out, "combined");
    }
  }
}

// A pass of v's operators and mixed terms (no bases) into out.
template <class O>
ExplicitPassT<double, O> pass_into(const Vec& v, O* out, double mixed_coeff, double axes_coeff) {
  ExplicitPassT<double, O> pass;
  pass.v = v.data();
  pass.out = out;
  pass.mixed_coeff = mixed_coeff;
  pass.axes_coeff = axes_coeff;
  return pass;
}

BOOST_AUTO_TEST_CASE(the_pass_in_row_ranges_equals_the_whole_pass_bit_for_bit) {
  for (const char* id : {"sample-2a-stepdown", "els-3a-stepdown"}) {
    const Problem pb = problem(id, 11);
    const Vec v = random_values(pb.values(), 3u);
    Vec whole(pb.values()), pieces(pb.values());
    ExplicitPass pass = pass_into(v, whole.data(), 1.0, 1.0);
    run_explicit_pass(pb, pass);
    pass.out = pieces.data();
    const std::size_t rows = explicit_rows(pb);
    PassScratch<double> scratch(pb.axes[0].size());
    const GridStencils<double> stencils(pb);
    std::mt19937 gen(5);
    for (std::size_t first = 0; first < rows;) {
      const std::size_t last = std::min(rows, first + 1 + gen() % 40);
      run_explicit_rows(pb, stencils, pass, first, last, scratch);
      first = last;
    }
    BOOST_TEST((whole == pieces), id);
  }
}

// A mixed march's first pass reads fp64 values and writes fp32 (ExplicitPassT<double, float>):
// its output must be the fp64 pass's, rounded once, in every dimension.
BOOST_AUTO_TEST_CASE(a_narrower_output_is_the_fp64_pass_rounded_once) {
  for (const char* id : {"european-call", "sample-2a-stepdown", "els-3a-stepdown"}) {
    for (const int n : {11, 80}) {
      const Problem pb = problem(id, std::string(id) == "els-3a-stepdown" ? n / 4 + 3 : n);
      const Vec v = random_values(pb.values(), 7u);
      Vec wide(pb.values());
      std::vector<float> narrow(pb.values());
      run_explicit_pass(pb, pass_into(v, wide.data(), 0.3, 0.7));
      PassScratch<double> scratch(pb.axes[0].size());
      const GridStencils<double> stencils(pb);
      run_explicit_rows(pb, stencils, pass_into(v, narrow.data(), 0.3, 0.7), 0, explicit_rows(pb), scratch);
      std::size_t differ = 0;
      for (std::size_t k = 0; k < wide.size(); ++k) differ += narrow[k] != static_cast<float>(wide[k]);
      BOOST_TEST(differ == 0u, id << " n " << n << ": " << differ << " of " << wide.size() << " values differ");
    }
  }
}

// Three threads on this two-core machine: shares of unequal size, and threads that arrive late
// at every phase, so that blocks are taken from another's share.
// The sample ELS also with continuous monitoring: a knock-in after every step, which the ADI applies
// on each thread's own parts while the knocked-in layer may be another thread's; and a lizard's
// three layers, where the alive layer reads both others.
BOOST_AUTO_TEST_CASE(adi_prices_on_one_two_and_three_threads_agree_bit_for_bit_in_every_dimension) {
  for (const char* id : {"els-1a-stepdown", "sample-2a-stepdown", "els-3a-stepdown", "continuous", "lizard-2a",
                         "monthly-coupon-2a"}) {
    const bool continuous = std::string(id) == "continuous";
    Product product = resolve_product(continuous ? "sample-2a-stepdown" : id);
    if (continuous) product.els().knock_in.monitoring = Monitoring::Continuous;
    for (const std::string scheme : {"hundsdorfer-verwer", "modified-craig-sneyd", "craig-sneyd", "douglas"}) {
      SolverOptions o;
      o.scheme = scheme;
      // Above 4,096 values, so that two threads share the work; one step per monitoring day.
      o.grid.n = std::string(id) == "els-1a-stepdown" ? 2100 : std::string(id) == "els-3a-stepdown" ? 13 : 48;
      o.grid.nt = 60;
      o.grid.knock_in_damping = 0;
      o.device = parse_device("cpu");
      o.device.threads = 1;
      const SolverInfo& adi = SolverRegistry::instance().get("adi");
      const PriceResult one = price_with(adi, product, o);
      for (const int threads : {2, 3}) {
        o.device.threads = threads;
        const PriceResult many = price_with(adi, product, o);
        BOOST_TEST(one.price == many.price, id << " " << scheme << " " << threads << " threads");
        BOOST_TEST(one.delta == many.delta, id << " " << scheme << " " << threads << " threads");
        BOOST_TEST(one.gamma == many.gamma, id << " " << scheme << " " << threads << " threads");
      }
    }
  }
}

}  // namespace elsbench
