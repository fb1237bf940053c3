#!/usr/bin/env bash
# The README's main job: installs what is missing, builds, validates every solver against its
# references (quick preset; exit non-zero if a case fails), prices the sample ELS, runs the quick
# sweep, and builds the Python package into .venv (ci/python.sh), pricing the sample from it.
set -euo pipefail
cd "$(dirname "$0")/.."
bash ci/install-deps.sh
bash ci/build.sh
./build/elsbench list solvers
./build/elsbench validate --preset quick
./build/elsbench price --product sample-2a-stepdown --solver adi --n 200 --nt 1000
./build/elsbench sweep --preset quick
bash ci/python.sh
.venv/bin/python -c "import elsbench; print(elsbench.price('sample-2a-stepdown', n=200, nt=1000, progress=False))"
