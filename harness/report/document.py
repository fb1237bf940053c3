"""report.md and report.html from the same sections: headings, text, one figure, tables."""
from __future__ import annotations

import base64
import html
import os
from dataclasses import dataclass, field
from string import Template

from .formatting import readable
from .tables import Table

TEMPLATES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "templates")


@dataclass
class Section:
    heading: str
    text: list[str] = field(default_factory=list)  # paragraphs, plain text
    figure: dict | None = None                      # {'png': path, 'svg': path}
    tables: list[Table] = field(default_factory=list)


def _template(name: str) -> Template:
    with open(os.path.join(TEMPLATES, name), encoding="utf-8") as f:
        return Template(f.read())


# Text from results files (a host name, a command, a note's id) is shown as text, never as markup:
# a hostname "<img src=x onerror=...>" was copied into report.md as HTML.
_MD_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", "\\": "\\\\", "`": "\\`", "*": "\\*",
                             "_": "\\_", "[": "\\[", "]": "\\]", "|": "\\|", "~": "\\~", "#": "\\#"})


def md_text(text) -> str:
    return str(text).translate(_MD_ESCAPES).replace("\n", " ")


def markdown_table(t: Table) -> str:
    lines = [f"**{md_text(t.caption)}**", ""] if t.caption else []
    lines += ["| " + " | ".join(md_text(h) for h in t.headers) + " |", "|" + "---|" * len(t.headers)]
    lines += ["| " + " | ".join(md_text(c) for c in row) + " |" for row in t.rows]
    return "\n".join(lines)


def html_table(t: Table) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in t.headers)
    body = "\n".join("<tr>" + "".join(f"<td class=\"{_css_class(c)}\">{html.escape(str(c))}</td>" for c in row) + "</tr>"
                     for row in t.rows)
    caption = f"<caption>{html.escape(t.caption)}</caption>" if t.caption else ""
    return f"<table>{caption}\n<thead><tr>{head}</tr></thead>\n<tbody>\n{body}\n</tbody>\n</table>"


def _css_class(cell) -> str:
    text = str(cell)
    if text == "PASS":
        return "pass"
    if text in ("FAIL", "UNCONVERGED") or text.startswith("NOISY"):
        return "fail"
    if text == "not measured" or text.startswith("skipped"):
        return "muted"
    return ""


def _data_uri(svg_path: str) -> str:
    with open(svg_path, "rb") as f:
        return "data:image/svg+xml;base64," + base64.b64encode(f.read()).decode("ascii")


def write_markdown(path: str, title: str, sections: list[Section]):
    parts = []
    for s in sections:
        parts.append(f"## {md_text(s.heading)}")
        parts += [md_text(p) for p in s.text]
        if s.figure:
            stem = os.path.basename(s.figure["png"])
            parts.append(f"![{md_text(s.heading)}]({stem}) ([SVG]({os.path.basename(s.figure['svg'])}))")
        parts += [markdown_table(t) for t in s.tables if t.rows]
    with open(path, "w", encoding="utf-8") as f:
        f.write(readable(_template("report.md.in").substitute(title=md_text(title), body="\n\n".join(parts))))


def write_html(path: str, title: str, sections: list[Section]):
    """Self-contained: the figures are embedded as SVG data URIs, the page loads nothing else."""
    parts = []
    for s in sections:
        parts.append(f"<h2>{html.escape(s.heading)}</h2>")
        parts += [f"<p>{html.escape(p)}</p>" for p in s.text]
        if s.figure:
            parts.append(f"<figure><img alt=\"{html.escape(s.heading)}\" src=\"{_data_uri(s.figure['svg'])}\"></figure>")
        parts += [f"<div class=\"scroll\">{html_table(t)}</div>" for t in s.tables if t.rows]
    with open(path, "w", encoding="utf-8") as f:
        f.write(readable(_template("report.html.in").substitute(title=html.escape(title), body="\n".join(parts))))
