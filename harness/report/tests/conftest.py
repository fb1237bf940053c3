"""The report is the package harness.report, imported from the source tree's root (pyproject.toml's
pytest pythonpath; render.py runs as its module, RENDER). Fixtures are the committed results files
in tests/data/results/."""
import os
import sys

sys.dont_write_bytecode = True
REPORT_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOT = os.path.dirname(os.path.dirname(REPORT_DIR))
FIXTURES = os.path.join(ROOT, "tests", "data", "results")
# The history is judged by elsbench compare: the build's binary unless ctest names one.
os.environ.setdefault("ELSBENCH_BIN", os.path.join(ROOT, "build", "elsbench"))
# render.py as `elsbench report` runs it, and the environment that finds the package.
RENDER = [sys.executable, "-m", "harness.report.render"]
RENDER_ENV = {**os.environ, "PYTHONPATH": ROOT}
