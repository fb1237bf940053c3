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
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "elsbench: installing ${missing[*]}"
  sudo=""
  if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
