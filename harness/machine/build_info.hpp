#pragma once
// What this binary was built from and how: written into every results file's machine descriptor.

namespace elsbench {

struct BuildInfo {
  const char* git_commit;  // short hash, "-dirty" when tracked files differ from it
  const char* build_type;
  const char* cxx_flags;   // flags of the optimised build type, target flags included
  const char* compiler;
};

const BuildInfo& build_info();

}  // namespace elsbench
