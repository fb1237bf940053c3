"""Writes products/templates/desk_book.csv: a desk's book of 50 live Korean step-down ELS as a desk
keeps it, in the CSV book layout (docs/books.md): ISINs, desk tags, notionals in won, calendar
dates from a valuation date (autocall dates every four or six months from each note's issue,
rolled to the next Korea Exchange trading day), the knock-in monitored on the exchange's trading
days, two of five index underlyings. Made up, not market data: the same file for the
same seed.

    python3 products/templates/make_desk_book.py
"""
import datetime
import pathlib
import random

HERE = pathlib.Path(__file__).resolve().parent
VALUATION = datetime.date(2026, 11, 27)
SEED = 20261127
# name, level at the valuation date, vol, dividend yield
INDICES = [("KOSPI200", 395.0, 0.24, 0.018), ("SX5E", 5650.0, 0.19, 0.031), ("NKY", 49800.0, 0.22, 0.017),
           ("SPX", 6720.0, 0.18, 0.013), ("HSCEI", 9300.0, 0.28, 0.036)]
CORRELATION = {("KOSPI200", "SX5E"): 0.45, ("KOSPI200", "NKY"): 0.55, ("KOSPI200", "SPX"): 0.4,
               ("KOSPI200", "HSCEI"): 0.6, ("SX5E", "NKY"): 0.5, ("SX5E", "SPX"): 0.65, ("SX5E", "HSCEI"): 0.4,
               ("NKY", "SPX"): 0.5, ("NKY", "HSCEI"): 0.45, ("SPX", "HSCEI"): 0.35}
SCHEDULES = {6: [0.90, 0.90, 0.85, 0.85, 0.80, 0.75], 4: [0.90, 0.90, 0.85, 0.85, 0.85, 0.80, 0.80, 0.75, 0.70]}


def holidays() -> set:
    days = set()
    for line in (HERE.parent / "calendars" / "krx.txt").read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            days.add(datetime.date.fromisoformat(line[:10]))
    return days


def trading_day(d: datetime.date, closed: set) -> datetime.date:
    while d.weekday() >= 5 or d in closed:
        d += datetime.timedelta(days=1)
    return d


def add_months(d: datetime.date, months: int) -> datetime.date:
    y, m = divmod(d.month - 1 + months, 12)
    year, month = d.year + y, m + 1
    last = (datetime.date(year + month // 12, month % 12 + 1, 1) - datetime.timedelta(days=1)).day
    return datetime.date(year, month, min(d.day, last))


def isin(body: str) -> str:
    """ISO 6166: letters as 10..35, then the Luhn check digit of the digits."""
    digits = "".join(str(int(c, 36)) for c in body)
    total = 0
    for i, c in enumerate(reversed(digits)):
        v = int(c) * (2 if i % 2 == 0 else 1)
        total += v // 10 + v % 10
    return body + str((10 - total % 10) % 10)


def note(k: int, rng: random.Random, closed: set) -> dict:
    months = rng.choice([6, 6, 4])
    barriers = SCHEDULES[months]
    issued = VALUATION - datetime.timedelta(days=rng.randint(20, 900))
    names = rng.sample([i[0] for i in INDICES], 2)
    coupon_pa = rng.choice([0.062, 0.068, 0.074, 0.08, 0.086, 0.095, 0.104])
    row = {"id": f"ELS-{26000 + 37 * k}", "isin": isin(f"KR6{(4400000 + 173 * k):08d}"),
           "tags": f"EQD-Seoul;{rng.choice(['kim', 'lee', 'park', 'choi'])}", "notional": 100_000_000 * rng.choice([5, 10, 20, 30, 50]),
           "rate": 0.028, "performance": "worst-of", "valuation_date": VALUATION.isoformat()}
    level = {i[0]: i for i in INDICES}
    for a, name in enumerate(names, 1):
        _, spot, vol, q = level[name]
        row[f"underlying_{a}_name"] = name
        row[f"underlying_{a}_spot"] = spot
        row[f"underlying_{a}_reference"] = round(spot / rng.uniform(0.72, 1.25), 2)  # its level at issue
        row[f"underlying_{a}_vol"] = round(vol + rng.uniform(-0.02, 0.03), 3)
        row[f"underlying_{a}_div_yield"] = q
    for i in range(len(names)):
        for j in range(i + 1, len(names)):
            pair = (names[i], names[j]) if (names[i], names[j]) in CORRELATION else (names[j], names[i])
            row[f"correlation_{i + 1}_{j + 1}"] = CORRELATION[pair]
    row["knock_in_barrier"] = rng.choice([0.45, 0.5, 0.55, 0.6])
    row["knock_in_monitoring"] = "daily"
    row["knock_in_calendar"] = "krx"
    row["knocked_in"] = "true" if rng.random() < 0.12 else "false"
    live = 0
    for i, barrier in enumerate(barriers, 1):
        date = trading_day(add_months(issued, months * i), closed)
        if date <= VALUATION:
            continue  # observed already and not called: the note is alive
        live += 1
        row[f"autocall_{live}_date"] = date.isoformat()
        row[f"autocall_{live}_barrier"] = barrier
        row[f"autocall_{live}_coupon"] = round(coupon_pa * months * i / 12, 6)
    row["dummy_coupon"] = round(coupon_pa * months * len(barriers) / 12, 6)
    return row


def main() -> None:
    rng = random.Random(SEED)
    closed = holidays()
    rows = [note(k, rng, closed) for k in range(1, 51)]
    header = ["id", "isin", "tags", "notional", "rate", "performance", "valuation_date", "dummy_coupon", "knocked_in"]
    header += [f"underlying_{a}_{f}" for a in (1, 2, 3) for f in ("name", "spot", "reference", "vol", "div_yield")]
    header += ["correlation_1_2", "correlation_1_3", "correlation_2_3", "knock_in_barrier", "knock_in_monitoring",
               "knock_in_calendar"]
    header += [f"autocall_{k}_{f}" for k in range(1, 10) for f in ("date", "barrier", "coupon")]
    lines = [",".join(header)] + [",".join(str(r.get(c, "")) for c in header) for r in rows]
    (HERE / "desk_book.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
