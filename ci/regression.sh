#!/usr/bin/env bash
# CI price regression: runs the small deterministic sweep ci/baseline/regression-sweep.json and
# compares its prices strictly (absolute drift <= 1e-9, no pass turned fail, no case lost) against
# the committed baseline ci/baseline/regression.json. Times are printed, never judged: CI machines
# are noisy and differ from the one that wrote the baseline.
#
#   bash ci/regression.sh [--bin PATH/TO/elsbench] [--refresh]
# --refresh rewrites the baseline from this run; review `git diff ci/baseline/` before committing it.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bin="${ELSBENCH_BIN:-$root/build/elsbench}"
refresh=0
while (($#)); do
  case "$1" in
    --bin) bin="$2"; shift 2 ;;
    --refresh) refresh=1; shift ;;
    -h|--help) sed -n '2,8p' "$0"; exit 0 ;;
    *) echo "regression: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
[ -x "$bin" ] || { echo "regression: no elsbench at $bin: build first (bash ci/build.sh) or pass --bin" >&2; exit 2; }

sweep="$root/ci/baseline/regression-sweep.json"
baseline="$root/ci/baseline/regression.json"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

run_sweep() {  # $1: results file
  if ! ELSBENCH_ROOT="$root" "$bin" sweep --preset "$sweep" --out "$1" >"$work/sweep.log" 2>&1; then
    cat "$work/sweep.log" >&2
    echo "regression: the sweep itself failed" >&2
    exit 2
  fi
}

if [ "$refresh" = 1 ]; then
  [ -f "$baseline" ] && cp "$baseline" "$work/old.json"
  run_sweep "$baseline"
  tail -n 3 "$work/sweep.log"
  if [ -f "$work/old.json" ]; then  # what moved, for the commit message
    "$bin" compare "$work/old.json" "$baseline" --price-tol 1e-9 --fail-on-missing || true
  fi
  echo "regression: baseline rewritten; commit ci/baseline/ with the change that moved the prices, saying why"
  exit 0
fi
[ -f "$baseline" ] || { echo "regression: no baseline at $baseline: run with --refresh once" >&2; exit 2; }
run_sweep "$work/new.json"
ELSBENCH_ROOT="$root" "$bin" compare "$baseline" "$work/new.json" --price-tol 1e-9 --fail-on-missing
