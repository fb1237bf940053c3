#!/usr/bin/env bash
# The README's main job: installs what is missing, builds, validates every solver against its
# references (quick preset; exit non-zero if a case fails), prices the sample ELS, runs the quick
# sweep, and builds the Python package into .venv (ci/python.sh), pricing the sample from it.
# Ends by rendering the report of the quick sweep, a small book sweep and the committed results
# files (every machine's, results/<machine>/*.json), with each case's history across the runs under
# results/, into results/report/ (ci/report.sh) and printing its path.
set -euo pipefail
cd "$(dirname "$0")/.."
sweep_log=$(mktemp)
trap 'rm -f "$sweep_log"' EXIT
bash ci/install-deps.sh
bash ci/build.sh
./build/elsbench list solvers
./build/elsbench validate --preset quick
./build/elsbench price --product sample-2a-stepdown --solver adi
./build/elsbench sweep --preset quick | tee "$sweep_log"
quick=$(sed -n 's/^results: //p' "$sweep_log" | head -n 1)  # results/<machine>/<date>-<commit>.json
[ -f "$quick" ] || { echo "ci/main.sh: the quick sweep named no results file" >&2; exit 1; }
# Book throughput against book size on this machine's cores: the sample at n = 32 as books of 1,
# 4 and 16 notes on adi (solvers and devices named: the preset's GPU group becomes the same CPU one).
./build/elsbench sweep --preset book --solvers adi --n 32 --book 1,4,16 --devices cpu | tee "$sweep_log"
books=$(sed -n 's/^results: //p' "$sweep_log" | head -n 1)
[ -f "$books" ] || { echo "ci/main.sh: the book sweep named no results file" >&2; exit 1; }
bash ci/python.sh
.venv/bin/python -c "import elsbench; print(elsbench.price('sample-2a-stepdown', progress=False))"
bash ci/report.sh "$quick" "$books"
