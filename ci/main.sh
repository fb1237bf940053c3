#!/usr/bin/env bash
# The README's main job: installs what is missing, builds the CLI and the Python module (one
# compile of each source), validates every solver against its references (quick preset; exit
# non-zero if a case fails), prices the sample ELS, runs the quick sweep and a small book sweep into
# build/main/, installs the Python package into .venv and prices the sample from it, renders the
# report of both sweeps and of the committed results into build/report/ (ci/report.sh), and ends
# with the time each phase took. It writes nothing that git tracks or sees (docs/reports.md, The
# main job's report).
set -euo pipefail
cd "$(dirname "$0")/.."
source ci/lib/phases.sh
phases_report_at_exit ci/main.sh
mkdir -p build
sweep_log=build/main-sweep.log

results_of() {  # the results file a sweep's log names
  local file
  file=$(sed -n 's/^results: //p' "$sweep_log" | sed -n 1p)
  [ -f "$file" ] || { echo "ci/main.sh: the $1 named no results file" >&2; return 1; }
  echo "$file"
}

phase "install packages" bash ci/install-deps.sh
phase "python environment" bash ci/python.sh --env
phase "configure and build" bash ci/build.sh elsbench _core
./build/elsbench list solvers
phase "validate (quick)" ./build/elsbench validate --preset quick
phase "price the sample" ./build/elsbench price --product sample-2a-stepdown --solver adi
phase "quick sweep" ./build/elsbench sweep --preset quick --out build/main/quick.json >"$sweep_log"
cat "$sweep_log"
quick=$(results_of "quick sweep")
# Book throughput against book size on this machine's cores: the sample at n = 32 as books of 1,
# 4 and 16 notes on adi (solvers and devices named: the preset's GPU group becomes the same CPU one).
phase "book sweep" ./build/elsbench sweep --preset book --solvers adi --n 32 --book 1,4,16 --devices cpu \
  --out build/main/books.json >"$sweep_log"
cat "$sweep_log"
books=$(results_of "book sweep")
phase "python package" bash ci/python.sh
phase "price from python" .venv/bin/python -c "import elsbench; print(elsbench.price('sample-2a-stepdown', progress=False))"
phase report bash ci/report.sh --out build/report "$quick" "$books"
