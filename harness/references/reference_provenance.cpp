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

}  // namespace elsbench
