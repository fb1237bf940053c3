#!/usr/bin/env bash
# The README's main job: installs what is missing, builds, validates every solver against its
# references (quick preset; exit non-zero if a case fails) and prices the sample ELS.
set -euo pipefail
cd "$(dirname "$0")/.."
bash ci/install-deps.sh
bash ci/build.sh
./build/elsbench list solvers
./build/elsbench validate --preset quick
./build/elsbench price --product sample-2a-stepdown --solver adi --n 200 --nt 1000
./build/elsbench sweep --preset quick
