// elsbench price --product FILE|ID --solver NAME [grid flags] [--json]
#include <iostream>

#include "harness/cli/command.hpp"
#include "harness/cli/solver_flags.hpp"
#include "harness/results/price_json.hpp"
#include "products/catalog.hpp"
#include "solvers/contract/solver.hpp"

namespace elsbench {
namespace {

struct PriceArgs {
  std::string product, solver = "explicit";
  SolverFlags flags;
  bool json = false;
};

void setup(CLI::App& app) {
  auto args = std::make_shared<PriceArgs>();
  auto* cmd = app.add_subcommand("price", "price one product with one solver");
  cmd->add_option("--product", args->product, "catalog id or JSON file")->required();
  cmd->add_option("--solver", args->solver, "solver name (elsbench list solvers)");
  args->flags.add_to(*cmd);
  cmd->add_flag("--json", args->json, "print the result as JSON");
  cmd->callback([args] {
    const Product product = resolve_product(args->product);
    const SolverInfo& solver = SolverRegistry::instance().get(args->solver);
    const PriceResult r = price_with(solver, product, args->flags.parsed());
    if (args->json) {
      std::cout << to_json(r).dump(2) << '\n';
    } else {
      std::cout << to_text(r);
    }
  });
}

}  // namespace

ELSBENCH_REGISTER_COMMAND(20, setup);

}  // namespace elsbench
