#!/usr/bin/env bash
# Installs what elsbench needs on a Debian/Ubuntu machine, only what is missing.
# CUDA is optional: with nvcc on PATH (or in /usr/local/cuda/bin) the CUDA variants are built too.
set -euo pipefail
source "$(dirname "$0")/lib/apt.sh"
packages=(build-essential cmake ninja-build git libeigen3-dev libboost-test-dev libbenchmark-dev
          nlohmann-json3-dev libcli11-dev python3 python3-matplotlib python3-pytest
          python3-venv python3-dev   # the Python package (ci/python.sh: .venv, scikit-build-core, nanobind)
          python3-jsonschema           # tests/schema: docs/product.schema.json against the loader
          libopenmpi-dev openmpi-bin   # MPI: optional for the build, used by `book price` under mpirun
          ccache                       # ci/build.sh compiles through it: a second set-up recompiles nothing
          clang libclang-rt-dev libomp-dev)  # libFuzzer targets of the loaders (ci/fuzz.sh)
# Installed where apt has them: Debian's chromium runs the report's browser check (report.html
# opened headless, tests/support/browser_check.py). Ubuntu ships Chromium only as a snap
# (chromium-browser), which does not run in containers: there the browser test is skipped, except
# under CI, where it fails.
where_available=(chromium)
missing=()
for p in "${packages[@]}" "${where_available[@]}"; do
  apt_installed "$p" || missing+=("$p")
done
sudo=""
if ((${#missing[@]})) && [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
if ((${#missing[@]})); then
  $sudo apt-get update -qq
  for p in "${where_available[@]}"; do
    [[ " ${missing[*]} " == *" $p "* ]] || continue
    apt_candidate "$p" && continue
    echo "elsbench: $p is not available from apt here: going on without it (its tests are skipped outside CI)" >&2
    kept=()
    for m in "${missing[@]}"; do [ "$m" = "$p" ] || kept+=("$m"); done
    missing=("${kept[@]}")
  done
fi
if ((${#missing[@]})); then
  echo "elsbench: installing ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
