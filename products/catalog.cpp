#include "products/catalog.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <system_error>
#include <vector>

#include "platform/input_error.hpp"
#include "platform/nearest_word.hpp"
#include "products/product_json.hpp"

namespace elsbench {
namespace fs = std::filesystem;

std::string project_root() {
  if (const char* env = std::getenv("ELSBENCH_ROOT"); env && *env) return env;
  return ELSBENCH_SOURCE_DIR;
}

std::string catalog_dir() { return project_root() + "/products/catalog"; }

Product resolve_product(const std::string& spec) {
  std::error_code ec;
  const fs::file_status given = fs::status(spec, ec);
  if (fs::is_regular_file(given)) return load_product_file(spec);
  // A fifo, a device or a folder is not read (a fifo would wait for a writer): said as such.
  if (fs::exists(given)) throw InputError(spec, "--product", "not a regular file; a product is a JSON file or a catalog id");
  const fs::path by_id = fs::path(catalog_dir()) / (spec + ".json");
  if (fs::exists(by_id, ec)) return load_product_file(by_id.string());  // ec: a name too long is no id
  std::vector<std::string> ids;
  for (const auto& entry : fs::directory_iterator(catalog_dir(), ec))
    if (entry.path().extension() == ".json") ids.push_back(entry.path().stem().string());
  const std::string near = nearest_word(spec, {ids.begin(), ids.end()});
  throw InputError(spec, "--product",
                   "no such file, and no product with this id in " + catalog_dir() +
                       (near.empty() ? std::string() : "; did you mean '" + near + "'?"));
}

std::vector<Product> load_catalog() {
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(catalog_dir()))
    if (e.path().extension() == ".json") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  std::vector<Product> products;
  for (const auto& f : files) products.push_back(load_product_file(f.string()));
  return products;
}

}  // namespace elsbench
