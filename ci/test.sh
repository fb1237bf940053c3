#!/usr/bin/env bash
# The README's test command: installs what is missing, builds (the CLI, the Python module from the
# same objects, every suite), runs every CTest suite but the slow ones (GPU suites report as
# skipped where no CUDA device is present), installs the Python package into .venv and runs its
# pytest suite, then the sanitizer build (ci/sanitize.sh: ASan + UBSan) and short runs of the
# loaders' libFuzzer targets (clang; docs/reliability.md). Ends by the time each phase took.
# Arguments go to the first ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
source ci/lib/phases.sh
phases_report_at_exit ci/test.sh
phase "install packages" bash ci/install-deps.sh
phase "python environment" bash ci/python.sh --env
phase "configure and build" bash ci/build.sh
phase "ctest" ctest --test-dir build --output-on-failure -j "$(nproc)" -LE slow "$@"
phase "python package" bash ci/python.sh
phase "python tests" bash ci/python.sh --test
phase "sanitizer build" bash ci/sanitize.sh --build
phase "sanitizer tests" bash ci/sanitize.sh --test
if command -v clang++ >/dev/null; then
  phase "fuzz build" bash ci/fuzz.sh --build
  phase "fuzz runs" bash ci/fuzz.sh --all "${ELSBENCH_FUZZ_SECONDS:-20}s"
else
  echo "ci/test.sh: clang++ not found: the fuzz targets were not run" >&2
fi
