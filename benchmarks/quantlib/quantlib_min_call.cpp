// Side by side with QuantLib 1.29: the two-asset min call of products/catalog/min-call.json priced by
// QuantLib's Fd2dBlackScholesVanillaEngine (Hundsdorfer-Verwer, no damping) and by elsbench's adi
// (Hundsdorfer-Verwer, one thread) on the same n x n grid and n steps, in fp64 and in fp32 (QuantLib
// has only fp64: the fp32 rows say whether half the bytes keep an error no larger than QuantLib's);
// every error is against the Stulz closed form. Built only when QuantLib's headers and library are found (Debian:
// libquantlib0-dev); a developer's tool, not part of the harness.
//   build/quantlib_min_call --benchmark_counters_tabular=true
#include <benchmark/benchmark.h>

#include <chrono>
#include <cmath>

// Only what is used: ql/quantlib.hpp pulls in Boost.uBLAS, which does not build as C++20.
#include <ql/exercise.hpp>
#include <ql/instruments/basketoption.hpp>
#include <ql/pricingengines/basket/fd2dblackscholesvanillaengine.hpp>
#include <ql/processes/blackscholesprocess.hpp>
#include <ql/quotes/simplequote.hpp>
#include <ql/termstructures/volatility/equityfx/blackconstantvol.hpp>
#include <ql/termstructures/yield/flatforward.hpp>
#include <ql/time/calendars/nullcalendar.hpp>
#include <ql/time/daycounters/actual365fixed.hpp>

#include "products/catalog.hpp"
#include "reference/closed_form.hpp"
#include "solvers/contract/solver.hpp"

namespace {

namespace ql = QuantLib;
using namespace elsbench;

ql::ext::shared_ptr<ql::GeneralizedBlackScholesProcess> process(const Underlying& u, double rate,
                                                              const ql::Date& today) {
  const ql::DayCounter dc = ql::Actual365Fixed();
  auto flat = [&](double r) {
    return ql::Handle<ql::YieldTermStructure>(ql::ext::make_shared<ql::FlatForward>(today, r, dc));
  };
  auto vol = ql::Handle<ql::BlackVolTermStructure>(
      ql::ext::make_shared<ql::BlackConstantVol>(today, ql::NullCalendar(), u.vol, dc));
  auto spot = ql::Handle<ql::Quote>(ql::ext::make_shared<ql::SimpleQuote>(u.spot));
  return ql::ext::make_shared<ql::BlackScholesMertonProcess>(spot, flat(u.div_yield), flat(rate), vol);
}

double quantlib_price(const Product& p, int n) {
  const ql::Date today(1, ql::January, 2026);
  ql::Settings::instance().evaluationDate() = today;
  const ql::Date expiry = today + static_cast<int>(std::lround(p.maturity() * 365.0));
  auto payoff = ql::ext::make_shared<ql::MinBasketPayoff>(
      ql::ext::make_shared<ql::PlainVanillaPayoff>(ql::Option::Call, p.option().strikes[0]));
  ql::BasketOption option(payoff, ql::ext::make_shared<ql::EuropeanExercise>(expiry));
  const auto size = static_cast<ql::Size>(n);
  option.setPricingEngine(ql::ext::make_shared<ql::Fd2dBlackScholesVanillaEngine>(
      process(p.assets[0], p.rate, today), process(p.assets[1], p.rate, today),
      p.correlation[0][1], size, size, size, 0, ql::FdmSchemeDesc::Hundsdorfer()));
  return option.NPV();
}

void record(benchmark::State& state, double price, double exact) {
  state.counters["price"] = price;
  state.counters["rel_error"] = std::abs(price - exact) / exact;
}

void quantlib_min_call(benchmark::State& state) {
  const Product p = resolve_product("min-call");
  const int n = static_cast<int>(state.range(0));
  double price = 0.0;
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    price = quantlib_price(p, n);
    state.SetIterationTime(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  record(state, price, closed_form_price(p).value());
}

void run_elsbench(benchmark::State& state, Precision precision) {
  const Product p = resolve_product("min-call");
  SolverOptions o;
  o.scheme = "hundsdorfer-verwer";
  o.grid.n = static_cast<int>(state.range(0));
  o.grid.nt = o.grid.n;
  o.device = parse_device("cpu:t1");
  o.precision = precision;
  PriceResult r;
  for (auto _ : state) {
    r = price_with(SolverRegistry::instance().get("adi"), p, o);
    state.SetIterationTime(r.seconds);
  }
  record(state, r.price, closed_form_price(p).value());
}

void elsbench_min_call(benchmark::State& state) {
  run_elsbench(state, state.range(1) == 32 ? Precision::FP32 : Precision::FP64);
}

// fp64 values, fp32 steps: fp64's error at nearly fp32's speed.
void elsbench_min_call_mixed(benchmark::State& state) { run_elsbench(state, Precision::Mixed); }

}  // namespace

BENCHMARK(quantlib_min_call)->Arg(100)->Arg(200)->Arg(400)->UseManualTime()->Unit(benchmark::kMillisecond);
// args: n, precision (64 | 32)
BENCHMARK(elsbench_min_call)
    ->ArgsProduct({{100, 200, 400}, {64, 32}})
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(elsbench_min_call_mixed)->Arg(100)->Arg(200)->Arg(400)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
