#pragma once
// A results file (harness/results/RESULTS_SCHEMA.md): Google Benchmark's `context` and `benchmarks`, with
// elsbench's fields. Writes are atomic (temp file in the same folder, fsync, rename), so a reader
// or a killed sweep only ever sees a whole file: the previous one or the new one.
#include <cstdint>
#include <optional>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>
#include "harness/placement/case_status.hpp"
#include "platform/file_io.hpp"  // write_file_atomically, for callers of this header

namespace elsbench {

inline constexpr int kResultsSchema = 1;
// A results file larger than this is refused unread (the largest committed is a few MiB).
inline constexpr std::uintmax_t kMaxResultsFileBytes = 256ULL << 20;

struct ResultsFile {
  nlohmann::json context = nlohmann::json::object();
  nlohmann::json benchmarks = nlohmann::json::array();

  nlohmann::json& elsbench() { return context["elsbench"]; }
  const nlohmann::json& elsbench() const { return context.at("elsbench"); }
  // Ids of the cases present, in order of first appearance.
  std::vector<std::string> case_ids() const;
  // Replaces (or adds) the entries of one case.
  void put_case(const std::string& case_id, const nlohmann::json& entries);
  // Orders the entries by the position of their case in `order`; unknown cases go last.
  void sort_cases(const std::vector<std::string>& order);
};

// One entry of `benchmarks` (RESULTS_SCHEMA.md), checked before any field is used: an object with a
// case id and a status word, its typed fields of their types (finite numbers), its time a finite
// number in one of Google Benchmark's units, and a finite price unless the case was skipped. Throws InputError
// naming `origin` and `where` ("benchmarks[3].price"): a damaged file is refused, never half read.
void check_results_entry(const nlohmann::json& entry, const std::string& origin, const std::string& where);
// Seconds in one of Google Benchmark's time units (ns, us, ms, s); nullopt for any other word.
std::optional<double> seconds_per_time_unit(const std::string& unit);
// An entry's status word read by the one table (case_status.hpp); nullopt where it has none.
std::optional<CaseStatus> entry_status(const nlohmann::json& entry);
// Throws InputError naming the file and field when it is not a results file of this schema (every
// entry checked as above).
// `as`: the file's name in a refusal (default: path).
ResultsFile read_results_file(const std::string& path, const std::string& as = "");
// The same check on the text of a results file named `path`.
ResultsFile results_file_from_text(std::string_view text, const std::string& path);
// The JSON text of the file (reporter.hpp writes it), with context.elsbench.benchmarks_sha256: the
// SHA-256 of its benchmarks as written, which a resume checks.
std::string results_file_text(const ResultsFile& file);
// What a resume may keep of a file it did not just write: its benchmarks as this project wrote them
// (their SHA-256 matches; a price edited by hand, a pasted or deleted entry, or a file without the
// checksum is refused) and no case twice. Throws InputError naming `path` and the field.
void check_resumable(const ResultsFile& file, const std::string& path);
// Every case once (check_results_entry'd entries): the writer keeps a case's entries together, one
// per repetition and aggregate, so a case seen again after another, or a repetition seen twice, is
// a second copy, refused naming `origin` and the entry (compare and --resume read by it).
void check_each_case_once(const nlohmann::json& benchmarks, const std::string& origin);

// results/<machine-slug>/<YYYY-MM-DD>-<commit>.json under `root`; "-2", "-3"... when taken.
std::string default_results_path(const std::string& root, const std::string& machine_slug,
                                 const std::string& date, const std::string& commit);

}  // namespace elsbench
