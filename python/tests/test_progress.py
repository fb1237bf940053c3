"""The progress bar (elsbench/_progress.py): quiet in a notebook without widgets unless asked, its
rate counted from where it appeared (not a first tick of millions of steps a second), its total
known before the pricing starts, and at 100 % when the call ended well."""
import sys

import elsbench
from elsbench import _progress


class FakeTqdm:
    made = []

    def __init__(self, desc, unit, total, initial, leave):
        self.totals = []
        self.total, self.n, self.initial, self.closed = total, initial, initial, False
        FakeTqdm.made.append(self)

    @property
    def total(self):
        return self.totals[-1]

    @total.setter
    def total(self, value):
        self.totals.append(value)

    def update(self, k):
        self.n += k

    def close(self):
        self.closed = True


def test_a_notebook_without_widgets_stays_quiet_unless_asked(monkeypatch):
    monkeypatch.setitem(sys.modules, "ipykernel", object())
    monkeypatch.setattr(_progress, "_has_widgets", lambda: False)
    assert not _progress.wanted(None)
    assert _progress.wanted(True) and not _progress.wanted(False)
    monkeypatch.setattr(_progress, "_has_widgets", lambda: True)
    assert _progress.wanted(None)


def test_the_bar_starts_where_it_appears_follows_its_total_and_ends_full(monkeypatch):
    monkeypatch.setattr(_progress, "_tqdm", lambda: FakeTqdm)
    FakeTqdm.made.clear()
    with _progress.progress_bar(True, "pricing", "steps") as bar:
        bar(5000, 10000)
        bar(7000, 20000)  # a second grid planned
    made = FakeTqdm.made[0]
    assert made.initial == 5000  # the work before the bar is its start, not a burst of rate
    assert made.total == 20000 and made.n == 20000 and made.closed
    FakeTqdm.made.clear()
    try:
        with _progress.progress_bar(True, "pricing", "steps") as bar:
            bar(100, 1000)
            raise KeyboardInterrupt
    except KeyboardInterrupt:
        pass
    assert FakeTqdm.made[0].n == 100  # stopped: left where it was


def test_a_pricings_total_is_known_when_its_bar_appears(monkeypatch):
    # Richardson's two grids, the error bar's coarser, time and domain grids: every step planned
    # before the first is marched (the total grew 2,266 -> 4,532 -> 14,352 while it ran).
    monkeypatch.setattr(_progress, "_tqdm", lambda: FakeTqdm)
    FakeTqdm.made.clear()
    elsbench.price("sample-2a-stepdown", error_estimate=True, threads=2, progress=True)
    made = FakeTqdm.made[0]
    assert len(set(made.totals)) == 1 and made.totals[0] > 0
    assert made.n == made.total and made.closed
