#pragma once
// Files every layer writes (results, stored references) and the time stamp they carry.
#include <string>

namespace elsbench {

// Temp file, fsync, rename: a reader sees the old file or the new one, never half of one. Creates
// the parent folders; throws std::runtime_error naming the file and the system's reason.
void write_file_atomically(const std::string& path, const std::string& content);
// Throws InputError when `path` exists and is not a regular file, or is a symbolic link (to
// anything): what write_file_atomically refuses, for a caller to check before the work whose
// result it would hold.
void require_output_path(const std::string& path);
// Creates the folder an output goes into; a part of it that is a file, or a folder that cannot be
// made, is bad input naming the output (exit 2), not a filesystem error.
void make_output_folder(const std::string& path);

// Now in UTC, ISO 8601 to the second: 2026-11-21T10:00:00Z.
std::string utc_timestamp();

}  // namespace elsbench
