#pragma once
// Where a command's references come from: `stored` (closed forms and reference/values/, as
// always) or `auto` (the same, and for a product that has neither, a Monte Carlo reference from
// the reference store, computed and stored there when missing, stale or damaged).
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>

#include "products/product.hpp"
#include "reference/reference_value.hpp"

namespace elsbench {

struct ReferencePolicy {
  enum class Mode { Stored, Auto };
  Mode mode = Mode::Stored;
  std::string store;              // the store's folder; empty: default_reference_store()
  // Target standard error: this fraction of the notional for a note, of max(|price|, 1 % of the
  // notional) for an option. 5e-5 is the 0.005 % of notional (0.005 on 100).
  double target_fraction = 5e-5;
  double budget_seconds = 600;    // wall time allowed for one product's paths
  std::string device = "auto";    // auto: cuda:0 where this build has CUDA and a device is present, else cpu
  int threads = 0;                // CPU threads; 0: every core
  std::uint64_t seed = 1;
  std::ostream* log = nullptr;    // what was computed, reused or refused; nullptr: silent

  std::string mode_name() const { return mode == Mode::Auto ? "auto" : "stored"; }
};

// "stored" | "auto"; throws std::invalid_argument naming both.
ReferencePolicy::Mode parse_reference_mode(const std::string& s);

// The policy as a results file records it (context.elsbench.references: mode, store,
// target_fraction, budget_seconds, device, seed), written by sweeps and books alike.
nlohmann::json to_json(const ReferencePolicy& policy);
// The recorded policy `j` laid over `policy` (a resume's; a store given now is kept); throws
// std::runtime_error naming `source` and the field for one that cannot be read.
void read_recorded_policy(const nlohmann::json& j, ReferencePolicy& policy, const std::string& source);

// What a look-up did, for tests and for the log.
struct ReferenceLookup {
  std::optional<ReferenceValue> value;
  enum class From { None, ClosedFormOrCatalog, Store, Computed } from = From::None;
  std::string refused;  // why a store entry was not trusted (then recomputed)
  std::string entry;    // the store entry used or written
};

ReferenceLookup look_up_reference(const Product& product, const ReferencePolicy& policy);
// The reference of `product` under `policy`: for the case runner, sweeps, validate, price, books.
std::optional<ReferenceValue> reference_for(const Product& product, const ReferencePolicy& policy);

// The standard error asked of a computed reference for this product, given a first estimate of its price.
double target_std_error(const Product& product, const ReferencePolicy& policy, double price_estimate);

}  // namespace elsbench
