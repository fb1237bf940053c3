// The analytic memory model each variant declares at its registration: its arithmetic, and the
// models marked checked against the peak that the allocation tracker measures. The capacity
// questions a report asks of it (largest grid, largest batch) are the report's, tested in
// harness/report/tests.
#include <boost/test/unit_test.hpp>
#include <cmath>

#include "products/book_generator.hpp"
#include "products/catalog.hpp"
#include "solvers/contract/memory_model.hpp"
#include "solvers/contract/solver.hpp"
#include "solvers/problem/problem_builder.hpp"

using namespace elsbench;

BOOST_AUTO_TEST_CASE(a_product_puts_layers_and_event_weights_on_the_grid) {
  const GridLoad els = grid_load(resolve_product("sample-2a-stepdown"));
  BOOST_TEST(els.dim == 2);
  BOOST_TEST(els.layers == 2);  // daily knock-in not yet hit: two value layers
  // Autocall barriers before maturity 95, 95, 90, 85, 80 (four distinct) and the knock-in side.
  BOOST_TEST(els.event_weights == 5);
  Product knocked = resolve_product("sample-2a-stepdown");
  knocked.els().knocked_in = true;
  BOOST_TEST(grid_load(knocked).layers == 1);
  BOOST_TEST(grid_load(knocked).event_weights == 4);
  const GridLoad call = grid_load(resolve_product("european-call"));
  BOOST_TEST(call.dim == 1);
  BOOST_TEST(call.layers == 1);
  BOOST_TEST(call.event_weights == 0);
}

// The model reads the note's events as the problem builder does: the same layers and sides, on
// every kind of note (lizards, coupons, knocked in or not, one to three assets).
BOOST_AUTO_TEST_CASE(the_load_is_the_built_problems_layers_and_event_sides) {
  std::vector<Product> notes;
  for (const Product& p : load_catalog())
    if (p.is_els()) notes.push_back(p);
  for (const BookFamily family : {BookFamily::Issued, BookFamily::Digital, BookFamily::Monthly, BookFamily::Lizard})
    for (const Product& p : generate_book({12, 0, 5, family})) notes.push_back(p);
  GridOptions grid;
  grid.n = 32;
  for (const Product& p : notes) {
    const Problem pb = build_problem(p, grid);
    const GridLoad load = grid_load(p);
    BOOST_TEST_INFO(p.id);
    BOOST_TEST(load.layers == pb.layers);
    BOOST_TEST(static_cast<std::size_t>(load.event_weights) == pb.event_fractions.size());
  }
}

BOOST_AUTO_TEST_CASE(bytes_per_point_counts_arrays_by_layer_dimension_and_precision) {
  const MemoryModel device{MemorySpace::Device, 3, 1, 2, false, ""};
  const MemoryModel host{MemorySpace::Host, 3, 1, 2, false, ""};
  const GridLoad g{2, 2, 5};
  // 2 x (3 + 1 x 2) + 2 = 12 arrays in the solver's precision; then the ELS's per-node arrays:
  // on a device the 5 event weights in that precision, on the host in fp64.
  BOOST_TEST(bytes_per_point(device, Precision::FP64, g, 1e4) == 8.0 * 12 + 8.0 * 5);
  BOOST_TEST(bytes_per_point(device, Precision::FP32, g, 1e4) == 4.0 * 12 + 4.0 * 5);
  // Below fp64 on the host, per layer: the payoff stays fp64 (4 more bytes), and the values are
  // fp64 (mixed: 4 more) or copied to fp64 at the end while the arrays live (fp32: 8 more).
  BOOST_TEST(bytes_per_point(host, Precision::FP32, g, 1e4) == 4.0 * 12 + (4.0 + 8.0) * 2 + 8.0 * 5);
  BOOST_TEST(bytes_per_point(host, Precision::Mixed, g, 1e4) == 4.0 * 12 + (4.0 + 4.0) * 2 + 8.0 * 5);
  BOOST_TEST(model_bytes(device, Precision::FP64, g, 100.0 * 100.0) == (8.0 * 12 + 8.0 * 5) * 1e4);
}

// Every variant registered here declares a model, in the memory that limits its grid.
BOOST_AUTO_TEST_CASE(every_variant_declares_its_memory_model) {
  for (const SolverInfo& s : SolverRegistry::instance().all()) {
    if (s.test_only) continue;
    BOOST_TEST_CONTEXT(s.name) {
      BOOST_TEST_REQUIRE(s.memory.has_value());
      const bool on_gpu = s.supports(Device::Kind::Cuda) && !s.supports(Device::Kind::Cpu);
      BOOST_TEST((s.memory->space == (on_gpu ? MemorySpace::Device : MemorySpace::Host)));
    }
  }
}

// A checked row must predict the measured host peak of real pricings. The model counts full-grid
// arrays only, so it is compared on the second difference of the peak over n = 50, 100, 150 on
// 2-D products: that cancels what does not grow with the grid (events) and what grows with n only
// (time grid, meshes, 1-D operators and factors, per-thread line buffers) up to their vectors'
// capacity doubling, a step of a few KiB that the wide spacing keeps near 1 % of the arrays'
// (5,000 points of second difference). What is left besides the arrays is the explicit solver's
// time grid, whose stable step count grows like n^2 (2 %).
BOOST_AUTO_TEST_CASE(checked_rows_match_the_measured_peak) {
  for (const SolverInfo& solver : SolverRegistry::instance().all()) {
    if (solver.test_only || !solver.memory || solver.memory->space != MemorySpace::Host || !solver.memory->checked)
      continue;
    // The default scheme, and each scheme declared to keep other arrays, in every precision.
    std::vector<std::string> schemes{solver.default_scheme()};
    for (const SchemeArrays& a : solver.scheme_memory) schemes.push_back(a.scheme);
    for (const std::string& scheme : schemes)
      for (const Precision precision : solver.precisions) {
        const MemoryModel m = *solver.memory_for(scheme, precision);
        // One layer and no per-node arrays; two layers with event weights (the
        // explicit solver's stable step is too slow for a test on the ELS).
        for (const char* id : {"min-call", "sample-2a-stepdown"}) {
          const Product p = resolve_product(id);
          if (solver.name == "explicit" && p.is_els()) continue;
          const auto second_difference = [](auto f) { return f(150) - 2 * f(100) + f(50); };
          const double measured = second_difference([&](int n) {
            SolverOptions o;
            o.grid.n = n;
            o.scheme = scheme;
            o.device.threads = 1;
            o.precision = precision;
            return static_cast<double>(price_with(solver, p, o).peak_host_bytes);
          });
          const GridLoad load = grid_load(p);
          const double predicted = second_difference(
              [&](int n) { return model_bytes(m, precision, load, std::pow(static_cast<double>(n), load.dim)); });
          BOOST_TEST_MESSAGE(solver.name << " " << scheme << " " << to_string(precision) << " on " << id
                                         << ": measured " << measured << " bytes, model " << predicted);
          BOOST_TEST(measured / predicted == 1.0, boost::test_tools::tolerance(0.05));
        }
      }
  }
}
