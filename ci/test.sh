#!/usr/bin/env bash
# The README's test command: installs what is missing, builds, runs every test suite but the
# slow ones. GPU suites skip (reported as skipped) where no CUDA device is present.
set -euo pipefail
cd "$(dirname "$0")/.."
bash ci/install-deps.sh
bash ci/build.sh
ctest --test-dir build --output-on-failure -j "$(nproc)" -LE slow "$@"
