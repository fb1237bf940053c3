#include "harness/references/reference_provenance.hpp"

#include "harness/machine/machine.hpp"
#include "platform/file_io.hpp"
#include "products/product_json.hpp"

namespace elsbench {

StoredReference with_provenance(const Product& product, const McResult& r, const std::string& command) {
  const MachineInfo machine = describe_machine();
  StoredReference s;
  s.product_id = product.id;
  s.product = product_to_json(product);
  s.price = r.price;
  s.std_error = r.std_error;
  s.paths = r.paths;
  s.seed = r.seed;
  s.generator = r.generator;
  s.generator_version = r.generator_version;
  s.device = r.device;
  s.threads = r.threads;
  s.seconds = r.seconds;
  s.git_commit = machine.git_commit;
  s.date = utc_timestamp();
  s.machine = to_json(machine);
  s.command = command;
  return s;
}

nlohmann::json mc_result_json(const Product& product, const McResult& r) {
  return {{"product", product.id},
          {"price", r.price},
          {"std_error", r.std_error},
          {"std_error_percent_of_notional",
           product.is_els() ? nlohmann::json(100.0 * r.std_error / product.notional) : nlohmann::json()},
          {"paths", r.paths},
          {"seed", r.seed},
          {"generator", r.generator},
          {"generator_version", r.generator_version},
          {"device", r.device},
          {"threads", r.threads},
          {"seconds", r.seconds},
          {"paths_per_second", static_cast<double>(r.paths) / r.seconds}};
}

}  // namespace elsbench
