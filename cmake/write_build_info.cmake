# Run at build time (cmake -P): writes the build's provenance into one source file, rewritten only
# when the commit changes, so that a new commit recompiles one file instead of the whole tree.
execute_process(COMMAND git rev-parse --short=12 HEAD WORKING_DIRECTORY ${SOURCE_DIR}
                OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
if(NOT commit)
  set(commit "unknown")
endif()
execute_process(COMMAND git status --porcelain --untracked-files=no WORKING_DIRECTORY ${SOURCE_DIR}
                OUTPUT_VARIABLE dirty OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
if(dirty)
  string(APPEND commit "-dirty")
endif()
set(ELSBENCH_GIT_COMMIT "${commit}")
configure_file(${SOURCE_DIR}/cmake/build_info.cpp.in ${OUTPUT} @ONLY)
