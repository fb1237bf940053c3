#include "harness/run/validation.hpp"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <sstream>

#include "solvers/contract/solver.hpp"
#include "products/catalog.hpp"
#include "platform/input_error.hpp"

namespace elsbench {
namespace {

ValidationCase case_from_json(const nlohmann::json& j, const std::string& source, const std::string& field) {
  if (!j.is_object()) throw InputError(source, field, "expected an object");
  ValidationCase c;
  const auto text = [&](const char* key, std::string& out, bool required) {
    if (!j.contains(key)) {
      if (required) throw InputError(source, field + "." + key, "missing");
      return;
    }
    if (!j[key].is_string()) throw InputError(source, field + "." + key, "expected a string");
    out = j[key].get<std::string>();
  };
  text("product", c.product, true);
  text("solver", c.solver, true);
  text("scheme", c.scheme, false);
  text("device", c.device, false);
  text("precision", c.precision, false);
  if (!j.contains("n") || !j["n"].is_number_integer() || j["n"].get<int>() < 4)
    throw InputError(source, field + ".n", "expected a whole number >= 4");
  c.n = j["n"].get<int>();
  if (j.contains("nt")) {
    if (!j["nt"].is_number_integer() || j["nt"].get<int>() < 1)
      throw InputError(source, field + ".nt", "expected a positive whole number");
    c.nt = j["nt"].get<int>();
  }
  return c;
}

std::string grid_text(const ValidationCase& c, const std::optional<PriceResult>& r) {
  std::ostringstream s;
  s << "n=" << c.n << " nt=" << (r ? std::to_string(r->time_steps) : c.nt ? std::to_string(*c.nt) : "auto");
  return s.str();
}

}  // namespace

ValidationPlan load_validation_plan(const std::string& name_or_path) {
  std::string path = name_or_path;
  if (!std::filesystem::exists(path)) path = project_root() + "/harness/presets/validation/" + name_or_path + ".json";
  std::ifstream in(path);
  if (!in) throw InputError(name_or_path, "--preset", "no such validation preset or file");
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(in);
  } catch (const nlohmann::json::parse_error& e) {
    throw InputError(path, "<file>", std::string("not valid JSON: ") + e.what());
  }
  ValidationPlan plan;
  plan.source = path;
  if (j.contains("k")) {
    if (!j["k"].is_number() || !(j["k"].get<double>() > 0)) throw InputError(path, "k", "expected a number > 0");
    plan.k = j["k"].get<double>();
  }
  if (j.contains("tolerance")) plan.tolerance = tolerance_rule_from_json(j["tolerance"], path);
  if (!j.contains("cases") || !j["cases"].is_array() || j["cases"].empty())
    throw InputError(path, "cases", "expected a non-empty array of cases");
  for (std::size_t i = 0; i < j["cases"].size(); ++i)
    plan.cases.push_back(case_from_json(j["cases"][i], path, "cases[" + std::to_string(i) + "]"));
  return plan;
}

ValidationOutcome validate_case(const ValidationPlan& plan, const ValidationCase& c, int threads) {
  ValidationOutcome out;
  out.spec = c;
  try {
    const Product product = resolve_product(c.product);
    SolverOptions opt;
    opt.scheme = c.scheme;
    opt.grid.n = c.n;
    opt.grid.nt = c.nt;
    opt.device = parse_device(c.device);
    opt.precision = parse_precision(c.precision);
    opt.threads = threads;
    out.result = price_with(SolverRegistry::instance().get(c.solver), product, opt);
    out.reference = reference_for(product);
    if (!out.reference) {
      out.status = "NO-REF";
      out.message = "no closed form and no stored reference for " + product.id;
      return out;
    }
    out.tol = plan.tolerance.tol(product.id, c.solver, c.precision, c.n, out.reference->price, product.notional);
    out.verdict = judge(out.result->price, *out.reference, out.tol, plan.k);
    out.status = out.verdict.pass ? "PASS" : "FAIL";
  } catch (const std::exception& e) {
    out.status = "ERROR";
    out.message = e.what();
  }
  return out;
}

std::string validation_table(const std::vector<ValidationOutcome>& outcomes) {
  std::ostringstream s;
  s << std::left << std::setw(20) << "product" << std::setw(32) << "solver" << std::setw(18) << "grid"
    << std::right << std::setw(13) << "price" << std::setw(13) << "reference" << std::setw(11) << "error"
    << std::setw(11) << "allowance" << "  verdict\n";
  for (const auto& o : outcomes) {
    const std::string solver = o.spec.solver + (o.result && !o.result->scheme.empty() ? ":" + o.result->scheme : "") +
                               (o.spec.precision == "fp64" ? "" : "/" + o.spec.precision);
    s << std::left << std::setw(20) << o.spec.product << std::setw(32) << solver << std::setw(18)
      << grid_text(o.spec, o.result) << std::right << std::fixed << std::setprecision(6);
    if (o.result) s << std::setw(13) << o.result->price; else s << std::setw(13) << "-";
    if (o.reference) s << std::setw(13) << o.reference->price; else s << std::setw(13) << "-";
    if (o.status == "PASS" || o.status == "FAIL") {
      s << std::scientific << std::setprecision(2) << std::setw(11) << o.verdict.error << std::setw(11)
        << o.verdict.allowance;
    } else {
      s << std::setw(11) << "-" << std::setw(11) << "-";
    }
    s << "  " << o.status << (o.message.empty() ? "" : " (" + o.message + ")") << '\n';
    s.unsetf(std::ios::floatfield);
  }
  return s.str();
}

}  // namespace elsbench
