// elsbench reference --product FILE|ID --paths N [--seed S] [--threads T] [--device cpu|cuda:N]
//                    [--plain] [--write] [--json]
// elsbench reference --list|--clear [--reference-store DIR] [--json]
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "harness/cli/command.hpp"
#include "harness/cli/flag_limits.hpp"
#include "harness/machine/machine.hpp"
#include "harness/references/reference_provenance.hpp"
#include "harness/references/reference_store.hpp"
#include "platform/device.hpp"
#include "platform/input_error.hpp"
#include "products/catalog.hpp"
#include "reference/monte_carlo_on.hpp"
#include "reference/stored_reference.hpp"

namespace elsbench {
namespace {

struct ReferenceArgs {
  std::string product, device = "cpu";
  long long paths = 0;
  unsigned long long seed = 1;
  int threads = 0;
  bool plain = false, write = false, replace = false, json = false;
  bool list = false, clear = false;
  std::string store;
};

ReferenceStore store_of(const ReferenceArgs& args) {
  return ReferenceStore(args.store.empty() ? default_reference_store() : args.store);
}

// --list: every entry of the reference store, checked; a damaged one is shown with its reason.
void list_store(const ReferenceArgs& args) {
  const ReferenceStore store = store_of(args);
  const auto entries = store.list();
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& l : entries) {
    nlohmann::json row = {{"path", l.path}, {"status", l.entry ? "ok" : "refused"}};
    if (l.entry) {
      const StoredReference& v = l.entry->value;
      row.update({{"key", l.entry->key}, {"product", v.product_id}, {"price", v.price}, {"std_error", v.std_error},
                  {"target_std_error", l.entry->target_std_error}, {"paths", v.paths}, {"seed", v.seed},
                  {"device", v.device}, {"seconds", v.seconds}, {"git_commit", v.git_commit}, {"date", v.date}});
    } else {
      row["refused"] = l.refused;
    }
    rows.push_back(row);
  }
  if (args.json) {
    std::cout << nlohmann::json{{"store", store.dir()}, {"entries", rows}}.dump(2) << '\n';
    return;
  }
  std::cout << "reference store " << store.dir() << ": " << entries.size() << " entries\n";
  for (const auto& r : rows) {
    if (r["status"] == "ok") {
      std::cout << "  " << r["key"].get<std::string>().substr(0, 12) << "  " << std::left << std::setw(24)
                << r["product"].get<std::string>() << std::right << std::setprecision(10) << r["price"].get<double>()
                << " +- " << std::setprecision(3) << r["std_error"].get<double>() << "  " << r["paths"].get<long long>()
                << " paths, " << r["device"].get<std::string>() << ", " << r["date"].get<std::string>() << '\n';
    } else {
      std::cout << "  refused " << r["path"].get<std::string>() << ": " << r["refused"].get<std::string>() << '\n';
    }
  }
}

McResult run(const Product& product, const ReferenceArgs& args) {
  McOptions o;
  o.paths = args.paths;
  o.seed = args.seed;
  o.threads = args.threads;
  o.antithetic = !args.plain;
  try {
    return monte_carlo_on(product, o, parse_device(args.device));
  } catch (const std::invalid_argument& e) {
    throw InputError("(command line)", "--device", e.what());
  }
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

// A stored reference is replaced only when asked: one of other terms under the same id (a file
// reusing a catalog id) before the run, one with a smaller standard error after it.
void refuse_other_terms(const Product& product, const ReferenceArgs& args) {
  if (args.replace) return;
  const auto stored = load_stored_reference(product.id);
  if (stored && !prices_product(*stored, product))
    throw InputError(stored_reference_path(product.id), "product",
                     "holds the reference of other terms under the id '" + product.id +
                         "': give the note an id of its own, or --replace to replace it");
}

void refuse_a_worse_value(const Product& product, const ReferenceArgs& args, const McResult& r) {
  if (args.replace) return;
  const auto stored = load_stored_reference(product.id);
  if (stored && stored->std_error < r.std_error) {
    std::ostringstream s;
    s << "holds a better reference (std error " << stored->std_error << " from " << stored->paths
      << " paths, against " << r.std_error << " from " << r.paths << "): not replaced; --replace to replace it";
    throw InputError(stored_reference_path(product.id), "std_error", s.str());
  }
}

// Stores the value with its provenance; returns the file written.
std::string write(const Product& product, const ReferenceArgs& args, const McResult& r) {
  refuse_a_worse_value(product, args, r);
  const StoredReference s = with_provenance(product, r, regenerating_command(args));
  const std::string path = stored_reference_path(product.id);
  write_stored_reference(s, path);
  return path;
}

void setup(CLI::App& app) {
  auto args = std::make_shared<ReferenceArgs>();
  auto* cmd = app.add_subcommand("reference", "Monte Carlo reference price of one product (--write stores it)");
  cmd->add_option("--product", args->product, "catalog id or JSON file");
  cmd->add_option("--paths", args->paths, "number of paths (rounded up to even: antithetic pairs)")
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
  cmd->add_flag("--replace", args->replace, "with --write: replace a stored reference of other terms or a smaller error");
  cmd->add_flag("--json", args->json, "print the result as JSON (the text output's fields)");
  auto* list = cmd->add_flag("--list", args->list, "list the reference store (references computed by --reference auto)");
  auto* clear = cmd->add_flag("--clear", args->clear, "empty the reference store");
  list->excludes(clear);
  cmd->add_option("--reference-store", args->store,
                  "the store's folder (default: $ELSBENCH_REFERENCE_STORE, else ~/.cache/elsbench/references)");
  cmd->callback([args] {
    if (args->list || args->clear) {
      if (!args->product.empty() || args->paths)
        throw InputError("(command line)", args->list ? "--list" : "--clear", "takes no --product or --paths");
      if (args->list) return list_store(*args);
      const ReferenceStore store = store_of(*args);
      std::vector<std::string> kept;
      std::cout << "removed " << store.clear(&kept) << " entries from " << store.dir() << '\n';
      for (const std::string& k : kept) std::cout << "kept " << k << ": not a reference store entry\n";
      return;
    }
    if (args->product.empty()) throw InputError("(command line)", "--product", "required (or --list, --clear)");
    if (args->paths < 2) throw InputError("(command line)", "--paths", "required, at least 2");
    if (args->replace && !args->write) throw InputError("(command line)", "--replace", "goes with --write");
    // --write stores the project's shipped values; the on-demand store is --reference auto's.
    if (args->write && !args->store.empty())
      throw InputError("(command line)", "--reference-store",
                       "--write stores into the project's reference/values/, never into a --reference-store");
    const Product product = resolve_product(args->product);
    if (args->write) refuse_other_terms(product, *args);
    const McResult r = run(product, *args);
    const std::string wrote = args->write ? write(product, *args, r) : "";
    if (args->json) {
      nlohmann::json j = mc_result_json(product, r);
      j["wrote"] = wrote.empty() ? nlohmann::json() : nlohmann::json(wrote);
      std::cout << j.dump(2) << '\n';
      return;
    }
    print(product, r);
    if (!wrote.empty()) std::cout << "wrote        " << wrote << '\n';
  });
}

}  // namespace

ELSBENCH_REGISTER_COMMAND(40, setup);

}  // namespace elsbench
