#!/usr/bin/env bash
# Configures and builds elsbench in build/ (Release; CUDA variants when nvcc is found).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v nvcc >/dev/null && [ -x /usr/local/cuda/bin/nvcc ]; then export PATH=/usr/local/cuda/bin:$PATH; fi
cmake --preset release >/dev/null
cmake --build build -j "$(nproc)"
