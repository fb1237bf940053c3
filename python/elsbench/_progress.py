"""Progress bars for long calls: tqdm's notebook bar where ipywidgets is installed, else its text bar.
A bar appears only once a call has run for 0.1 s (the C++ side reports every 100 ms)."""
from __future__ import annotations

from typing import Callable, Optional


def _tqdm():
    try:
        import ipywidgets  # noqa: F401  (tqdm.auto needs it in a notebook)
        from tqdm.auto import tqdm
    except ImportError:
        from tqdm.std import tqdm
    return tqdm


class Bar:
    """Called as bar(done, total) by the extension; total 0: unknown."""

    def __init__(self, desc: str, unit: str):
        self.desc, self.unit, self.bar = desc, unit, None

    def __call__(self, done: int, total: int) -> None:
        if self.bar is None:
            self.bar = _tqdm()(desc=self.desc, unit=self.unit, total=total or None, leave=False)
        if total and self.bar.total != total:
            self.bar.total = total
        self.bar.n = done
        self.bar.refresh()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


class progress_bar:
    """with progress_bar(enabled, desc, unit) as callback: callback is None when disabled."""

    def __init__(self, enabled: bool, desc: str, unit: str):
        self.bar: Optional[Bar] = Bar(desc, unit) if enabled else None

    def __enter__(self) -> Optional[Callable[[int, int], None]]:
        return self.bar

    def __exit__(self, *exc) -> None:
        if self.bar is not None:
            self.bar.close()
