#!/usr/bin/env bash
# The sanitizer build (preset asan, folder build-asan): CPU only, AddressSanitizer, UBSan and
# float-cast-overflow, every finding fatal, over every layer (numeric layers at -O1, the rest at
# -Og); the suites' own sources are not instrumented. It builds the elsbench binary and the unit
# and validation suites (no benchmarks, no gpu or slow suites) and runs them. docs/testing.md.
#   bash ci/sanitize.sh [--build|--test] [CTEST ARGS...]    # both when neither is named
set -euo pipefail
cd "$(dirname "$0")/.."
mode=both
case "${1:-}" in --build|--test) mode=$1; shift ;; esac
# Neither built nor run here, each passing in the Release build's ctest (ELSBENCH_SANITIZE_ALL=1
# builds and runs them too): the slowest under the sanitizers (GPU kernel emulation, the emulated
# on-chip book march, the quick preset and convergence studies, the generated notes) and the CLI's
# refusals as a binary. What covers their code here instead: docs/testing.md, "What the sanitizer
# run leaves out".
not_built='^(unit\.(gpu_emulation|gpu_on_chip|reliability_binary)|validation\.(validate_gate|adi_convergence|els_convergence|generated_notes))$'
# Run in the Release build only: they run no instrumented code (Python and shell checks, ptxas's
# static budgets), or only the loader, which the fuzz targets run instrumented (unit.product_schema).
not_run='^unit\.(report_python|layering|build_info|install_deps|early_readers|product_schema|cuda_static_budgets)$'
if [ "${ELSBENCH_SANITIZE_ALL:-0}" = 1 ]; then not_built='' not_run='^$'; fi
if [ "$mode" != --test ]; then
  launcher=()
  command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  cmake --preset asan "-DELSBENCH_SUITE_EXCLUDE=$not_built" "${launcher[@]}" >/dev/null
  cmake --build build-asan -j "$(nproc)"
fi
[ "$mode" = --build ] && exit 0
# allocator_may_return_null: an allocation beyond the sanitizer's limit throws std::bad_alloc as
# in a release build (the CLI reports it, exit 3) instead of aborting.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
ctest --test-dir build-asan --output-on-failure -j "$(nproc)" -L 'unit|validation' -LE slow -E "$not_run" "$@"
