"""Books of notes: generate one, plan one, price one into a DataFrame (elsbench book generate|price)."""
from __future__ import annotations

import json
import os
import shlex
from typing import Any, Dict, Iterable, Optional, Tuple, Union

import pandas

from elsbench import _core
from elsbench._progress import progress_bar
from elsbench.note import Note, NoteLike, as_note
from elsbench.pricing import Nodes, grid_json, reference_spec
from elsbench.results import _formats, frame

_ASSETS = {"mixed": 0, 0: 0, 1: 1, 2: 2, 3: 3, "1": 1, "2": 2, "3": 3}


def template(name: str = "book.csv") -> str:
    """The path of a book template the project ships (products/templates/): "book.csv" (three notes,
    one of each size), "desk_book.csv" (a desk's 50 notes in calendar dates, with ISINs)."""
    path = os.path.join(_core.project_root(), "products", "templates", name)
    if not os.path.isfile(path):
        raise _core.BadInput(f"elsbench.book.template: field 'name': no template {name!r} in {os.path.dirname(path)}")
    return path


def generate(notes: int = 64, assets: Union[int, str] = "mixed", seed: int = 1,
             out: Optional[Union[str, os.PathLike]] = None, family: str = "issued") -> list:
    """Seasoned step-down ELS term sheets, the same as `elsbench book generate` for the same seed;
    with `out`, written there as JSON Lines too. family: "issued", "digital" (redemption barriers
    of 60-80 %, one date or many, coupons up to 40 %, half knocked in) "monthly" (monthly coupons) or "lizard" (a lizard on the next redemption date)."""
    if assets not in _ASSETS:
        raise _core.BadInput(f"elsbench.book.generate: field 'assets': expected 1, 2, 3 or 'mixed', got {assets!r}")
    products = _core.generate_book(notes, _ASSETS[assets], seed, family)
    if out is not None:
        with open(out, "w", encoding="utf-8") as f:
            f.write(_core.book_jsonl(products))
    return [Note._of(p) for p in products]


def price(notes: Union[str, os.PathLike, pandas.DataFrame, Iterable[NoteLike]], solver: str = "adi", n: Optional[Nodes] = None,
          nt: Optional[Union[int, str]] = None, device: str = "cpu", precision: str = "fp64",
          threads: Optional[int] = None, reference: Optional[str] = None, scheme: Optional[str] = None,
          strict: bool = False, out: Optional[Union[str, os.PathLike]] = None, progress: Optional[bool] = None,
          target_error: Optional[Union[str, float]] = None, greeks: bool = False, greek_units: str = "model",
          instance: Optional[str] = None, spot_shifts: Optional[Iterable[float]] = None,
          vol_shifts: Optional[Iterable[float]] = None, reference_store: Optional[str] = None,
          reference_target: Optional[float] = None, reference_budget: Optional[float] = None,
          reference_device: Optional[str] = None, tol: Optional[Union[str, float]] = None,
          max_seconds: Optional[float] = None, resume: bool = False,
          out_format: Optional[Union[str, Iterable[str]]] = None, **grid: Any) -> pandas.DataFrame:
    """Price a book as `elsbench book price BOOK --solver SOLVER --n N ...` does: one row per note
    (in book order) with the columns of its CSV (price, delta_1.., gamma_1.., status, line...).

    notes: a book file (JSON Lines or CSV), a pandas DataFrame in the CSV book layout (one note a
    row, the columns of products/templates/book.csv; row k is named as line k + 2), or notes (Note,
    dict or catalog id). A bad line does not spoil
    the book: it is listed in df.attrs["bad_lines"] (strict=True raises BadInput instead). With
    `out`, the results file (and its CSV) is written there as the CLI writes it; out_format is
    `--out-format` ("json,csv" or a list; json among them).
    n: nodes per axis for the whole book (a fixed grid, for benchmarks; as a GPU batch needs). Without
    n, nt or target_error each note is priced as `price` prices it by default: Richardson's value on
    the default grid (400, 144 or 80 nodes by its assets, 288 or 160 for two or three assets
    with no daily knock-in to come, and half as many), its error bar in error_bar and its grid in
    priced_n.
    target_error ("0.5bp" of the notional, or a price amount): each note on the grid that meets it
    (`book price --target-error`), its bar in error_bar and its grid in priced_n; a note that
    misses it is failed "unconverged" without a price. BadInput with n or nt.
    greeks: vega_1.., rho and theta per note besides delta and gamma (`book price --greeks`), in
    greek_units "model" (per unit vol, per unit rate, per year) or "desk" (per vol point, per basis
    point, per calendar day).
    spot_shifts, vol_shifts: a scenario ladder (`book price --spot-shifts/--vol-shifts`): every spot
    moved by each percentage, every vol by each number of points (0 added), each note priced again;
    df.attrs["scenarios"] is a DataFrame of product, spot_shift_pct, vol_points, price and pnl (the
    book's total as product "BOOK").
    reference_store, reference_target, reference_budget, reference_device, tol, max_seconds: as price's.
    resume: keep the notes already priced in `out` and price the rest (`book price --resume`).
    instance: the cloud instance this runs on ("aws:p5.48xlarge"), recorded for the report's cost
    (`book price --instance`): checked there against this machine, never priced unverified.
    """
    text, source = _book_text(notes)
    spec = reference_spec("book.price", reference, reference_store, reference_target, reference_budget,
                          reference_device, tol)
    grid_given = n is not None or nt is not None
    settings = [f"solver={solver!r}"] + ([f"n={n!r}"] if n is not None else []) + [f"device={device!r}",
                                                                                   f"precision={precision!r}"]
    if target_error is not None:
        settings.append(f"target_error={target_error!r}")
    if greeks:
        settings += ["greeks=True", f"greek_units={greek_units!r}"]
    if instance is not None:
        settings.append(f"instance={instance!r}")
    command = "elsbench.book.price(" + ", ".join([shlex.quote(source)] + settings) + ")"
    with progress_bar(progress, "pricing book", "notes") as bar:
        results, csv, ladder = _core.price_book(text, source, strict, solver, grid_json(n, nt, grid), scheme or "", device,
                                        precision, threads or 0, spec, os.fspath(out) if out else "", command,
                                        bar, grid_given, "" if target_error is None else str(target_error),
                                        bool(greeks), greek_units, instance or "", _shifts(spot_shifts),
                                        _shifts(vol_shifts), max_seconds or 0.0, bool(resume),
                                        _formats(out_format))
    df = frame(csv)
    book = json.loads(results)["context"]["elsbench"]["book"]
    df.attrs["bad_lines"] = book["bad_lines"]
    df.attrs["summary"] = book["summary"]
    if ladder:
        df.attrs["scenarios"] = frame(ladder)  # book price's FILE.scenarios.csv
    return df


def plan(notes: Union[str, os.PathLike, pandas.DataFrame, Iterable[NoteLike]], solver: str = "adi",
         n: Optional[Nodes] = None, nt: Optional[Union[int, str]] = None, device: str = "cpu",
         precision: str = "fp64", threads: Optional[int] = None, scheme: Optional[str] = None,
         target_error: Optional[Union[str, float]] = None, **grid: Any) -> Dict[str, Any]:
    """What `book price --dry-run` says of a book before any pricing, for price's grid arguments
    (those below; its others, greeks or references, do not change the plan and are not taken):
    notes, bad_lines, by_assets (one, two, three underlyings), refused, work (point-layer-steps),
    parallel (threads or devices), and the seconds of marching at the rates the project measured
    (docs/books.md): expected_seconds at each grid's own rate, low_seconds and high_seconds at the
    fastest and slowest; with target_error low_seconds alone, a lower bound (each note's grid is
    chosen after its pilot); None where no rate was measured. text is the CLI's plan.
    """
    text, source = _book_text(notes)
    planned = _core.plan_book(text, source, solver, grid_json(n, nt, grid), scheme or "", device, precision,
                              threads or 0, n is not None or nt is not None,
                              "" if target_error is None else str(target_error))
    return json.loads(planned)


def _book_text(notes: Union[str, os.PathLike, pandas.DataFrame, Iterable[NoteLike]]) -> Tuple[Optional[str], str]:
    """A book as the core reads it: (None, its file) or (its JSON Lines or CSV text, a name)."""
    if isinstance(notes, (str, os.PathLike)):
        return None, os.fspath(notes)
    if isinstance(notes, pandas.DataFrame):
        # A term-sheet table: the CSV book layout (docs/books.md), row k on line k + 2.
        return notes.to_csv(index=False), "<DataFrame>"
    return "".join(as_note(n).to_json() + "\n" for n in notes), "<notes>"


def _shifts(shifts: Optional[Iterable[float]]) -> str:
    return "" if shifts is None else ",".join(repr(float(x)) for x in shifts)

