// elsbench book generate --notes N --assets 1|2|3|mixed --seed S --out book.jsonl
// elsbench book price BOOK --solver S [--n N | --target-error E] [--device cpu|cuda:N|cuda:all] [--threads T]
//                          [--out FILE] [--resume] [--strict] [--reference none|stored|auto] [--dry-run]
#include <algorithm>
#include <iomanip>
#include <iostream>

#include "harness/book/book_plan.hpp"
#include "harness/book/book_run.hpp"
#include "harness/cli/command.hpp"
#include "harness/cli/out_format_flag.hpp"
#include "harness/cli/reference_flags.hpp"
#include "harness/cli/solver_flags.hpp"
#include "harness/results/results_file.hpp"
#include "harness/run/price_run.hpp"
#include "platform/file_io.hpp"
#include "products/book_generator.hpp"

namespace elsbench {
namespace {

struct GenerateArgs {
  int notes = 64;
  std::string assets = "mixed", family = "issued", out;
  std::uint64_t seed = 1;
};

struct PriceArgs {
  std::string book, solver = "adi", out, instance;
  SolverFlags flags;
  ReferenceFlags reference;
  OutFormatFlag out_format;
  bool strict = false, resume = false, greeks = false, dry_run = false;
  std::string greek_units = "model";
  std::string target_error, tol, spot_shifts, vol_shifts;
};

void add_generate(CLI::App& parent) {
  auto args = std::make_shared<GenerateArgs>();
  auto* cmd = parent.add_subcommand("generate", "write a book of seasoned step-down ELS term sheets (JSON Lines)");
  cmd->add_option("--notes", args->notes, "notes in the book")->check(CLI::Range(1, 10000000));
  cmd->add_option("--assets", args->assets, "underlyings per note")->check(CLI::IsMember({"1", "2", "3", "mixed"}));
  cmd->add_option("--seed", args->seed, "the same seed gives the same book");
  cmd->add_option("--family", args->family,
                  "issued (step-down schedules as issued) | digital (redemption barriers of 60-80 %, one date or\n"
                  "many, coupons up to 40 %, half knocked in: where a grid's error bar is weakest) | monthly\n"
                  "(a coupon of 0.3-0.7 % a month above a barrier of 60-75 %, six-monthly redemption dates) | lizard\n"
                  "(issued, with a lizard of 60-70 % on the next redemption date)")
      ->check(CLI::IsMember(book_family_words()));
  cmd->add_option("--out", args->out, "book file (.jsonl)")->required();
  cmd->callback([args] {
    const BookSpec spec{args->notes, args->assets == "mixed" ? 0 : std::stoi(args->assets), args->seed,
                        parse_book_family(args->family)};
    write_file_atomically(args->out, book_jsonl(generate_book(spec)));
    std::cout << "wrote " << args->notes << " notes to " << args->out << '\n';
  });
}

// The notes' error bars in basis points of their notional, where they have one (the default grid,
// --target-error): the widest, and how many lie above half a basis point.
void print_error_bars(const std::vector<nlohmann::json>& notes) {
  std::size_t with_bar = 0, wide = 0;
  double widest = 0;
  for (const auto& n : notes) {
    if (!n["error_bar"].is_number() || !n["notional"].is_number()) continue;
    const double bp = n["error_bar"].get<double>() / n["notional"].get<double>() * 1e4;
    ++with_bar;
    wide += bp > 0.5 ? 1 : 0;
    widest = std::max(widest, bp);
  }
  if (with_bar == 0) return;
  std::cout << "error bars: " << with_bar << " notes, the widest " << std::setprecision(3) << widest
            << " bp of notional, " << wide << " above 0.5 bp (--target-error 0.5bp prices every note to it)\n"
            << std::setprecision(6);
}

void print_summary(const BookRunSummary& s, const std::string& out) {
  const auto& book = s.file["context"]["elsbench"]["book"];
  std::cout << "book: " << s.priced << " notes priced, " << s.failed << " failed, " << s.bad_lines
            << " bad lines, " << s.resumed << " kept from the previous run; " << s.seconds << " s, "
            << s.notes_per_second << " notes/s; peak RSS "
            << book["summary"]["process_peak_rss_bytes"].get<std::size_t>() / (1 << 20) << " MiB, peak device "
            << book["summary"]["peak_device_bytes"].get<std::size_t>() / (1 << 20) << " MiB\n";
  for (const auto& b : book["bad_lines"]) std::cerr << "elsbench: bad line: " << b["message"].get<std::string>() << '\n';
  const std::vector<nlohmann::json> notes = book_notes(s.file);
  print_error_bars(notes);
  for (const auto& n : notes)
    if (n["price"].is_null())
      std::cerr << "elsbench: note " << n["product"].get<std::string>() << " (line " << n["line"] << ") failed"
                << (n.contains("rank") ? " on rank " + n["rank"].dump() : std::string()) << ": "
                << n.value("skip_reason", "") << '\n';
  if (const auto v = book.find("validation"); v != book.end()) {
    std::cout << "references (" << (*v)["mode"].get<std::string>() << "): " << (*v)["pass"] << " pass, "
              << (*v)["fail"] << " fail, " << (*v)["no_reference"] << " no-reference\n";
    for (const auto& n : notes)
      if (entry_status(n) == CaseStatus::Fail)
        std::cerr << "elsbench: note " << n["product"].get<std::string>() << " (line " << n["line"]
                  << ") fails validation: price " << n["price"] << ", reference " << n["reference"] << ", error "
                  << n["error"] << " beyond the allowance " << n["allowance"] << '\n';
  }
  if (!out.empty()) {
    std::cout << "results: " << out << '\n';
    return;
  }
  // Without a results file the prices are printed: they would be lost otherwise.
  std::cout << std::left << std::setw(26) << "note" << std::setw(7) << "line" << std::setw(20) << "price" << "delta\n";
  for (const auto& n : notes) {
    if (n["price"].is_null()) continue;
    std::cout << std::setw(26) << n["product"].get<std::string>() << std::setw(7) << n["line"].dump() << std::setw(20)
              << std::setprecision(12) << n["price"].get<double>() << n["delta"].dump() << '\n';
  }
}

// Under mpirun, an error on one rank (the others waiting for it) ends the whole run, naming the rank.
BookRunSummary run_ranked(const Ranks& ranks, const Book& book, const BookRunSpec& spec) {
  if (ranks.size() == 1) return run_book(book, spec);
  try {
    return run_book(book, spec);
  } catch (const std::exception& e) {
    std::cerr << "elsbench: rank " << ranks.rank() << " of " << ranks.size() << ": " << e.what() << '\n';
    ranks.abort(1);
  }
}

void add_price(CLI::App& parent) {
  auto args = std::make_shared<PriceArgs>();
  auto* cmd = parent.add_subcommand("price", "price every note of a book: price, delta, gamma and status per note");
  cmd->add_option("book", args->book, "book file (JSON Lines)")->required();
  cmd->add_option("--solver", args->solver, "solver name (elsbench list solvers)")->capture_default_str();
  args->flags.add_to(*cmd, default_grid_words() + ", with each note's error bar");
  cmd->add_option("--out", args->out, "results file (JSON; the other formats' files go beside it)");
  args->out_format.add_to(*cmd);
  cmd->add_option("--instance", args->instance, "the cloud instance this runs on (aws:p5.48xlarge), for the report's cost");
  cmd->add_flag("--resume", args->resume, "keep the notes already priced in --out and price the rest");
  cmd->add_flag("--strict", args->strict, "refuse the whole book when any line is bad");
  cmd->add_flag("--greeks", args->greeks,
                "vega per asset and rho by central bump-and-reprice, theta from the note aged one step, per note\n"
                "(price --greeks' rule, on the grid each price came from); notes priced one by one");
  add_greek_units_flag(*cmd, args->greek_units);
  cmd->add_option("--target-error", args->target_error,
                  "price each note to this error (0.01, or 0.5bp of its notional) on the grid that meets it\n"
                  "(price --target-error's rule, note by note); a note that misses it is failed");
  args->reference.add_to(*cmd, "none");
  add_tol_flag(*cmd, args->tol);
  cmd->add_option("--spot-shifts", args->spot_shifts,
                  "the book's value with every spot moved by these percentages too: -20:20:5 (from:to:step) or\n"
                  "-10,0,10; per note and summed, in the results file and FILE.scenarios.csv");
  cmd->add_option("--vol-shifts", args->vol_shifts,
                  "the same for every volatility moved by these points (-2:2:2 or -1,1); with --spot-shifts, every pair");
  cmd->add_flag("--dry-run", args->dry_run,
                "print the plan (notes, work) and an estimate of its time at the measured rates, and exit");
  cmd->callback([args, cmd] {
    SolverFlags flags = args->flags;
    flags.device = "cpu";  // the book's own device rule below
    BookRunSpec spec;
    spec.solver = args->solver;
    spec.options = flags.parsed();
    set_book_device(spec, args->flags.device);
    spec.threads = args->flags.threads;
    spec.out = args->out;
    spec.formats = args->out_format.formats();
    spec.resume = args->resume;
    spec.greeks = args->greeks;
    spec.greek_units = parsed_greek_units(args->greek_units);
    spec.instance = args->instance;
    spec.ladder = {parse_shifts(args->spot_shifts, "--spot-shifts"), parse_shifts(args->vol_shifts, "--vol-shifts")};
    spec.command = command_line(*cmd);
    if (args->reference.wanted()) spec.references = BookReferences{args->reference.policy(), {}, 3.0};
    if (const std::optional<ErrorTarget> tol = read_tol(args->tol, args->reference.wanted())) spec.references->tolerance.fixed = tol;
    choose_book_grid(spec, cmd->count("--n") > 0 || cmd->count("--nt") > 0, args->target_error, "(command line)",
                     {"--target-error", "--n and --nt", ""});
    const Ranks ranks;
    spec.ranks = &ranks;
    spec.progress = ranks.rank() == 0 ? &std::cerr : nullptr;
    spec.handle_signals = ranks.size() == 1;
    const Book book = load_book_file(args->book);
    if (args->strict) require_clean(book);
    if (args->dry_run) {
      std::cout << describe(plan_book(book, spec), spec);
      return;
    }
    if (args->resume && args->out.empty()) throw std::invalid_argument("--resume needs --out");
    const BookRunSummary s = run_ranked(ranks, book, spec);
    if (ranks.rank() != 0) return;
    print_summary(s, args->out);
    // Bad lines are bad input (2); a note the solver could not price, a solver failure (3); a price
    // outside its reference's allowance, a failed validation (1).
    set_exit_code(s.bad_lines > 0 ? 2 : s.failed > 0 ? 3 : s.validation_failed > 0 ? 1 : 0);
  });
}

void setup(CLI::App& app) {
  auto* book = app.add_subcommand("book", "books of notes: generate one, price one");
  book->require_subcommand(1);
  add_generate(*book);
  add_price(*book);
}

}  // namespace

ELSBENCH_REGISTER_COMMAND(35, setup);

}  // namespace elsbench
