#pragma once
// The one writer of a run's results file, for sweeps, books and validation alike: the file is
// locked for the life of the run (a second run writing it is refused, naming it), and each save
// replaces the JSON and the other formats asked for (reporter.hpp) atomically, inside a
// FileWriteSection, so that a stop leaves whole files.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "harness/results/reporter.hpp"
#include "harness/results/results_file.hpp"
#include "platform/file_lock.hpp"

namespace elsbench {

// A fresh results file: Google Benchmark's context and the fields every run's file has
// (RESULTS_SCHEMA.md: schema, version, preset, command, started, finished, complete, cases_total,
// machine, resumed); the run adds its own part (sweep, book, references).
ResultsFile fresh_results(const std::string& preset, const std::string& command, std::size_t cases,
                          const std::string& instance);
// A resume of `then` (the file's context.elsbench): its command and start are kept, this
// command is added to `resumed` with where and at which commit it ran.
void record_resume(ResultsFile& f, const nlohmann::json& then, const std::string& command,
                   const std::string& instance);

// A --resume of a file whose run recorded its settings `then` (at `field`: every setting that
// changes a price or a verdict) under the settings `now`: refused, naming `field.<key>` and both
// values, at the first setting that differs (the `first` keys before the others: a change there
// changes later ones too), one of `now` that `then` lacks, or one of `then`'s that `now` lacks.
// `elsewhere` says what to do instead ("price into another --out").
void refuse_other_settings(const std::string& path, const std::string& field, const nlohmann::json& then,
                           const nlohmann::json& now, const std::string& elsewhere,
                           const std::vector<std::string>& first = {});
// The run priced every item: `complete` and the time it finished.
void mark_complete(ResultsFile& f);

class RunFile {
 public:
  // Empty path: a run without a file (nothing is locked or written). `inputs`: files the run
  // reads; a results file, or a format's file, the lock or attempts log beside it, that is one of
  // them is refused (InputError) before anything is written. `formats`: parse_out_formats'.
  explicit RunFile(const std::string& path, const std::vector<std::string>& inputs = {},
                   std::vector<std::string> formats = default_out_formats());
  const std::string& path() const { return path_; }
  // The files a save writes: the results file first.
  std::vector<std::string> written() const;
  void save(const ResultsFile& file) const;

 private:
  std::string path_;
  std::vector<std::string> formats_;
  std::optional<FileLock> lock_;
};

}  // namespace elsbench
