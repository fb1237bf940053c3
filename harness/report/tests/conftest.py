"""The report's modules import each other by name (render.py puts its folder on sys.path): so do
the tests. Fixtures are the committed results files in tests/data/results/."""
import os
import sys

sys.dont_write_bytecode = True
REPORT_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOT = os.path.dirname(os.path.dirname(REPORT_DIR))
sys.path.insert(0, REPORT_DIR)

FIXTURES = os.path.join(ROOT, "tests", "data", "results")
