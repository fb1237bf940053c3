#!/usr/bin/env bash
# Configures and builds elsbench in build/ (Release; CUDA variants when nvcc is found):
#   bash ci/build.sh [TARGET...]        # every target when none is named
# Where ci/python.sh --env has made .venv (with nanobind), the same configure builds the Python
# module too, from the same objects as the CLI: a set-up compiles each source once, and
# ci/python.sh installs the package from this folder. Compiles through ccache where it is installed.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v nvcc >/dev/null && [ -x /usr/local/cuda/bin/nvcc ]; then export PATH=/usr/local/cuda/bin:$PATH; fi
flags=()
if [ -x .venv/bin/python ] && .venv/bin/python -c 'import nanobind' 2>/dev/null; then
  flags+=(-DELSBENCH_PYTHON=ON "-DPython_EXECUTABLE=$PWD/.venv/bin/python")
fi
if command -v ccache >/dev/null; then
  flags+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
cmake --preset release "${flags[@]}" >/dev/null
if (($#)); then
  cmake --build build -j "$(nproc)" --target "$@"
else
  cmake --build build -j "$(nproc)"
fi
