"""Ctrl-C stops a long pricing within a second, and the GIL is free while it runs."""
import os
import signal
import threading
import time

import pytest

import elsbench


@pytest.fixture(autouse=True)
def ctrl_c_raises():
    """Python raises KeyboardInterrupt on SIGINT unless it started with SIGINT ignored, as a job
    started in the background by a shell without job control does (a CI runner may): these tests
    are about a user's Ctrl-C, so they put Python's own handler in place for their time."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


def interrupted_after(seconds, call):
    """Runs call() with a SIGINT sent `seconds` in; returns how long the KeyboardInterrupt took to come."""
    sent = []
    timer = threading.Timer(seconds, lambda: (sent.append(time.perf_counter()), os.kill(os.getpid(), signal.SIGINT)))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            call()
    finally:
        timer.cancel()
    assert sent, "the call ended before the signal"
    return time.perf_counter() - sent[0]


@pytest.mark.parametrize("solver,threads", [("explicit", 1), ("adi", 1), ("adi", 2)])
def test_ctrl_c_stops_a_pricing_within_a_second(solver, threads):
    # Tens of seconds of work at full speed (explicit: its stable step, some 68,000 of them).
    n, nt = {"explicit": (400, None), "adi": (1200, 4000)}[solver]
    late = interrupted_after(0.5, lambda: elsbench.price("sample-2a-stepdown", solver=solver, n=n, nt=nt,
                                                         threads=threads, progress=False))
    assert late < 1.0
    # The stop is over: the next pricing runs to its end.
    assert elsbench.price("european-call", n=60, progress=False).price > 0


def test_ctrl_c_stops_a_book_and_takes_no_further_note(tmp_path):
    notes = elsbench.book.generate(40, assets=2, seed=3)
    out = tmp_path / "book.json"
    late = interrupted_after(1.0, lambda: elsbench.book.price(notes, n=120, threads=1, out=out, progress=False))
    assert late < 1.0
    kept = elsbench.results.load(out)  # whole, holding only notes priced to their end
    assert 0 < len(kept) < 40 and kept["price"].notna().all()


def test_the_gil_is_free_while_pricing():
    ticks = []
    stop = threading.Event()

    def tick():
        while not stop.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0.01)

    t = threading.Thread(target=tick)
    t.start()
    r = elsbench.price("sample-2a-stepdown", n=300, threads=1, progress=False)
    stop.set()
    t.join()
    during = [x for x in ticks if x < ticks[0] + r.seconds]
    assert r.seconds > 0.3 and len(during) >= 0.5 * r.seconds / 0.01


def test_max_seconds_stops_a_pricing_at_its_limit():
    start = time.perf_counter()
    with pytest.raises(elsbench.SolverError, match=r"--max-seconds") as e:
        elsbench.price("european-call", solver="cn-direct", n=40, nt=10_000_000, max_seconds=0.5, progress=False)
    assert e.value.kind == "too-much-work" and time.perf_counter() - start < 2.0


def test_ctrl_c_stops_a_monte_carlo_reference_within_a_second():
    # It ran on to the end: interrupted at 0.7 s, 4,000,000 paths raised at 5.0 s.
    late = interrupted_after(0.5, lambda: elsbench.reference("els-1a-stepdown", paths=40_000_000, threads=1))
    assert late < 1.0
    assert elsbench.reference("european-call", paths=10_000).price > 0
