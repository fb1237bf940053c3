// A stop request (platform/stop_request.hpp) ends a march between time steps with
// SolverError(Interrupted): at once where it was made before, some 20 ms of work later where it
// comes during a march, on one thread and on several (no thread left waiting for another); and a
// pricing after the request is cleared runs to its end with the price it always had. A pricing's
// progress knows its total before it starts: the steps planned are the steps marched.
#include <boost/test/unit_test.hpp>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <tuple>
#include <utility>

#include "harness/run/price_run.hpp"
#include "platform/solver_error.hpp"
#include "platform/stop_request.hpp"
#include "products/catalog.hpp"
#include "solvers/contract/accuracy.hpp"
#include "solvers/contract/solver.hpp"

using namespace elsbench;

namespace {

// nt 0: the variant's own rule.
SolverOptions on(int threads, int n, int nt) {
  SolverOptions o;
  o.grid.n = n;
  if (nt > 0) o.grid.nt = nt;
  o.device.threads = threads;
  return o;
}

SolverError::Kind kind_of_failure(const std::string& solver, const SolverOptions& o) {
  try {
    price_with(SolverRegistry::instance().get(solver), resolve_product("sample-2a-stepdown"), o);
  } catch (const SolverError& e) {
    return e.kind();
  }
  BOOST_FAIL("the pricing ran to its end");
  return SolverError::Kind::Unstable;
}

}  // namespace

BOOST_AUTO_TEST_CASE(a_request_made_before_stops_every_cpu_march_at_once) {
  const double before = price_with(SolverRegistry::instance().get("adi"), resolve_product("sample-2a-stepdown"),
                                   on(2, 60, 120)).price;
  request_stop();
  // Every march looks before its first step.
  for (const auto& [solver, threads] : {std::pair{"adi", 1}, std::pair{"adi", 2}, std::pair{"explicit", 1},
                                        std::pair{"cn-direct", 1}}) {
    march_progress().reset();
    BOOST_TEST((kind_of_failure(solver, on(threads, 60, std::string(solver) == "explicit" ? 0 : 120)) ==
                SolverError::Kind::Interrupted));
    BOOST_TEST(march_progress().done.load() == 0u, solver << " on " << threads);
  }
  clear_stop_request();
  BOOST_TEST(price_with(SolverRegistry::instance().get("adi"), resolve_product("sample-2a-stepdown"), on(2, 60, 120))
                 .price == before);
}

BOOST_AUTO_TEST_CASE(a_request_during_a_threaded_march_ends_it_on_every_thread) {
  for (int threads : {2, 3, 4}) {
    clear_stop_request();
    march_progress().reset();
    std::thread stopper([] {
      while (march_progress().done.load() < 5) std::this_thread::yield();
      request_stop();
    });
    // Thousands of steps: minutes, were it not stopped.
    BOOST_TEST((kind_of_failure("adi", on(threads, 300, 20000)) == SolverError::Kind::Interrupted));
    stopper.join();
    BOOST_TEST(march_progress().done.load() < 100u, threads << " threads");
  }
  clear_stop_request();
}

BOOST_AUTO_TEST_CASE(max_seconds_stops_a_march_that_runs_past_it) {
  // The pre-flight's lower bound (the measured rate on a machine 4x faster: 0.42 s for 8e7
  // point-steps of cn-direct, 0.34 s for the sample on two threads) lets each start; seconds of
  // work, stopped at the limit as too much work.
  clear_stop_request();
  for (const auto& [product, solver, threads, n, nt, limit] :
       {std::tuple{"european-call", "cn-direct", 1, 40, 2000000, 0.5},
        std::tuple{"sample-2a-stepdown", "adi", 2, 200, 3000, 0.5}}) {
    SolverOptions o = on(threads, n, nt);
    o.max_seconds = limit;
    const auto start = std::chrono::steady_clock::now();
    try {
      price_with(SolverRegistry::instance().get(solver), resolve_product(product), o);
      BOOST_FAIL("the pricing ran to its end");
    } catch (const SolverError& e) {
      BOOST_TEST((e.kind() == SolverError::Kind::TooMuchWork));
      BOOST_TEST(std::string(e.what()).find(" s (--max-seconds) after ") != std::string::npos, e.what());
    }
    const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    BOOST_TEST(took < 2.0, solver << " took " << took << " s");
  }
  // Within its limit a pricing is the same as without one.
  SolverOptions o = on(2, 60, 120);
  const double free = price_with(SolverRegistry::instance().get("adi"), resolve_product("sample-2a-stepdown"), o).price;
  o.max_seconds = 100;
  BOOST_TEST(price_with(SolverRegistry::instance().get("adi"), resolve_product("sample-2a-stepdown"), o).price == free);
}

BOOST_AUTO_TEST_CASE(a_threads_own_flag_stops_its_march_and_no_other_threads) {
  clear_stop_request();
  const SolverInfo& adi = SolverRegistry::instance().get("adi");
  const std::atomic<bool> unwanted{true};
  double elsewhere = 0;
  {
    const StopWhenSet stop(unwanted);
    march_progress().reset();
    BOOST_TEST((kind_of_failure("adi", on(2, 60, 120)) == SolverError::Kind::Interrupted));
    BOOST_TEST(march_progress().done.load() == 0u);
    std::thread other([&] { elsewhere = price_with(adi, resolve_product("sample-2a-stepdown"), on(1, 60, 120)).price; });
    other.join();
  }
  BOOST_TEST(elsewhere > 0);
  BOOST_TEST(price_with(adi, resolve_product("sample-2a-stepdown"), on(2, 60, 120)).price == elsewhere);
}

BOOST_AUTO_TEST_CASE(a_refused_fine_grid_stops_its_coarse_grid_at_once) {
  // Richardson's pair side by side: the fine grid's pre-flight refuses it (a lower bound of about
  // 18 s on its one thread, 2.3x the limit), while the coarse grid's (a quarter of that) lets it
  // start, to run for about 20 s here. Once the fine one is refused the coarse one is unwanted:
  // stopped, not run to its limit before the refusal is said.
  clear_stop_request();
  SolverOptions o = on(2, 2000, 3000);
  o.max_seconds = 8;
  const auto start = std::chrono::steady_clock::now();
  try {
    price_extrapolated(SolverRegistry::instance().get("adi"), resolve_product("sample-2a-stepdown"), o);
    BOOST_FAIL("the pair was priced");
  } catch (const SolverError& e) {
    BOOST_TEST((e.kind() == SolverError::Kind::TooMuchWork), e.what());
    BOOST_TEST(std::string(e.what()).find("takes at least") != std::string::npos, e.what());
  }
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  BOOST_TEST(took < 4.0, "took " << took << " s");
}

BOOST_AUTO_TEST_CASE(a_pricings_plan_is_every_step_it_marches) {
  clear_stop_request();
  struct Ask {
    const char* product;
    bool extrapolate, error_estimate, greeks;
  };
  for (const Ask& ask : {Ask{"sample-2a-stepdown", false, false, false}, Ask{"sample-2a-stepdown", false, true, false},
                         Ask{"sample-2a-stepdown", true, false, false}, Ask{"sample-2a-stepdown", true, true, true},
                         Ask{"els-1a-stepdown", false, true, true}, Ask{"els-1a-stepdown", true, true, false},
                         Ask{"min-call", true, false, true}}) {
    PriceRequest request;
    request.options = on(2, 48, 0);
    request.extrapolate = ask.extrapolate;
    request.error_estimate = ask.error_estimate;
    request.greeks = ask.greeks;
    const std::string what = std::string(ask.product) + (ask.extrapolate ? " extrapolated" : " plain") +
                             (ask.error_estimate ? " +bar" : "") + (ask.greeks ? " +greeks" : "");
    const SolverInfo& adi = SolverRegistry::instance().get("adi");
    const Product& product = resolve_product(ask.product);
    march_progress().reset();
    BOOST_TEST(plan_progress(adi, product, request));
    const std::uint64_t planned = march_progress().planned.load();
    BOOST_TEST(march_progress().done.load() == 0u, what);
    const double price = run_price(adi, product, request).result->price;
    BOOST_TEST(price > 0, what);
    BOOST_TEST(march_progress().planned.load() == planned, what);
    BOOST_TEST(march_progress().done.load() == planned, what);
  }
  // A target's grid comes from its pilot's prices: no plan.
  PriceRequest target;
  target.options = on(2, 48, 0);
  target.target = parse_error_target("5bp");
  march_progress().reset();
  BOOST_TEST(!plan_progress(SolverRegistry::instance().get("adi"), resolve_product("sample-2a-stepdown"), target));
  BOOST_TEST(!march_progress().total_known.load());
}
