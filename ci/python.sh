#!/usr/bin/env bash
# The Python package (python/elsbench): a virtual environment .venv (Debian's Python refuses pip
# installs outside one) with the package's build and test requirements from PyPI, and the package
# built from this tree by scikit-build-core (in build-python/, kept between runs) and installed into
# it. With --test, then its pytest suite (python/tests: the CLI's answers to the bit, Ctrl-C, the
# quickstart notebook), against the CLI in build/.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v nvcc >/dev/null && [ -x /usr/local/cuda/bin/nvcc ]; then export PATH=/usr/local/cuda/bin:$PATH; fi
[ -x .venv/bin/python ] || /usr/bin/python3 -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check \
  "scikit-build-core>=0.10" "nanobind>=2.4" numpy pandas tqdm pytest nbclient nbformat ipykernel matplotlib
.venv/bin/python -m pip install -q --disable-pip-version-check --no-build-isolation --config-settings=build-dir=build-python .
echo "elsbench: the Python package is installed in .venv (source .venv/bin/activate; import elsbench)"
if [ "${1:-}" = --test ]; then
  ELSBENCH_CLI="$PWD/build/elsbench" .venv/bin/python -m pytest -q -p no:cacheprovider python/tests
fi
