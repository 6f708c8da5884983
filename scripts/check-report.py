#!/usr/bin/env python3
"""Opens a report.html in headless Chromium through the DevTools protocol over a pipe
(--remote-debugging-pipe: JSON messages separated by NUL on fds 3 and 4, so only the standard
library is needed), checks it, and saves a screenshot.

Usage: check-report.py CHROMIUM REPORT.html SCREENSHOT.png [SELECTOR HEIGHT]
With SELECTOR and HEIGHT, the screenshot is HEIGHT CSS pixels of the page from the element
SELECTOR down, at 3/4 scale (a small picture for a README); without, the whole page.
Exit 1 with a message on a failed check."""

import base64
import json
import os
import subprocess
import sys
import tempfile

CHECK_JS = r"""
(() => {
  const figs = [...document.querySelectorAll('figure')];
  const bad = [];
  for (const f of figs) {
    const svg = f.querySelector('svg');
    if (!svg) { bad.push(f.id + ': no svg'); continue; }
    const r = svg.getBoundingClientRect();
    if (r.width < 50 || r.height < 50) bad.push(f.id + ': svg drawn ' + r.width + 'x' + r.height);
    if (svg.querySelectorAll('*').length < 20) bad.push(f.id + ': svg nearly empty');
  }
  const imgs = [...document.images].filter(i => !(i.complete && i.naturalWidth > 0)).map(i => i.src);
  const tables = [...document.querySelectorAll('table')];
  const rows = tables.reduce((n, t) => n + t.querySelectorAll('tbody tr').length, 0);
  return {figures: figs.length, tables: tables.length, rows, bad, brokenImages: imgs,
          sections: [...document.querySelectorAll('section')].map(s => s.id)};
})()
"""


class Browser:
    def __init__(self, chromium):
        self.to_r, self.to_w = os.pipe()
        self.from_r, self.from_w = os.pipe()
        self.profile = tempfile.mkdtemp(prefix="check-report-")
        to_r, from_w = self.to_r, self.from_w

        def fds():
            # The pipe ends become fds 3 (commands in) and 4 (answers out) of the browser.
            a, b = os.dup(to_r), os.dup(from_w)
            os.dup2(a, 3)
            os.dup2(b, 4)

        self.proc = subprocess.Popen(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--remote-debugging-pipe", "--user-data-dir=" + self.profile, "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            preexec_fn=fds, close_fds=False)
        os.close(self.to_r)
        os.close(self.from_w)
        self.buf = b""
        self.next_id = 0
        self.events = []

    def send(self, method, params=None, session=None):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self.to_w, json.dumps(msg).encode() + b"\0")
        want = self.next_id
        while True:
            m = self.read()
            if m.get("id") == want:
                if "error" in m:
                    raise RuntimeError(f"{method}: {m['error']}")
                return m.get("result", {})
            self.events.append(m)

    def read(self):
        while b"\0" not in self.buf:
            chunk = os.read(self.from_r, 1 << 20)
            if not chunk:
                raise RuntimeError("chromium closed the DevTools pipe")
            self.buf += chunk
        raw, self.buf = self.buf.split(b"\0", 1)
        return json.loads(raw)

    def wait_event(self, name):
        for i, e in enumerate(self.events):
            if e.get("method") == name:
                return self.events.pop(i)
        while True:
            m = self.read()
            if m.get("method") == name:
                return m
            self.events.append(m)

    def close(self):
        try:
            self.send("Browser.close")
        except Exception:
            pass
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def main():
    if len(sys.argv) not in (4, 6):
        print(__doc__, file=sys.stderr)
        return 2
    chromium, page, shot = sys.argv[1:4]
    url = "file://" + os.path.abspath(page)
    b = Browser(chromium)
    failures = []
    try:
        target = b.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        s = b.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Log"):
            b.send(domain + ".enable", session=s)
        b.send("Emulation.setDeviceMetricsOverride",
               {"width": 1200, "height": 900, "deviceScaleFactor": 1, "mobile": False}, session=s)
        b.send("Page.navigate", {"url": url}, session=s)
        b.wait_event("Page.loadEventFired")
        r = b.send("Runtime.evaluate", {"expression": CHECK_JS, "returnByValue": True}, session=s)
        res = r["result"]["value"]
        print(f"figures {res['figures']}, tables {res['tables']} ({res['rows']} rows), "
              f"sections {', '.join(res['sections'])}")
        if res["figures"] == 0:
            failures.append("no chart (figure) on the page")
        if res["tables"] == 0 or res["rows"] == 0:
            failures.append("no table, or a table without rows")
        failures += ["chart " + x for x in res["bad"]]
        failures += ["image failed to load: " + x for x in res["brokenImages"]]
        if len(sys.argv) == 6:
            sel, height = sys.argv[4], float(sys.argv[5])
            js = f"(() => {{ const r = document.querySelector({json.dumps(sel)}).getBoundingClientRect(); return r.top + window.scrollY; }})()"
            top = b.send("Runtime.evaluate", {"expression": js, "returnByValue": True}, session=s)["result"]["value"]
            clip = {"x": 0, "y": top, "width": 1200, "height": height, "scale": 0.75}
        else:
            size = b.send("Page.getLayoutMetrics", session=s)["cssContentSize"]
            clip = {"x": 0, "y": 0, "width": 1200, "height": size["height"], "scale": 1}
        png = b.send("Page.captureScreenshot",
                     {"format": "png", "clip": clip, "captureBeyondViewport": True}, session=s)
        with open(shot, "wb") as f:
            f.write(base64.b64decode(png["data"]))
        print(f"screenshot {shot} ({int(clip['width'])}x{int(clip['height'])} CSS px, scale {clip['scale']})")
        for e in b.events:
            m, p = e.get("method"), e.get("params", {})
            if m == "Runtime.exceptionThrown":
                failures.append("exception: " + json.dumps(p.get("exceptionDetails", {}))[:300])
            elif m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
                failures.append("console error: " + json.dumps(p.get("args", []))[:300])
            elif m == "Log.entryAdded" and p.get("entry", {}).get("level") == "error":
                ent = p["entry"]
                failures.append(f"console error: {ent.get('text')} {ent.get('url', '')}")
    finally:
        b.close()
    for f in failures:
        print("FAIL:", f, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
