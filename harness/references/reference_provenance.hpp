#pragma once
// A Monte Carlo result as a stored reference: the value with what it takes to trust and to
// regenerate it (terms, paths, seed, generator, device, machine, commit, date, command). One
// writer for `elsbench reference --write` and for references computed on demand.
#include <nlohmann/json.hpp>
#include <string>

#include "products/product.hpp"
#include "reference/monte_carlo.hpp"
#include "reference/stored_reference.hpp"

namespace elsbench {

StoredReference with_provenance(const Product& product, const McResult& r, const std::string& command);

// What `reference --json` prints of a result (and the Python package's reference() returns).
nlohmann::json mc_result_json(const Product& product, const McResult& r);

}  // namespace elsbench
