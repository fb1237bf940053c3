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
# Neither built nor run here (each passes in the Release build's ctest; docs/testing.md says what
# covers their code under the sanitizers; ELSBENCH_SANITIZE_ALL=1 builds and runs them too):
#   unit.gpu_emulation        - the CPU emulation of the GPU kernels at n = 300: 414 s here;
#   unit.gpu_on_chip          - the emulated on-chip book march (64 notes, checked marches: 45 s in
#     Release); its workspace accesses are bounds-checked by the emulator itself;
#   unit.reliability_binary   - the CLI's refusals of huge inputs, as a binary;
#   validation.validate_gate, validation.adi_convergence, validation.els_convergence - the quick
#     preset and the convergence studies (245, 113, 109 s): validation.regression's solvers on
#     larger grids;
#   validation.generated_notes - 15 generated notes' error bars, 3-D grids among them (tens of minutes).
not_built='^(unit\.(gpu_emulation|gpu_on_chip|reliability_binary)|validation\.(validate_gate|adi_convergence|els_convergence|generated_notes))$'
# Run in the Release build only: they run no instrumented code (Python and shell checks, ptxas's
# static budgets), or only the loader, which the fuzz targets run instrumented (unit.product_schema, 105 s here).
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
