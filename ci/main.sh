#!/usr/bin/env bash
# The README's main job: installs what is missing, builds, validates every solver against its
# references (quick preset) and prices the sample ELS.
set -euo pipefail
cd "$(dirname "$0")/.."
bash ci/install-deps.sh
bash ci/build.sh
./build/elsbench price --product sample-2a-stepdown --solver explicit --n 100 --nt auto
