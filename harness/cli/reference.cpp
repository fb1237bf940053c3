// elsbench reference --product FILE|ID --paths N [--seed S] [--threads T] [--device cpu|cuda:N]
//                    [--plain] [--write]
#include <iomanip>
#include <iostream>
#include <sstream>

#include "harness/cli/command.hpp"
#include "harness/cli/flag_limits.hpp"
#include "harness/machine/machine.hpp"
#include "platform/device.hpp"
#include "platform/input_error.hpp"
#include "products/catalog.hpp"
#include "products/product_json.hpp"
#include "reference/monte_carlo.hpp"
#include "reference/stored_reference.hpp"
#ifdef ELSBENCH_HAVE_CUDA
#include "reference/cuda/monte_carlo_cuda.hpp"
#endif

namespace elsbench {
namespace {

struct ReferenceArgs {
  std::string product, device = "cpu";
  long long paths = 0;
  unsigned long long seed = 1;
  int threads = 0;
  bool plain = false, write = false;
};

McResult run(const Product& product, const ReferenceArgs& args) {
  McOptions o;
  o.paths = args.paths;
  o.seed = args.seed;
  o.threads = args.threads;
  o.antithetic = !args.plain;
  Device device;
  try {
    device = parse_device(args.device);
  } catch (const std::invalid_argument& e) {
    throw InputError("(command line)", "--device", e.what());
  }
  if (device.is_auto) throw InputError("(command line)", "--device", "expected cpu or cuda:N, not auto");
  if (device.is_cpu()) {
    if (device.threads > 0) o.threads = device.threads;
    return monte_carlo_price(product, o);
  }
#ifdef ELSBENCH_HAVE_CUDA
  return monte_carlo_price_cuda(product, o, device.index);
#else
  throw InputError("(command line)", "--device", "this build has no CUDA; use --device cpu");
#endif
}

// The command that regenerates the same value: every flag that changes the result, spelled out.
std::string regenerating_command(const ReferenceArgs& args) {
  std::ostringstream s;
  s << "elsbench reference --product " << args.product << " --paths " << args.paths << " --seed "
    << args.seed << " --device " << args.device << (args.plain ? " --plain" : "") << " --write";
  return s.str();
}

void print(const Product& product, const McResult& r) {
  std::cout << std::setprecision(10) << "product      " << product.id << '\n'
            << "price        " << r.price << '\n'
            << "std error    " << std::setprecision(4) << r.std_error;
  if (product.is_els()) std::cout << " (" << 100.0 * r.std_error / product.notional << " % of notional)";
  std::cout << '\n'
            << "paths        " << r.paths << " (seed " << r.seed << ", " << r.generator << " v"
            << r.generator_version << ")\n"
            << "device       " << r.device << (r.device == "cpu" ? ", " + std::to_string(r.threads) + " threads" : "")
            << '\n'
            << std::setprecision(3) << "seconds      " << r.seconds << '\n'
            << "paths/s      " << std::fixed << std::setprecision(0) << static_cast<double>(r.paths) / r.seconds
            << std::defaultfloat << '\n';
}

void write(const Product& product, const ReferenceArgs& args, const McResult& r) {
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
  s.command = regenerating_command(args);
  const std::string path = stored_reference_path(product.id);
  write_stored_reference(s, path);
  std::cout << "wrote        " << path << '\n';
}

void setup(CLI::App& app) {
  auto args = std::make_shared<ReferenceArgs>();
  auto* cmd = app.add_subcommand("reference", "Monte Carlo reference price of one product (--write stores it)");
  cmd->add_option("--product", args->product, "catalog id or JSON file")->required();
  cmd->add_option("--paths", args->paths, "number of paths (rounded up to even: antithetic pairs)")
      ->required()
      ->check(CLI::Range(2LL, 1LL << 40));
  // Bounded alike in every subcommand: a negative seed would wrap to 2^64 - 1, thousands of
  // threads fail or crash in thread creation.
  cmd->add_option("--seed", args->seed, "Philox key; the same seed gives the same price for any thread count")
      ->capture_default_str()
      ->check(CLI::Range(0ULL, kMaxSeed));
  cmd->add_option("--threads", args->threads, "CPU threads (0: all)")->capture_default_str()->check(CLI::Range(0, kMaxThreads));
  cmd->add_option("--device", args->device, "cpu or cuda:N")->capture_default_str();
  cmd->add_flag("--plain", args->plain, "no antithetic pairs (to measure what they gain)");
  cmd->add_flag("--write", args->write, "store reference/values/<id>.json with its provenance");
  cmd->callback([args] {
    const Product product = resolve_product(args->product);
    const McResult r = run(product, *args);
    print(product, r);
    if (args->write) write(product, *args, r);
  });
}

}  // namespace

ELSBENCH_REGISTER_COMMAND(40, setup);

}  // namespace elsbench
