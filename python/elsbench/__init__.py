"""elsbench from Python: the same C++ pricers, checks and results as the `elsbench` command.

    import elsbench
    r = elsbench.price("sample-2a-stepdown")          # adi, n = 200, the default time grid
    r.price, r.delta, r.seconds
    note = elsbench.Note({...})                       # a note as a dict, checked by the same loader
    elsbench.price(note, reference="auto").verdict    # pass or fail against its reference
    elsbench.book.price(elsbench.book.generate(16))   # a pandas.DataFrame, the CSV's columns
    elsbench.results.load("results/.../x.json")       # any results file as a DataFrame

Bad input raises elsbench.BadInput (a ValueError) naming the field as the CLI does; a pricing the
solver cannot do raises elsbench.SolverError with its kind. Long calls release the GIL, show a
progress bar (progress=False: none), and stop within a second on Ctrl-C (KeyboardInterrupt).
"""
import os

# Passive OpenMP waits unless the user chose active or passive (as the CLI, harness/cli/main.cpp;
# an empty or other value counts as unset): spinning threads starve other work on a shared
# machine. The runtime reads this once, when the extension loads it.
if os.environ.get("OMP_WAIT_POLICY", "").lower() not in ("active", "passive"):
    os.environ["OMP_WAIT_POLICY"] = "passive"

from elsbench._core import BadInput, SolverError  # noqa: E402  (after the wait policy is set)
from elsbench.note import Note
from elsbench.pricing import PriceResult, Reference, price, reference
from elsbench.machine import devices, solvers
from elsbench.sweeps import sweep
from elsbench.validation import validate
from elsbench import book, compat, results

__version__ = "0.1.0"
__all__ = ["BadInput", "SolverError", "Note", "PriceResult", "Reference", "price", "reference", "devices",
           "solvers", "sweep", "validate", "book", "compat", "results"]
