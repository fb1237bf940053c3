#!/usr/bin/env python3
"""elsbench browser check: opens a rendered report.html in headless Chromium and checks that a
person would see a whole report: every image loaded, no console error, no uncaught exception, no
failed resource, and every section holds content (text, a figure or a table with rows).

    python3 tests/support/browser_check.py results/report/report.html [--screenshot PNG]
        [--section HEADING | --sections DIR] [--width 1280] [--max-height PX] [--timeout 60] [--chromium PATH]

Exit 0 when the page passes, 1 naming each failing image, section, console message or resource,
2 when the check could not be run (no Chromium, the browser failed to start or timed out).

Pure standard library: Chromium is driven over the DevTools protocol on --remote-debugging-pipe
(the browser reads commands on its fd 3 and writes replies and events on its fd 4, one JSON
message each, NUL-terminated), in a fresh temporary profile that is removed afterwards; the
browser's whole process group is ended on every path out. Chromium comes from Debian's `chromium`
package (ci/install-deps.sh); --chromium or $ELSBENCH_CHROMIUM names another build.
"""
from __future__ import annotations

import argparse
import base64
import fcntl
import json
import os
import pathlib
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field

CANDIDATES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")

# Run in the page once it has loaded: the images (with inline SVGs) and the sections, as plain
# data. A section is a heading h2 and what follows it up to the next h2 (document.py's layout), or
# the <section> element that holds the heading where a page groups them so.
PAGE_SCRIPT = r"""
(async () => {
  const imgs = Array.from(document.images);
  await Promise.all(imgs.map(img => img.complete ? null :
      new Promise(done => { img.addEventListener('load', done); img.addEventListener('error', done);
                            setTimeout(done, 5000); })));
  const describe = s => (s.length > 80 ? s.slice(0, 77) + '...' : s);
  const images = imgs.map(img => ({
    kind: 'img', alt: img.alt || '', src: describe(img.getAttribute('src') || ''),
    loaded: img.complete && img.naturalWidth > 0 && img.naturalHeight > 0,
    width: img.naturalWidth, height: img.naturalHeight }));
  for (const svg of document.querySelectorAll('svg')) {
    if (svg.parentElement && svg.parentElement.closest('svg')) continue;
    const box = svg.getBoundingClientRect();
    images.push({ kind: 'svg', alt: svg.getAttribute('aria-label') || '', src: '<svg>',
                  loaded: box.width > 0 && box.height > 0 && svg.childElementCount > 0,
                  width: Math.round(box.width), height: Math.round(box.height) });
  }
  const content = nodes => {
    let text = 0, figures = 0, tables = 0;
    for (const n of nodes) {
      if (n.nodeType === Node.TEXT_NODE) { text += n.textContent.trim().length; continue; }
      if (n.nodeType !== Node.ELEMENT_NODE) continue;
      const el = n;
      const pictures = (el.matches('img, svg') ? [el] : []).concat(Array.from(el.querySelectorAll('img, svg')));
      figures += pictures.filter(p => p.tagName.toLowerCase() !== 'svg' || !p.parentElement.closest('svg')).length;
      const tabs = (el.matches('table') ? [el] : []).concat(Array.from(el.querySelectorAll('table')));
      tables += tabs.filter(t => t.querySelectorAll('tbody tr, tr td').length > 0).length;
      if (!el.matches('table, svg, figure') && !el.querySelector('table, svg, img')) text += el.innerText.trim().length;
    }
    return { text, figures, tables };
  };
  const sections = [];
  for (const h of document.querySelectorAll('h2')) {
    const holder = h.parentElement.closest('section');
    let nodes = [];
    if (holder) {
      nodes = Array.from(holder.childNodes).filter(n => n !== h);
    } else {
      for (let n = h.nextSibling; n && !(n.nodeType === Node.ELEMENT_NODE && n.matches('h1, h2')); n = n.nextSibling)
        nodes.push(n);
    }
    sections.push(Object.assign({ heading: h.innerText.trim() }, content(nodes)));
  }
  return { title: document.title, images, sections,
           width: document.documentElement.scrollWidth, height: document.documentElement.scrollHeight };
})()
"""


# The page's vertical span of one section, for a screenshot of it: from a little above its heading
# down to the next h2 (or the end of the page); null when no h2 has that text.
SECTION_SCRIPT = r"""
(() => {
  const headings = Array.from(document.querySelectorAll('h2'));
  const i = headings.findIndex(h => h.innerText.trim() === %s);
  if (i < 0) return null;
  const y = el => el.getBoundingClientRect().top + window.scrollY;
  const end = i + 1 < headings.length ? y(headings[i + 1]) : document.documentElement.scrollHeight;
  return [Math.max(0, y(headings[i]) - 12), end];
})()
"""


class CheckError(Exception):
    """The check could not be run: no browser, the browser failed, or it ran past the timeout."""


@dataclass
class Result:
    page: str
    images: list = field(default_factory=list)
    sections: list = field(default_factory=list)
    console: list = field(default_factory=list)   # console errors and uncaught exceptions, as text
    resources: list = field(default_factory=list)  # failed loads, as text
    title: str = ""
    screenshots: list = field(default_factory=list)  # the PNGs written

    @property
    def problems(self) -> list[str]:
        out = []
        for img in self.images:
            if not img["loaded"]:
                name = f"alt \"{img['alt']}\", " if img["alt"] else ""
                out.append(f"image not loaded ({img['kind']}, {name}src {img['src']}): "
                           f"natural size {img['width']}x{img['height']}")
        if not self.sections:
            out.append("no section (no <h2> heading) in the page")
        for s in self.sections:
            if not (s["text"] or s["figures"] or s["tables"]):
                out.append(f"section \"{s['heading']}\" is empty: no text, figure or table with rows")
        out += [f"console: {m}" for m in self.console]
        out += [f"resource failed: {m}" for m in self.resources]
        return out

    def summary(self) -> str:
        loaded = sum(1 for i in self.images if i["loaded"])
        return (f"{self.page}: {len(self.sections)} sections, {loaded}/{len(self.images)} images loaded, "
                f"{len(self.console)} console errors, {len(self.resources)} failed resources")


def find_chromium(explicit: str | None = None) -> str | None:
    """The Chromium to run: explicit, then $ELSBENCH_CHROMIUM, then the usual names on PATH."""
    for name in (explicit, os.environ.get("ELSBENCH_CHROMIUM"), *CANDIDATES):
        if name:
            path = shutil.which(name)
            if path or explicit:
                return path
    return None


def _high_fd(fd: int) -> int:
    """fd moved above 9, close-on-exec, so that dup2 onto 3 and 4 in the child never lands on it."""
    high = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10)
    os.close(fd)
    return high


class Browser:
    """A headless Chromium on --remote-debugging-pipe; a context manager that always ends it."""

    def __init__(self, chromium: str, deadline: float, width: int = 1280, height: int = 900):
        self.deadline = deadline
        self.timeout = deadline - time.monotonic()
        self.profile = tempfile.mkdtemp(prefix="elsbench-chromium-")
        self.log = tempfile.TemporaryFile(prefix="elsbench-chromium-", suffix=".log")
        self.proc = None
        self.next_id = 0
        self.buffer = b""
        self.events = []
        cmd_read, self.cmd_write = os.pipe()
        self.reply_read, reply_write = os.pipe()
        cmd_read, reply_write = _high_fd(cmd_read), _high_fd(reply_write)
        self.cmd_write, self.reply_read = _high_fd(self.cmd_write), _high_fd(self.reply_read)
        args = [chromium, "--headless", "--remote-debugging-pipe", f"--user-data-dir={self.profile}",
                "--no-first-run", "--no-default-browser-check", "--disable-gpu", "--disable-extensions",
                "--disable-background-networking", "--disable-sync", "--disable-component-update",
                "--disable-default-apps", "--disable-dev-shm-usage", "--mute-audio", "--hide-scrollbars", "--force-color-profile=srgb",
                f"--window-size={width},{height}", "about:blank"]
        if os.geteuid() == 0:
            args.insert(1, "--no-sandbox")  # Chromium refuses to run as root with its sandbox

        def child_fds():
            os.dup2(cmd_read, 3)
            os.dup2(reply_write, 4)

        # Hold fds 0-4 while starting, so that none of Popen's own pipes is numbered 3 or 4.
        placeholders = []
        while True:
            fd = os.open(os.devnull, os.O_RDONLY | os.O_CLOEXEC)
            if fd > 4:
                os.close(fd)
                break
            placeholders.append(fd)
        try:
            self.proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=self.log, stderr=self.log,
                                         preexec_fn=child_fds, close_fds=False, start_new_session=True)
        except OSError as e:
            self.close()
            raise CheckError(f"could not start {chromium}: {e}") from e
        finally:
            for fd in placeholders:
                os.close(fd)
            os.close(cmd_read)
            os.close(reply_write)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _browser_output(self) -> str:
        self.log.seek(0)
        lines = self.log.read().decode("utf-8", "replace").strip().splitlines()
        return ("; browser output: " + " | ".join(lines[-5:])) if lines else ""

    def _read_message(self, waiting_for: str) -> dict:
        while b"\0" not in self.buffer:
            left = self.deadline - time.monotonic()
            if left <= 0:
                raise CheckError(f"timed out after {self.timeout:g} s waiting for {waiting_for} "
                                 "(a page that never finishes loading, or a stuck browser)")
            ready, _, _ = select.select([self.reply_read], [], [], left)
            if not ready:
                continue
            chunk = os.read(self.reply_read, 1 << 20)
            if not chunk:
                raise CheckError("the browser closed its DevTools pipe (crashed or exited)" + self._browser_output())
            self.buffer += chunk
        text, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(text)

    def send(self, method: str, params: dict | None = None, session: str | None = None) -> dict:
        """Sends one command and returns its result; events that arrive meanwhile are kept."""
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        data = json.dumps(message).encode() + b"\0"
        try:
            while data:
                _, ready, _ = select.select([], [self.cmd_write], [], max(0.0, self.deadline - time.monotonic()))
                if not ready:
                    raise CheckError(f"timed out sending {method} to the browser")
                data = data[os.write(self.cmd_write, data):]
        except BrokenPipeError as e:
            raise CheckError("the browser closed its DevTools pipe (crashed or exited)" + self._browser_output()) from e
        while True:
            reply = self._read_message(f"the reply to {method}")
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise CheckError(f"{method}: {reply['error'].get('message', reply['error'])}")
                return reply.get("result", {})
            if "method" in reply:
                self.events.append(reply)

    def wait_for(self, method: str, session: str | None = None) -> dict:
        for i, e in enumerate(self.events):
            if e["method"] == method and e.get("sessionId") == session:
                return self.events.pop(i)
        while True:
            event = self._read_message(method)
            if event.get("method") == method and event.get("sessionId") == session:
                return event
            if "method" in event:
                self.events.append(event)

    def drain(self, seconds: float):
        """Collects the events that arrive within the next `seconds` (late console messages)."""
        until = min(self.deadline, time.monotonic() + seconds)
        while True:
            left = until - time.monotonic()
            if left <= 0 and b"\0" not in self.buffer:
                return
            if b"\0" not in self.buffer:
                ready, _, _ = select.select([self.reply_read], [], [], max(0.0, left))
                if not ready:
                    return
            event = self._read_message("late page events")
            if "method" in event:
                self.events.append(event)

    def close(self):
        if self.proc is not None and self.proc.poll() is None:
            try:  # a polite close first, then the whole process group
                os.write(self.cmd_write, json.dumps({"id": 0, "method": "Browser.close"}).encode() + b"\0")
                self.proc.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                pass
        if self.proc is not None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pass
            self.proc = None
        for fd in (self.cmd_write, self.reply_read):
            try:
                os.close(fd)
            except OSError:
                pass
        self.cmd_write = self.reply_read = -1
        self.log.close()
        shutil.rmtree(self.profile, ignore_errors=True)


def _remote_text(obj: dict) -> str:
    if "value" in obj:
        return obj["value"] if isinstance(obj["value"], str) else json.dumps(obj["value"])
    return obj.get("description") or obj.get("unserializableValue") or obj.get("type", "")


def _short_url(url: str, base: str) -> str:
    """A URL as a person reads it: beside the page, relative to it; a data: URI, its start."""
    if url.startswith("data:"):
        return url[:40] + "..."
    if base and url.startswith(base):
        return url[len(base):]
    return url if len(url) <= 100 else "..." + url[-97:]


def _where(d: dict, base: str) -> str:
    url = _short_url(d.get("url") or "", base)
    line = d.get("lineNumber")
    return f" ({url}{':' + str(line + 1) if isinstance(line, int) and url else ''})" if url else ""


def _page_messages(events: list, session: str, base: str) -> tuple[list[str], list[str]]:
    console, resources = [], []
    requests = {}
    for e in events:
        if e.get("sessionId") != session:
            continue
        p = e.get("params", {})
        method = e["method"]
        if method == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
            console.append(f"console.{p['type']}: " + " ".join(_remote_text(a) for a in p.get("args", [])))
        elif method == "Runtime.exceptionThrown":
            d = p.get("exceptionDetails", {})
            text = _remote_text(d["exception"]) if d.get("exception") else d.get("text", "exception")
            text = text.splitlines()[0] if text else "exception"  # the message, not its stack
            console.append(f"uncaught exception: {text}{_where(d, base)}")
        elif method == "Log.entryAdded" and p.get("entry", {}).get("level") == "error" \
                and p["entry"].get("source") != "network":  # failed loads: Network.loadingFailed below
            entry = p["entry"]
            console.append(f"{entry.get('source', 'log')} error: {entry.get('text', '')}{_where(entry, base)}")
        elif method == "Network.requestWillBeSent":
            requests[p.get("requestId")] = p.get("request", {}).get("url", "")
        elif method == "Network.loadingFailed" and not p.get("canceled"):
            url = requests.get(p.get("requestId"), "?")
            resources.append(f"{_short_url(url, base)}: {p.get('errorText', 'failed')}")
        elif method == "Network.responseReceived":
            status = p.get("response", {}).get("status", 0)
            if status >= 400:
                resources.append(f"{_short_url(p['response'].get('url', '?'), base)}: HTTP {status}")
    return console, resources


def slug(heading: str) -> str:
    """A section's file name: 'Cost per 1,000 pricings' -> 'cost-per-1-000-pricings'."""
    return re.sub(r"[^a-z0-9]+", "-", heading.lower()).strip("-") or "section"


def page_height(b: "Browser", session: str) -> int:
    metrics = b.send("Page.getLayoutMetrics", session=session)
    return int((metrics.get("cssContentSize") or metrics["contentSize"])["height"])


def section_span(b: "Browser", session: str, heading: str, result: Result) -> tuple[int, int]:
    """The page's vertical span of the section headed `heading` (its h2 down to the next)."""
    found = b.send("Runtime.evaluate", {"expression": SECTION_SCRIPT % json.dumps(heading), "returnByValue": True},
                   session=session)
    span = found.get("result", {}).get("value")
    if not span:
        headings = ", ".join(f'"{s["heading"]}"' for s in result.sections)
        raise CheckError(f"no section headed \"{heading}\" to screenshot (sections: {headings})")
    return int(span[0]), int(span[1])


def capture(b: "Browser", session: str, span: tuple[int, int], width: int, max_height: int | None,
            out: pathlib.Path) -> str:
    """A PNG of the page from span[0] to span[1] (cut at max_height), as a reader sees it."""
    top, bottom = span
    height = bottom - top if not max_height else min(bottom - top, max_height)
    shot = b.send("Page.captureScreenshot",
                  {"format": "png", "captureBeyondViewport": True, "fromSurface": True,
                   "clip": {"x": 0, "y": top, "width": width, "height": height, "scale": 1}}, session=session)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(base64.b64decode(shot["data"]))
    return str(out)


def check(page: str, screenshot: str | None = None, chromium: str | None = None, timeout: float = 60.0,
          width: int = 1280, max_height: int | None = None, section: str | None = None,
          sections_dir: str | None = None) -> Result:
    """Loads `page` in headless Chromium and returns what it found; raises CheckError when the
    check could not be run. With `screenshot`, writes a full-page PNG there, or of the section
    headed `section` alone (its h2 down to the next), cut at max_height. With `sections_dir`, one
    PNG of each section there (NN-heading.png, in page order), so each plot is seen whole."""
    path = pathlib.Path(page).resolve()
    if not path.is_file():
        raise CheckError(f"{page}: no such file")
    browser_path = find_chromium(chromium)
    if not browser_path:
        raise CheckError(f"no Chromium found ({chromium or 'tried $ELSBENCH_CHROMIUM, ' + ', '.join(CANDIDATES)}): "
                         "install Debian's chromium package (ci/install-deps.sh does)")
    deadline = time.monotonic() + timeout
    with Browser(browser_path, deadline, width) as b:
        target = b.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = b.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            b.send(f"{domain}.enable", session=session)
        b.send("Emulation.setDeviceMetricsOverride",
               {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": False}, session=session)
        nav = b.send("Page.navigate", {"url": path.as_uri()}, session=session)
        if nav.get("errorText"):
            raise CheckError(f"{page}: {nav['errorText']}")
        b.wait_for("Page.loadEventFired", session)
        found = b.send("Runtime.evaluate", {"expression": PAGE_SCRIPT, "awaitPromise": True, "returnByValue": True},
                       session=session)
        if "exceptionDetails" in found:
            raise CheckError(f"the page script failed: {found['exceptionDetails'].get('text')}")
        b.drain(0.3)
        data = found["result"]["value"]
        console, resources = _page_messages(b.events, session, path.parent.as_uri() + "/")
        result = Result(page=str(page), images=data["images"], sections=data["sections"], console=console,
                        resources=resources, title=data["title"])
        if screenshot:
            top, bottom = section_span(b, session, section, result) if section else (0, page_height(b, session))
            result.screenshots.append(capture(b, session, (top, bottom), width, max_height, pathlib.Path(screenshot)))
        if sections_dir:
            for i, s in enumerate(result.sections, 1):
                out = pathlib.Path(sections_dir) / f"{i:02d}-{slug(s['heading'])}.png"
                result.screenshots.append(capture(b, session, section_span(b, session, s["heading"], result), width,
                                                  max_height, out))
    return result


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("page", help="report.html (or any HTML page)")
    parser.add_argument("--screenshot", help="write a full-page PNG screenshot here")
    parser.add_argument("--width", type=int, default=1280, help="viewport width in CSS pixels (default 1280)")
    parser.add_argument("--section", help="screenshot only the section with this heading (an h2's text)")
    parser.add_argument("--sections", metavar="DIR", help="write one PNG per section into DIR (NN-heading.png)")
    parser.add_argument("--max-height", type=int, help="cut the screenshot at this many pixels")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds before giving up (default 60)")
    parser.add_argument("--chromium", help="the browser to run (default: $ELSBENCH_CHROMIUM, then chromium on PATH)")
    args = parser.parse_args(argv)
    try:
        result = check(args.page, args.screenshot, args.chromium, args.timeout, args.width, args.max_height,
                       args.section, args.sections)
    except CheckError as e:
        print(f"browser_check.py: {args.page}: {e}", file=sys.stderr)
        return 2
    problems = result.problems
    for p in problems:
        print(f"browser_check.py: {args.page}: {p}", file=sys.stderr)
    print(("FAIL " if problems else "ok ") + result.summary()
          + (f"; screenshots: {', '.join(result.screenshots)}" if result.screenshots else ""))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
