#include "harness/results/price_json.hpp"

#include <iomanip>
#include <sstream>

#include "harness/placement/case_status.hpp"
#include "solvers/contract/risk_greeks.hpp"

namespace elsbench {

namespace {

nlohmann::json axis_json(const AxisErrorEstimate& a) {
  return {{"levels", a.m},
          {"prices", a.prices},
          {"observed_order", a.observed_order ? nlohmann::json(*a.observed_order) : nlohmann::json()},
          {"order", a.order},
          {"error", a.error},
          {"refined", a.refined}};
}

std::string axis_text(const AxisErrorEstimate& a, const char* what) {
  std::ostringstream s;
  s << std::scientific << std::setprecision(3) << a.error << "  (" << what;
  for (std::size_t i = 0; i < a.m.size(); ++i) s << (i ? ", " : " ") << a.m[i];
  s << std::fixed << std::setprecision(2) << "; order " << a.order
    << (a.observed_order && *a.observed_order == a.order ? " observed" : " nominal");
  if (a.observed_order && *a.observed_order != a.order) s << ", observed " << *a.observed_order;
  s << ")";
  return s.str();
}

}  // namespace

nlohmann::json to_json(const ErrorEstimate& e) {
  return {{"error", e.error},     {"extrapolated", e.extrapolated}, {"space", axis_json(e.space)},
          {"time", axis_json(e.time)}, {"truncation", e.truncation},     {"erratic", e.erratic},
          {"truncation_priced", e.truncation_priced}, {"bound", e.bound}};
}

nlohmann::json to_json(const Accuracy& a) {
  nlohmann::json pricings = nlohmann::json::array();
  for (const GridPricing& g : a.pricings)
    pricings.push_back({{"role", g.role}, {"shape", g.shape}, {"time_steps", g.time_steps}, {"price", g.price},
                        {"seconds", g.seconds}});
  const auto maybe = [](const std::optional<double>& x) { return x ? nlohmann::json(*x) : nlohmann::json(); };
  return {{"method", "richardson"}, {"n", a.n},
          {"fine", a.fine},         {"coarse", a.coarse},
          {"target", maybe(a.target)}, {"target_text", a.target.has_value() ? nlohmann::json(a.target_text) : nlohmann::json()},
          {"bound", maybe(a.bound)}, {"space", a.space},
          {"time", a.time},         {"truncation", a.truncation},
          {"truncation_priced", a.truncation_priced},
          {"erratic", a.erratic},   {"pricings", pricings},
          {"cost", a.cost}};
}

std::string accuracy_text(const Accuracy& a) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(6) << "Richardson's value from n = " << a.n << " (" << a.fine << ") and n = "
    << a.n / 2 << " (" << a.coarse << ")";
  return s.str();
}

std::string bound_text(const Accuracy& a) {
  std::ostringstream s;
  s << std::scientific << std::setprecision(2) << *a.bound << " = space " << a.space << " + time " << a.time
    << " + truncation " << a.truncation;
  if (!a.truncation_priced) s << " (not priced: the domain reaches far enough above every barrier)";
  if (a.erratic) s << " (the space levels show no order in [1.5, 3]: its part is the change from n/2 to n, or a quarter of the one before)";
  return s.str();
}

std::string cost_text(const Accuracy& a) {
  std::ostringstream s;
  s << std::setprecision(3) << a.cost << "x the point-steps of one pricing at the grid it landed on, " << a.pricings.size()
    << " pricings:";
  for (const GridPricing& g : a.pricings) {
    s << "\n                " << g.role << ' ';
    for (std::size_t d = 0; d < g.shape.size(); ++d) s << (d ? "x" : "") << g.shape[d];
    s << " x " << g.time_steps << " steps, " << std::setprecision(3) << g.seconds << " s";
  }
  return s.str();
}

nlohmann::json to_json(const PriceResult& r) {
  nlohmann::json j = {{"product", r.product},
          {"solver", r.solver},
          {"scheme", r.scheme},
          {"mesh", r.mesh},
          {"shape", r.shape},
          {"grid_points", r.grid_points()},
          {"time_steps", r.time_steps},
          {"march_steps", r.march_steps},
          {"device", r.device},
          {"precision", r.precision},
          {"threads", r.threads},
          {"price", r.price},
          {"delta", r.delta},
          {"gamma", r.gamma},
          {"cross_gamma", r.cross_gamma},
          {"seconds", r.seconds},
          {"peak_host_bytes", r.peak_host_bytes},
          {"peak_device_bytes", r.peak_device_bytes},
          {"notes", r.notes}};
  if (r.greeks)
    j["greeks"] = {{"delta", r.delta},
                   {"gamma", r.gamma},
                   {"cross_gamma", r.cross_gamma},
                   {"vega", r.greeks->vega},
                   {"rho", r.greeks->rho},
                   {"theta", r.greeks->theta},
                   {"units", units_text(r.greeks->units)},
                   {"greek_units", to_string(r.greeks->units)},
                   {"bumps",
                    {{"vol", r.greeks->vol_bump},
                     {"vol_method", "central difference, absolute bump, same grid"},
                     {"rate", r.greeks->rate_bump},
                     {"rate_method", "central difference, absolute bump, same grid"},
                     {"theta_dt", r.greeks->theta_dt},
                     {"theta_method", "product aged by one time step, same step size"}}}};
  if (r.error_estimate) j["error_estimate"] = to_json(*r.error_estimate);
  if (r.accuracy) j["accuracy"] = to_json(*r.accuracy);
  return j;
}

nlohmann::json price_json(const CaseOutcome& run, bool reference_wanted) {
  nlohmann::json j = to_json(*run.result);
  if (!reference_wanted) return j;
  j["reference"] = nullptr;
  j["verdict"] = nullptr;
  if (const auto& ref = run.reference) {
    j["reference"] = {{"price", ref->price},
                      {"std_error", ref->std_error},
                      {"source", ref->source},
                      {"provenance", ref->provenance},
                      {"error", run.result->price - ref->price}};
    const AllowanceSource& why = run.allowance_source;
    j["verdict"] = {{"status", to_string(run.status)},
                    {"allowance", run.verdict.allowance},
                    {"error", run.verdict.error},
                    {"k", why.k},
                    {"stderr_part", why.k * ref->std_error},
                    {"discretisation_part", run.tol},
                    {"discretisation_source", !why.tol_source.empty() ? why.tol_source
                                              : why.from_estimate   ? "error-estimate"
                                                                    : "default-rule"},
                    {"c", why.from_estimate || !why.tol_source.empty() ? nlohmann::json() : nlohmann::json(why.c)}};
  }
  return j;
}

std::string to_text(const PriceResult& r) {
  std::ostringstream s;
  const auto list = [&](const std::vector<double>& v) {
    std::ostringstream o;
    o << std::setprecision(6);
    for (std::size_t i = 0; i < v.size(); ++i) o << (i ? "  " : "") << v[i];
    return o.str();
  };
  s << std::left;
  // Labels up to 12 characters, always followed by a space ("extrapolated 99.95").
  const auto row = [&](const char* k, const std::string& v) { s << "  " << std::setw(13) << k << v << '\n'; };
  std::ostringstream price;
  price << std::fixed << std::setprecision(6) << r.price;
  std::ostringstream secs;
  secs << std::setprecision(4) << r.seconds;
  row("product", r.product);
  row("solver", r.solver + (r.scheme.empty() ? "" : " (" + r.scheme + ")"));
  row("mesh", r.mesh);
  row("time steps", std::to_string(r.time_steps));
  row("device", r.device + (r.device == "cpu" ? ", " + std::to_string(r.threads) + " thread(s)" : ""));
  row("precision", r.precision);
  if (r.accuracy && r.accuracy->bound) {
    std::ostringstream bar;
    bar << std::scientific << std::setprecision(2) << " +- " << *r.accuracy->bound;
    if (r.accuracy->target) bar << " (target " << r.accuracy->target_text << " = " << *r.accuracy->target << ")";
    price << bar.str();
  }
  row("price", price.str());
  if (r.accuracy) {
    row("richardson", accuracy_text(*r.accuracy));
    if (r.accuracy->bound) row("error bar", bound_text(*r.accuracy));
    row("cost", cost_text(*r.accuracy));
  }
  row("delta", list(r.delta));
  row("gamma", list(r.gamma));
  if (!r.cross_gamma.empty()) row("cross gamma", list(r.cross_gamma));
  if (r.greeks) {
    std::ostringstream bump;
    bump << std::setprecision(4);
    const bool desk = r.greeks->units == GreekUnits::Desk;
    bump << "  (vol +- " << r.greeks->vol_bump << (desk ? ", per vol point)" : ", per unit vol)");
    row("vega", list(r.greeks->vega) + bump.str());
    std::ostringstream rho;
    rho << std::setprecision(6) << r.greeks->rho << std::setprecision(4) << "  (rate +- " << r.greeks->rate_bump
        << (desk ? ", per basis point)" : ", per unit rate)");
    row("rho", rho.str());
    std::ostringstream theta;
    theta << std::setprecision(6) << r.greeks->theta << std::setprecision(4) << "  (aged one step, dt "
          << r.greeks->theta_dt << (desk ? " y, per calendar day)" : " y, per year)");
    row("theta", theta.str());
  }
  if (r.error_estimate) {
    const ErrorEstimate& e = *r.error_estimate;
    std::ostringstream total, extrapolated;
    total << std::scientific << std::setprecision(3) << e.error << "  (price - extrapolated); bound " << e.bound
          << " with truncation " << e.truncation << (e.truncation_priced ? "" : " (not priced)")
          << (e.erratic ? ", space levels erratic: widened" : "");
    extrapolated << std::fixed << std::setprecision(6) << e.extrapolated;
    row("est. error", total.str());
    row("  space", axis_text(e.space, "n ="));
    row("  time", axis_text(e.time, e.time.refined ? "steps, refined:" : "steps ="));
    row("extrapolated", extrapolated.str());
  }
  row("seconds", secs.str());
  row("peak host", std::to_string(r.peak_host_bytes / 1024) + " KiB");
  if (r.peak_device_bytes) row("peak device", std::to_string(r.peak_device_bytes / 1024) + " KiB");
  for (const auto& n : r.notes) row("note", n);
  return s.str();
}

}  // namespace elsbench
