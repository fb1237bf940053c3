"""Progress bars for long calls: tqdm's notebook bar where ipywidgets is installed, else its text bar.
A bar appears only once a call has run for 0.1 s (the C++ side reports every 100 ms).

progress=None (the default) shows a bar where it reads well: a terminal, or a notebook that has
ipywidgets; a notebook without them stays quiet (a text bar there is a cell full of stderr) unless
progress=True asks for it. A pricing's total is its march steps, planned before it starts (every
grid of Richardson's value, the error bar and the Greeks); with target_error the grid is chosen
as it prices, so its bar counts steps and their rate without a total."""
from __future__ import annotations

import sys
from typing import Callable, Optional


def _has_widgets() -> bool:
    try:
        import ipywidgets  # noqa: F401  (tqdm.auto needs it in a notebook)
    except ImportError:
        return False
    return True


def _tqdm():
    if _has_widgets():
        from tqdm.auto import tqdm
    else:
        from tqdm.std import tqdm
    return tqdm


def wanted(progress: Optional[bool]) -> bool:
    """Whether a call shows a bar: as asked, else where it reads well."""
    if progress is not None:
        return bool(progress)
    if "ipykernel" in sys.modules:
        return _has_widgets()
    return sys.stderr.isatty()


class Bar:
    """Called as bar(done, total) by the extension; total 0: unknown."""

    def __init__(self, desc: str, unit: str):
        self.desc, self.unit, self.bar = desc, unit, None

    def __call__(self, done: int, total: int) -> None:
        if self.bar is None:
            # What was done before the bar appeared is its start, not a burst: its rate is the
            # true one from the first tick.
            self.bar = _tqdm()(desc=self.desc, unit=self.unit, total=total or None, initial=done, leave=False)
        if total and self.bar.total != total:
            self.bar.total = total
        self.bar.update(done - self.bar.n)

    def close(self, finished: bool) -> None:
        if self.bar is None:
            return
        if finished and self.bar.total:
            self.bar.update(self.bar.total - self.bar.n)
        self.bar.close()


class progress_bar:
    """with progress_bar(progress, desc, unit) as callback: callback is None when no bar is wanted."""

    def __init__(self, progress: Optional[bool], desc: str, unit: str):
        self.bar: Optional[Bar] = Bar(desc, unit) if wanted(progress) else None

    def __enter__(self) -> Optional[Callable[[int, int], None]]:
        return self.bar

    def __exit__(self, exc_type, *exc) -> None:
        if self.bar is not None:
            self.bar.close(exc_type is None)
