#pragma once
// The product catalog: products/catalog/<id>.json, found by id or by path.
#include <string>
#include <vector>

#include "products/product.hpp"

namespace elsbench {

// Root of the source tree: $ELSBENCH_ROOT if set, else the directory configured at build time.
std::string project_root();
std::string catalog_dir();
// `spec` is a path to a JSON file, or the id of a catalog product.
Product resolve_product(const std::string& spec);
std::vector<Product> load_catalog();

}  // namespace elsbench
