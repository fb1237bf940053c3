// References on demand: a pilot run measures the product's variance and the device's speed, then
// one run takes the paths the target standard error needs, or as many as the budget allows (the
// entry then says what it reached; a later run with a larger budget replaces it).
#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "harness/references/reference_policy.hpp"
#include "harness/references/reference_provenance.hpp"
#include "harness/references/reference_store.hpp"
#include "platform/cuda_devices.hpp"
#include "platform/device.hpp"
#include "products/product_terms.hpp"
#include "reference/monte_carlo_on.hpp"

namespace elsbench {
namespace {

constexpr std::int64_t kPilotPaths = 20'000;

Device mc_device(const ReferencePolicy& policy) {
  Device d = parse_device(policy.device);
  if (d.is_auto) {
    d = Device{};
    if (!cuda_devices().empty()) d.kind = Device::Kind::Cuda;
  }
  if (d.is_cpu() && d.threads == 0) d.threads = policy.threads;
  return d;
}

McResult run_paths(const Product& product, const ReferencePolicy& policy, const Device& device, std::int64_t paths) {
  McOptions o;
  o.paths = paths;
  o.seed = policy.seed;
  o.threads = policy.threads;
  return monte_carlo_on(product, o, device);
}

// The paths that reach the target (stderr falls as 1/sqrt(paths)), capped by what the budget buys.
std::int64_t paths_needed(const McResult& pilot, double target, double budget_seconds) {
  const double ratio = pilot.std_error / target;
  const double wanted = static_cast<double>(pilot.paths) * ratio * ratio * 1.05;
  const double rate = static_cast<double>(pilot.paths) / std::max(pilot.seconds, 1e-6);
  const double affordable = rate * std::max(budget_seconds - pilot.seconds, 0.0);
  const double paths = std::max(std::min(wanted, affordable), static_cast<double>(pilot.paths));
  return static_cast<std::int64_t>(std::ceil(paths / 2) * 2);
}

std::string regenerating_command(const Product& product, const McResult& r, const Device& d) {
  std::ostringstream s;
  s << "elsbench reference --product FILE --paths " << r.paths << " --seed " << r.seed << " --device " << d.str()
    << "   (FILE: this entry's \"terms\" with \"id\": \"" << product.id << "\")";
  return s.str();
}

StoreEntry computed_entry(const Product& product, const ReferencePolicy& policy) {
  const Device device = mc_device(policy);
  const McResult pilot = run_paths(product, policy, device, kPilotPaths);
  const double target = target_std_error(product, policy, pilot.price);
  const std::int64_t paths = paths_needed(pilot, target, policy.budget_seconds);
  const McResult r = paths <= pilot.paths ? pilot : run_paths(product, policy, device, paths);
  StoreEntry e;
  e.terms = canonical_terms(product);
  e.key = content_hash(e.terms);
  e.target_std_error = target;
  e.budget_seconds = policy.budget_seconds;
  e.value = with_provenance(product, r, regenerating_command(product, r, device));
  e.value.seconds = r.seconds + pilot.seconds;
  return e;
}

ReferenceValue value_of(const StoreEntry& e, const std::string& path) {
  std::ostringstream s;
  s << path << ": " << e.value.paths << " paths, seed " << e.value.seed << ", " << e.value.generator << " v"
    << e.value.generator_version << ", " << e.value.device << ", commit " << e.value.git_commit << ", "
    << e.value.date;
  return {e.value.price, e.value.std_error, "monte-carlo-on-demand", s.str()};
}

void note(const ReferencePolicy& policy, const std::string& line) {
  if (policy.log) *policy.log << "elsbench reference: " << line << '\n';
}

}  // namespace

nlohmann::json to_json(const ReferencePolicy& p) {
  return {{"mode", p.mode_name()},     {"store", p.store},   {"target_fraction", p.target_fraction},
          {"budget_seconds", p.budget_seconds}, {"device", p.device}, {"seed", p.seed}};
}

void read_recorded_policy(const nlohmann::json& j, ReferencePolicy& p, const std::string& source) {
  if (!j.is_object()) return;
  try {
    p.mode = parse_reference_mode(j.value("mode", "stored"));
    if (p.store.empty()) p.store = j.value("store", "");
    p.target_fraction = j.value("target_fraction", p.target_fraction);
    p.budget_seconds = j.value("budget_seconds", p.budget_seconds);
    p.device = j.value("device", p.device);
    p.seed = j.value("seed", p.seed);
  } catch (const std::exception& e) {
    throw std::runtime_error(source + ": context.elsbench.references: " + e.what());
  }
}

ReferencePolicy::Mode parse_reference_mode(const std::string& s) {
  if (s == "stored") return ReferencePolicy::Mode::Stored;
  if (s == "auto") return ReferencePolicy::Mode::Auto;
  throw std::invalid_argument("expected stored or auto, got '" + s + "'");
}

double target_std_error(const Product& product, const ReferencePolicy& policy, double price_estimate) {
  const double scale = product.is_els() ? product.notional : std::max(std::abs(price_estimate), 0.01 * product.notional);
  return policy.target_fraction * scale;
}

ReferenceLookup look_up_reference(const Product& product, const ReferencePolicy& policy) {
  ReferenceLookup out;
  if ((out.value = reference_for(product))) {
    out.from = ReferenceLookup::From::ClosedFormOrCatalog;
    return out;
  }
  if (policy.mode != ReferencePolicy::Mode::Auto) return out;
  const ReferenceStore store(policy.store.empty() ? default_reference_store() : policy.store);
  const std::string path = store.entry_path(content_hash(product));
  out.entry = path;
  const StoreLoad loaded = store.load(product);
  out.refused = loaded.refused;
  if (!loaded.refused.empty()) note(policy, "refused " + path + ": " + loaded.refused + "; computing it again");
  // An entry that fell short of this policy's target (a smaller budget then) is recomputed.
  if (loaded.entry &&
      loaded.entry->value.std_error <= target_std_error(product, policy, loaded.entry->value.price) * (1 + 1e-9)) {
    out.value = value_of(*loaded.entry, path);
    out.from = ReferenceLookup::From::Store;
    note(policy, product.id + ": " + path + " (stored " + loaded.entry->value.date + ")");
    return out;
  }
  note(policy, product.id + ": no stored reference for these terms; computing one (Monte Carlo, budget " +
                   std::to_string(static_cast<long>(policy.budget_seconds)) + " s)");
  const StoreEntry e = computed_entry(product, policy);
  if (e.value.std_error > e.target_std_error)
    note(policy, product.id + ": the budget bought a standard error of " + std::to_string(e.value.std_error) +
                     ", above the target " + std::to_string(e.target_std_error));
  if (!loaded.entry || e.value.std_error < loaded.entry->value.std_error) store.save(e);
  const StoreEntry& kept = (!loaded.entry || e.value.std_error < loaded.entry->value.std_error) ? e : *loaded.entry;
  out.value = value_of(kept, path);
  out.from = ReferenceLookup::From::Computed;
  note(policy, product.id + ": " + std::to_string(kept.value.price) + " +- " + std::to_string(kept.value.std_error) +
                   " (" + std::to_string(kept.value.paths) + " paths), stored in " + path);
  return out;
}

std::optional<ReferenceValue> reference_for(const Product& product, const ReferencePolicy& policy) {
  return look_up_reference(product, policy).value;
}

}  // namespace elsbench
