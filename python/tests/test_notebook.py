"""The quickstart notebook runs from top to bottom (docs/examples/quickstart.ipynb)."""
import pathlib

import nbformat
from nbclient import NotebookClient

NOTEBOOK = pathlib.Path(__file__).resolve().parents[2] / "docs" / "examples" / "quickstart.ipynb"


def test_quickstart_runs(tmp_path):
    nb = nbformat.read(NOTEBOOK, as_version=4)
    NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    outputs = [o for cell in nb.cells if cell.cell_type == "code" for o in cell.get("outputs", [])]
    assert not [o for o in outputs if o.output_type == "error"]
    assert any(o.output_type == "display_data" and "image/png" in o.get("data", {}) for o in outputs)
