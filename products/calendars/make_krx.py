"""Writes products/calendars/krx.txt: the Korea Exchange's weekday holidays (the days its market
is closed besides weekends), from the `holidays` package's XKRX calendar (PyPI; lunar holidays,
substitute holidays, Labor Day and the year-end closing included). Run by hand when the years
must grow; elsbench reads the file it wrote, never the package.

    python3 -m venv /tmp/h && /tmp/h/bin/pip install holidays && /tmp/h/bin/python products/calendars/make_krx.py
"""
import datetime
import pathlib

import holidays

FIRST, LAST = 2020, 2040


def main() -> None:
    days = holidays.financial_holidays("XKRX", years=range(FIRST, LAST + 1))
    weekdays = sorted(d for d in days if d.weekday() < 5)
    out = pathlib.Path(__file__).with_name("krx.txt")
    lines = [f"# Korea Exchange (XKRX) weekday holidays {FIRST}-{LAST}: holidays {holidays.__version__}, "
             f"financial_holidays('XKRX'), written {datetime.date.today().isoformat()} by make_krx.py",
             f"# years {FIRST} {LAST}"]
    lines += [f"{d.isoformat()} {days[d]}" for d in weekdays]
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
