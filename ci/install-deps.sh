#!/usr/bin/env bash
# Installs what elsbench needs on a Debian/Ubuntu machine, only what is missing.
# CUDA is optional: with nvcc on PATH (or in /usr/local/cuda/bin) the CUDA variants are built too.
set -euo pipefail
packages=(build-essential cmake ninja-build git libeigen3-dev libboost-test-dev libbenchmark-dev
          nlohmann-json3-dev libcli11-dev python3 python3-matplotlib python3-pytest
          python3-venv python3-dev   # the Python package (ci/python.sh: .venv, scikit-build-core, nanobind)
          python3-jsonschema           # tests/schema: docs/product.schema.json against the loader
          libopenmpi-dev openmpi-bin   # MPI: optional for the build, used by `book price` under mpirun
          clang libclang-rt-dev libomp-dev)  # libFuzzer targets of the loaders (ci/fuzz.sh)
# Installed where apt has them: Debian's chromium runs the report's browser check (report.html
# opened headless, harness/report/browser_check.py; its test fails under CI without it). Ubuntu
# ships Chromium only as a snap (chromium-browser), which does not run in containers, so a cloud
# machine (ci/cloud-sweep.sh) goes on without it.
where_available=(chromium)
missing=()
for p in "${packages[@]}" "${where_available[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=""
  if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
  $sudo apt-get update -qq
  for p in "${where_available[@]}"; do
    [[ " ${missing[*]} " == *" $p "* ]] || continue
    if ! apt-cache policy "$p" 2>/dev/null | grep -q '^ *Candidate: [^(]'; then
      echo "elsbench: $p is not available from apt here: going on without it" >&2
      kept=()
      for m in "${missing[@]}"; do [ "$m" = "$p" ] || kept+=("$m"); done
      missing=("${kept[@]}")
    fi
  done
fi
if ((${#missing[@]})); then
  echo "elsbench: installing ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
