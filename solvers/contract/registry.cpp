#include "solvers/contract/registry.hpp"

#include <algorithm>
#include <stdexcept>

namespace elsbench {

bool SolverInfo::supports(Precision p) const {
  return std::find(precisions.begin(), precisions.end(), p) != precisions.end();
}

bool SolverInfo::supports(Device::Kind k) const {
  return std::find(devices.begin(), devices.end(), k) != devices.end();
}

bool SolverInfo::has_scheme(const std::string& scheme) const {
  return std::find(schemes.begin(), schemes.end(), scheme) != schemes.end();
}

std::optional<MemoryModel> SolverInfo::memory_for(const std::string& scheme, Precision p) const {
  std::optional<MemoryModel> m = memory;
  for (const SchemeArrays& s : scheme_memory)
    if (m && s.scheme == scheme &&
        (s.precisions.empty() || std::find(s.precisions.begin(), s.precisions.end(), p) != s.precisions.end())) {
      m->per_layer = s.per_layer;
      m->per_layer_per_dim = s.per_layer_per_dim;
    }
  return m;
}

SolverRegistry& SolverRegistry::instance() {
  static SolverRegistry r;
  return r;
}

void SolverRegistry::add(SolverInfo info) {
  if (find(info.name)) throw std::logic_error("solver '" + info.name + "' registered twice");
  if (!info.march) throw std::logic_error("solver '" + info.name + "' registered without a march");
  solvers_.push_back(std::move(info));
  std::sort(solvers_.begin(), solvers_.end(),
            [](const SolverInfo& a, const SolverInfo& b) { return a.name < b.name; });
}

const SolverInfo* SolverRegistry::find(const std::string& name) const {
  for (const auto& s : solvers_)
    if (s.name == name) return &s;
  return nullptr;
}

const SolverInfo& SolverRegistry::get(const std::string& name) const {
  if (const SolverInfo* s = find(name)) return *s;
  std::string known;
  for (const auto& s : solvers_)
    if (!s.test_only) known += (known.empty() ? "" : ", ") + s.name;
  throw std::invalid_argument("unknown solver '" + name + "' (known: " + known + ")");
}

}  // namespace elsbench
