// elsbench report [RESULTS.json...] [--history DIR] --out DIR [--baseline SPEC] [--prices FILE]
// Plots are drawn by harness/report/render.py (the package harness.report) with matplotlib; this
// command finds a Python that can import it and hands the files over.
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <stdexcept>

#include "harness/cli/command.hpp"
#include "products/catalog.hpp"

extern char** environ;

namespace elsbench {
namespace {

struct ReportArgs {
  std::vector<std::string> results;
  std::string out;
  std::string baseline = "adi/cpu/t1";
  std::string prices;
  std::string history;
  std::string tol;  // --tol: verdicts judged again at one allowance
};

// Runs argv[0] (looked up on PATH) and returns its exit status; -1 when it could not start.
int run_program(const std::vector<std::string>& argv, bool quiet) {
  std::vector<char*> c_argv;
  for (const auto& a : argv) c_argv.push_back(const_cast<char*>(a.c_str()));
  c_argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (quiet) {
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  }
  pid_t pid = 0;
  const int started = posix_spawnp(&pid, c_argv[0], &actions, nullptr, c_argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (started != 0) return -1;
  int status = 0;
  if (waitpid(pid, &status, 0) < 0) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// The default python3 may be a pyenv or venv interpreter without matplotlib, while Debian's
// python3-matplotlib lives under /usr/bin/python3: try an explicit choice first, then Debian's.
std::string python_with_matplotlib() {
  std::vector<std::string> candidates;
  if (const char* env = std::getenv("ELSBENCH_PYTHON"); env && *env) candidates.push_back(env);
  candidates.insert(candidates.end(), {"/usr/bin/python3", "python3"});
  for (const auto& python : candidates)
    if (run_program({python, "-c", "import matplotlib"}, true) == 0) return python;
  throw std::runtime_error(
      "report: no Python 3 with matplotlib found (tried $ELSBENCH_PYTHON, /usr/bin/python3, python3 on PATH); "
      "install it with 'apt-get install python3-matplotlib' or point ELSBENCH_PYTHON at an interpreter that has it");
}

// The report is the package harness.report of the source tree: the tree goes first on the
// interpreter's PYTHONPATH, and render.py runs as its module.
void put_source_tree_on_pythonpath() {
  const std::string root = project_root();
  if (!std::filesystem::exists(root + "/harness/report/render.py"))
    throw std::runtime_error("report: " + root +
                             "/harness/report/render.py not found (set ELSBENCH_ROOT to the source tree)");
  const char* before = std::getenv("PYTHONPATH");
  const std::string path = before && *before ? root + ":" + before : root;
  setenv("PYTHONPATH", path.c_str(), 1);
}

// The report reads results files through this binary's `read` and asks its `compare` for the
// history's verdicts (harness/report/schema.py, history.py).
void name_this_binary() {
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) setenv("ELSBENCH_BIN", self.c_str(), 1);
}

int render_report(const ReportArgs& args) {
  put_source_tree_on_pythonpath();
  name_this_binary();
  std::vector<std::string> argv{python_with_matplotlib(), "-m", "harness.report.render", "--out", args.out,
                                "--baseline", args.baseline};
  if (!args.prices.empty()) argv.insert(argv.end(), {"--prices", args.prices});
  if (!args.history.empty()) argv.insert(argv.end(), {"--history", args.history});
  if (!args.tol.empty()) argv.insert(argv.end(), {"--tol", args.tol});
  argv.insert(argv.end(), args.results.begin(), args.results.end());
  const int status = run_program(argv, false);
  // render.py exits 2 on bad input (a damaged results file, named with its field): so does report.
  if (status == 2) return 2;
  if (status != 0) std::cerr << "elsbench: report: render.py failed (exit status " << status << ")\n";
  return status == 0 ? 0 : 1;
}

void setup(CLI::App& app) {
  auto args = std::make_shared<ReportArgs>();
  auto* cmd = app.add_subcommand(
      "report", "merge results files from several machines into plots (PNG, SVG), report.md and report.html");
  cmd->add_option("RESULTS", args->results, "results files written by elsbench sweep, validate or book price")
      ->check(CLI::ExistingFile);
  cmd->add_option("--history", args->history,
                  "a folder of results files (e.g. results/): each case's time and price across commits, changes "
                  "beyond the noise flagged; without RESULTS, its files are the report's")
      ->check(CLI::ExistingDirectory);
  cmd->add_option("--out", args->out, "output directory (created)")->required();
  cmd->add_option("--baseline", args->baseline,
                  "speedup baseline SOLVER[:SCHEME]/DEVICE[/tTHREADS][/PRECISION], matched per product and grid")
      ->capture_default_str();
  cmd->add_option("--tol", args->tol,
                  "judge every case with a reference again at this allowance (1bp of the notional, or an amount:\n"
                  "0.01), whatever its run used");
  cmd->add_option("--prices", args->prices, "cloud price table (default: harness/cloud/prices.json)")
      ->check(CLI::ExistingFile);
  cmd->callback([args] {
    if (args->results.empty() && args->history.empty())
      throw CLI::ValidationError("RESULTS", "give results files, --history DIR, or both");
    set_exit_code(render_report(*args));
  });
}

}  // namespace

ELSBENCH_REGISTER_COMMAND(70, setup);

}  // namespace elsbench
