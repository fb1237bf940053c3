#include "harness/sweep/plan.hpp"

#include <algorithm>
#include <filesystem>
#include <set>
#include <stdexcept>

#include "platform/cuda_devices.hpp"
#include "products/catalog.hpp"
#include "solvers/contract/solver.hpp"

namespace elsbench {
namespace {

bool has_scheme(const SolverInfo& s, const std::string& scheme) {
  return std::find(s.schemes.begin(), s.schemes.end(), scheme) != s.schemes.end();
}

bool same_file(const std::string& a, const std::string& b) {
  namespace fs = std::filesystem;
  return fs::weakly_canonical(a) == fs::weakly_canonical(b);
}

// An unknown name is an error; in a build without CUDA the GPU variants are unknown too, so say so.
const SolverInfo& registered(const std::string& name) {
  try {
    return SolverRegistry::instance().get(name);
  } catch (const std::invalid_argument& e) {
    if (cuda_built()) throw;
    throw std::invalid_argument(std::string(e.what()) +
                                "; this build has no CUDA, so the GPU variants are not registered "
                                "(configure with -DELSBENCH_WITH_CUDA=ON where nvcc is found)");
  }
}

struct SolverScheme {
  std::string solver, scheme, skip_reason;
};

// The (solver, scheme) pairs of a group: "name:scheme" entries as written, plain names crossed
// with the schemes axis.
std::vector<SolverScheme> solver_schemes(const SweepAxes& g) {
  std::vector<SolverScheme> out;
  std::set<std::string> schemes_known;
  for (const auto& entry : g.solvers) {
    const auto colon = entry.find(':');
    const SolverInfo& info = registered(entry.substr(0, colon));
    schemes_known.insert(info.schemes.begin(), info.schemes.end());
    std::vector<std::string> wanted;
    if (colon != std::string::npos) {
      wanted = {entry.substr(colon + 1)};
    } else if (g.schemes.empty() || info.schemes.empty()) {
      wanted = {info.default_scheme()};
    } else {
      for (const auto& s : g.schemes)
        if (s == "all") {
          wanted.insert(wanted.end(), info.schemes.begin(), info.schemes.end());
        } else {
          wanted.push_back(s);
        }
    }
    for (const auto& scheme : wanted)
      out.push_back({info.name, scheme,
                     scheme.empty() || has_scheme(info, scheme)
                         ? ""
                         : "unsupported: solver '" + info.name + "' has no scheme '" + scheme + "'"});
  }
  for (const auto& s : g.schemes)
    if (s != "all" && !schemes_known.count(s))
      throw std::invalid_argument("scheme '" + s + "' is not a scheme of any solver in the sweep");
  return out;
}

}  // namespace

SweepPlan plan_sweep(const SweepSpec& spec) {
  SweepPlan plan;
  std::set<std::string> seen;
  for (const auto& g : spec.groups) {
    std::vector<std::string> product_ids;
    for (const auto& p : g.products) {
      Product product = resolve_product(p);
      const auto it = plan.products.find(product.id);
      if (it != plan.products.end() && !same_file(it->second.source, product.source))
        throw std::invalid_argument("two products with id '" + product.id + "': " + it->second.source + " and " +
                                    product.source);
      product_ids.push_back(product.id);
      plan.products.emplace(product.id, std::move(product));
    }
    const auto pairs = solver_schemes(g);
    for (const auto& product : product_ids)
      for (const auto& ss : pairs)
        for (int n : g.n)
          for (const auto& nt : g.nt_rules)
            for (const auto& device : g.devices)
              for (const auto& precision : g.precisions)
                for (int book : g.book) {
                  SweepCase c;
                  c.product = product;
                  c.solver = ss.solver;
                  c.scheme = ss.scheme;
                  c.skip_reason = ss.skip_reason;
                  c.n = n;
                  c.nt = parse_nt_rule(nt);
                  c.device = parse_sweep_device(device);
                  c.precision = parse_precision(precision);
                  c.book = book;
                  if (seen.insert(c.id()).second) plan.cases.push_back(c);
                }
  }
  return plan;
}

}  // namespace elsbench
