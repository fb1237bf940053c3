"""elsbench report: results files of several machines merged into plots, report.md and report.html
(render.py, run as `python3 -m harness.report.render`)."""
