#!/usr/bin/env bash
# Runs one libFuzzer target of tests/fuzz (product, book, results, preset, input) for a time or a number
# of executions, building build-fuzz (preset fuzz, clang) first when needed:
#   bash ci/fuzz.sh product 30s          # 30 seconds
#   bash ci/fuzz.sh results 1000000      # one million executions
# It starts from the seed corpus tests/fuzz/corpus/<target>/ (left as it is) and keeps what it
# finds in build-fuzz/corpus/<target>/. A crash, a sanitizer finding, a leak, an input slower than
# 10 s or an uncaught exception other than InputError fails it (exit non-zero) and leaves the
# input in build-fuzz/artifacts/<target>/. The last lines are libFuzzer's final statistics.
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:?usage: ci/fuzz.sh product|book|results|preset|input SECONDSs|RUNS}
amount=${2:?usage: ci/fuzz.sh TARGET SECONDSs|RUNS}
case "$target" in product|book|results|preset|input) ;; *) echo "ci/fuzz.sh: unknown target '$target'" >&2; exit 2;; esac
case "$amount" in
  *s) bound=(-max_total_time="${amount%s}") ;;
  *) bound=(-runs="$amount") ;;
esac
[[ "${amount%s}" =~ ^[0-9]+$ ]] || { echo "ci/fuzz.sh: '$amount' is neither SECONDSs nor RUNS" >&2; exit 2; }
command -v clang++ >/dev/null || { echo "ci/fuzz.sh: clang++ not found (ci/install-deps.sh installs it)" >&2; exit 2; }
[ -f build-fuzz/build.ninja ] || cmake --preset fuzz >/dev/null
cmake --build build-fuzz --target "fuzz_$target"
mkdir -p "build-fuzz/corpus/$target" "build-fuzz/artifacts/$target"
# The fuzz build's own sanitizers abort on the first finding; leaks are checked at exit.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
exec "build-fuzz/tests/fuzz/fuzz_$target" "${bound[@]}" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
  -artifact_prefix="build-fuzz/artifacts/$target/" "build-fuzz/corpus/$target" "tests/fuzz/corpus/$target"
