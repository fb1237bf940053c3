# Run at build time (cmake -P): writes the build's provenance into one source file, rewritten only
# when the commit changes, so that a new commit recompiles one file instead of the whole tree.
execute_process(COMMAND git rev-parse --short=12 HEAD WORKING_DIRECTORY ${SOURCE_DIR}
                OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
# Only the source tree's own repository: a copy without .git inside another checkout (a device
# pack under a home directory's repository) would otherwise record that repository's HEAD.
execute_process(COMMAND git rev-parse --show-toplevel WORKING_DIRECTORY ${SOURCE_DIR}
                OUTPUT_VARIABLE toplevel OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
get_filename_component(source_real "${SOURCE_DIR}" REALPATH)
get_filename_component(toplevel_real "${toplevel}" REALPATH)
if(NOT commit OR NOT toplevel OR NOT source_real STREQUAL toplevel_real)
  set(commit "unknown")
endif()
execute_process(COMMAND git status --porcelain --untracked-files=no WORKING_DIRECTORY ${SOURCE_DIR}
                OUTPUT_VARIABLE dirty OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
if(dirty)
  string(APPEND commit "-dirty")
endif()
set(ELSBENCH_GIT_COMMIT "${commit}")
configure_file(${SOURCE_DIR}/cmake/build_info.cpp.in ${OUTPUT} @ONLY)
