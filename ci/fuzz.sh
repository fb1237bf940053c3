#!/usr/bin/env bash
# Runs one libFuzzer target of tests/fuzz (product, book, results, preset, input) for a time or a
# number of executions, building build-fuzz (preset fuzz, clang) first when needed; a finding fails
# it (fuzz() below) and the last lines are libFuzzer's final statistics:
#   bash ci/fuzz.sh product 30s          # 30 seconds
#   bash ci/fuzz.sh results 1000000      # one million executions
#   bash ci/fuzz.sh --build              # builds every target
#   bash ci/fuzz.sh --all 20s            # every target for 20 s, as many at once as there are cores
set -euo pipefail
cd "$(dirname "$0")/.."
targets=(product book results preset input)

configure() {
  command -v clang++ >/dev/null || { echo "ci/fuzz.sh: clang++ not found (ci/install-deps.sh installs it)" >&2; exit 2; }
  [ -f build-fuzz/build.ninja ] || cmake --preset fuzz >/dev/null
}

# From the seed corpus tests/fuzz/corpus/<target>/ (left as it is), keeping what it finds in
# build-fuzz/corpus/<target>/. A crash, a sanitizer finding, a leak, an input slower than 10 s or an
# uncaught exception other than InputError fails it, the input left in build-fuzz/artifacts/<target>/.
fuzz() {  # TARGET AMOUNT: runs a built target
  local target=$1 amount=$2 bound
  case "$amount" in
    *s) bound=-max_total_time="${amount%s}" ;;
    *) bound=-runs="$amount" ;;
  esac
  mkdir -p "build-fuzz/corpus/$target" "build-fuzz/artifacts/$target"
  # The fuzz build's own sanitizers abort on the first finding; leaks are checked at exit.
  ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1} \
  UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
    "build-fuzz/tests/fuzz/fuzz_$target" "$bound" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="build-fuzz/artifacts/$target/" "build-fuzz/corpus/$target" "tests/fuzz/corpus/$target"
}

fuzz_all() {  # AMOUNT: every target, as many at once as there are cores; a finding prints its log's end
  local amount=$1 target pids=() failed=0 i
  for target in "${targets[@]}"; do
    fuzz "$target" "$amount" >"build-fuzz/$target.log" 2>&1 &
    pids+=($!)
    while (($(jobs -rp | wc -l) >= $(nproc))); do wait -n || true; done
  done
  for i in "${!targets[@]}"; do
    target=${targets[$i]}
    if wait "${pids[$i]}"; then
      echo "fuzz $target: $(sed -n 's/^stat::number_of_executed_units: *//p' "build-fuzz/$target.log") executions, no finding"
    else
      tail -n 60 "build-fuzz/$target.log"
      echo "fuzz $target: FAILED (build-fuzz/$target.log; the input is in build-fuzz/artifacts/$target/)"
      failed=1
    fi
  done
  return "$failed"
}

check_amount() {
  [[ "${1%s}" =~ ^[0-9]+$ ]] || { echo "ci/fuzz.sh: '$1' is neither SECONDSs nor RUNS" >&2; exit 2; }
}

case "${1:-}" in
  --build)
    configure
    exec cmake --build build-fuzz -j "$(nproc)" ;;
  --all)
    amount=${2:?usage: ci/fuzz.sh --all SECONDSs|RUNS}
    check_amount "$amount"
    configure
    cmake --build build-fuzz -j "$(nproc)" >/dev/null
    fuzz_all "$amount"
    exit ;;
esac
target=${1:?usage: ci/fuzz.sh product|book|results|preset|input SECONDSs|RUNS}
amount=${2:?usage: ci/fuzz.sh TARGET SECONDSs|RUNS}
[[ " ${targets[*]} " == *" $target "* ]] || { echo "ci/fuzz.sh: unknown target '$target'" >&2; exit 2; }
check_amount "$amount"
configure
cmake --build build-fuzz --target "fuzz_$target"
fuzz "$target" "$amount"
