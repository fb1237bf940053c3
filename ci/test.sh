#!/usr/bin/env bash
# The README's test command: installs what is missing, builds, runs every test suite but the
# slow ones. GPU suites skip (reported as skipped) where no CUDA device is present.
# Then the Python package, built and installed into .venv, and its pytest suite (ci/python.sh).
# Then the sanitizer build (ci/sanitize.sh: ASan + UBSan, unit and validation suites) and short
# runs of the loaders' libFuzzer targets (clang; docs/reliability.md).
set -euo pipefail
cd "$(dirname "$0")/.."
bash ci/install-deps.sh
bash ci/build.sh
ctest --test-dir build --output-on-failure -j "$(nproc)" -LE slow "$@"
bash ci/python.sh --test
bash ci/sanitize.sh
if command -v clang++ >/dev/null; then
  mkdir -p build-fuzz
  for target in product book results preset input; do
    log=build-fuzz/$target.log
    bash ci/fuzz.sh "$target" "${ELSBENCH_FUZZ_SECONDS:-20}s" >"$log" 2>&1 || { tail -n 60 "$log"; exit 1; }
    echo "fuzz $target: $(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | grep -o '[0-9]*$') executions, no finding"
  done
else
  echo "ci/test.sh: clang++ not found: the fuzz targets were not run" >&2
fi
