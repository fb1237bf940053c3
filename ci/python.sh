#!/usr/bin/env bash
# The Python package (python/elsbench) in a virtual environment .venv (Debian's Python refuses pip
# installs outside one):
#   bash ci/python.sh --env     # .venv with the package's build and test requirements from PyPI
#   bash ci/python.sh           # that, then the package built by scikit-build-core and installed
#   bash ci/python.sh --test    # its pytest suite (python/tests) against the CLI in build/
# Built in build/ when ci/build.sh configured it for Python (once .venv exists), the module links the
# CLI's own objects and nothing compiles twice; otherwise in build-python/, as `pip install .` does.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v nvcc >/dev/null && [ -x /usr/local/cuda/bin/nvcc ]; then export PATH=/usr/local/cuda/bin:$PATH; fi
mode=${1:-install}
case "$mode" in
  --env|install|--test) ;;
  *) echo "ci/python.sh: unknown option '$mode' (--env, --test, or nothing)" >&2; exit 2 ;;
esac
if [ "$mode" = --test ]; then
  exec env ELSBENCH_CLI="$PWD/build/elsbench" .venv/bin/python -m pytest -q -p no:cacheprovider python/tests
fi
[ -x .venv/bin/python ] || /usr/bin/python3 -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check \
  "scikit-build-core>=0.10" "nanobind>=2.4" numpy pandas tqdm pytest nbclient nbformat ipykernel matplotlib
[ "$mode" = --env ] && exit 0
build_dir=build-python
if [ "$(sed -n 's/^ELSBENCH_PYTHON:BOOL=//p' build/CMakeCache.txt 2>/dev/null)" = ON ]; then build_dir=build; fi
.venv/bin/python -m pip install -q --disable-pip-version-check --no-build-isolation \
  --config-settings=build-dir="$build_dir" .
echo "elsbench: the Python package is installed in .venv (source .venv/bin/activate; import elsbench)"
