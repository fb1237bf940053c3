#include "reference/stored_reference.hpp"

#include <filesystem>
#include <stdexcept>

#include "platform/file_io.hpp"
#include "platform/input_error.hpp"
#include "platform/input_file.hpp"
#include "platform/json_text.hpp"
#include "products/catalog.hpp"
#include "products/product_json.hpp"

namespace elsbench {
namespace {

template <class T>
T field(const nlohmann::json& j, const char* name, const std::string& source) {
  if (!j.contains(name)) throw InputError(source, name, "missing");
  try {
    return j.at(name).get<T>();
  } catch (const nlohmann::json::exception&) {
    throw InputError(source, name, "has the wrong type");
  }
}

}  // namespace

std::string stored_reference_path(const std::string& product_id) {
  // The id is checked again here, where the path is made: no stored file leaves reference/values.
  if (!is_safe_product_id(product_id))
    throw InputError("(product)", "id", "'" + product_id + "' is not a safe file name ([A-Za-z0-9._-], 64 at most)");
  return project_root() + "/reference/values/" + product_id + ".json";
}

nlohmann::json to_json(const StoredReference& r) {
  return {{"product_id", r.product_id},
          {"price", r.price},
          {"std_error", r.std_error},
          {"paths", r.paths},
          {"seed", r.seed},
          {"generator", r.generator},
          {"generator_version", r.generator_version},
          {"device", r.device},
          {"threads", r.threads},
          {"seconds", r.seconds},
          {"git_commit", r.git_commit},
          {"date", r.date},
          {"command", r.command},
          {"machine", r.machine},
          {"product", r.product}};
}

StoredReference stored_reference_from_json(const nlohmann::json& j, const std::string& source) {
  if (!j.is_object()) throw InputError(source, "(top level)", "expected a JSON object");
  StoredReference r;
  r.product_id = field<std::string>(j, "product_id", source);
  r.product = field<nlohmann::json>(j, "product", source);
  r.price = field<double>(j, "price", source);
  r.std_error = field<double>(j, "std_error", source);
  if (!(r.std_error >= 0)) throw InputError(source, "std_error", "must be >= 0");
  r.paths = field<long long>(j, "paths", source);
  if (r.paths < 2) throw InputError(source, "paths", "must be >= 2");
  r.seed = field<unsigned long long>(j, "seed", source);
  r.generator = field<std::string>(j, "generator", source);
  r.generator_version = field<int>(j, "generator_version", source);
  r.device = field<std::string>(j, "device", source);
  r.threads = field<int>(j, "threads", source);
  r.seconds = field<double>(j, "seconds", source);
  r.git_commit = field<std::string>(j, "git_commit", source);
  r.date = field<std::string>(j, "date", source);
  r.command = field<std::string>(j, "command", source);
  r.machine = field<nlohmann::json>(j, "machine", source);
  return r;
}

std::optional<StoredReference> load_stored_reference(const std::string& product_id) {
  const std::string path = stored_reference_path(product_id);
  std::error_code ec;
  if (!std::filesystem::exists(std::filesystem::symlink_status(path, ec))) return std::nullopt;
  return stored_reference_from_json(
      parse_json(read_input(path, {kMaxStoredReferenceBytes, "a stored reference may hold"}), path, "(file)"), path);
}

bool prices_product(const StoredReference& r, const Product& p) {
  return r.product_id == p.id && r.product == product_to_json(p);
}

void write_stored_reference(const StoredReference& r, const std::string& path) {
  write_file_atomically(path, to_json(r).dump(2) + "\n");
}

}  // namespace elsbench
