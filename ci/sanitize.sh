#!/usr/bin/env bash
# The sanitizer build (preset asan, folder build-asan): CPU only, -O1, AddressSanitizer, UBSan
# and float-cast-overflow, every finding fatal; it builds the elsbench binary and the unit and
# validation suites (no benchmarks, no gpu or slow suites) and runs them. docs/reliability.md.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake --preset asan >/dev/null
cmake --build build-asan -j "$(nproc)"
# allocator_may_return_null: an allocation beyond the sanitizer's limit throws std::bad_alloc as
# in a release build (the CLI reports it, exit 3) instead of aborting.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# Left out of the test command (too slow under the sanitizers; all pass in the main build, and
# ELSBENCH_SANITIZE_ALL=1 runs them here too):
#   unit.gpu_emulation        - the CPU emulation of the GPU kernels at n = 300: 414 s here (45 s in Release);
#   unit.reliability_binary   - its n = 100,000 refusals took minutes of set-up here (since bba9173 they take
#     milliseconds; not timed here since);
#   validation.validate_gate, validation.adi_convergence, validation.els_convergence - the quick preset
#     and the convergence studies, 245 s, 113 s and 109 s here: the solvers of validation.regression
#     (which runs) on larger grids;
#   validation.generated_notes - the error bars of 15 generated notes, 3-D grids of 48 nodes per axis
#     among them: 58 s in Release, tens of minutes at the sanitizers' slowdown (validation.accuracy,
#     which runs, judges the same bars' code on the catalog).
left_out='^unit\.(gpu_emulation|reliability_binary)$|^validation\.(validate_gate|adi_convergence|els_convergence|generated_notes)$'
[ "${ELSBENCH_SANITIZE_ALL:-0}" = 1 ] && left_out='^$'
ctest --test-dir build-asan --output-on-failure -j "$(nproc)" -L 'unit|validation' -LE slow -E "$left_out" "$@"
