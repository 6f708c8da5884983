#!/usr/bin/env python3
"""Opens a report.html in headless Chromium through the DevTools protocol over a pipe
(--remote-debugging-pipe: JSON messages separated by NUL on fds 3 and 4, so only the standard
library is needed), checks it, and saves screenshots.

Usage: check-report.py CHROMIUM REPORT.html SCREENSHOT.png [SELECTOR HEIGHT]
Checks: every chart drawn, tables with rows, every image loaded; the verdicts first (a
sentence per group naming a winner, on the first screen at 1280 px); the method filter hides
a configuration's series in every chart that has it and shows them again; every chart of
configurations names its series; a table sorts both ways on a click of a numeric heading; a
table's filter box hides rows; no console error or exception.
Screenshots: the top of the page at a laptop width (1280 px) and a phone width (390 px), as
report-top-1280.png and report-top-390.png in the folder $REPORT_SHOTS (default: the
report's folder); and SCREENSHOT.png: with SELECTOR and HEIGHT, HEIGHT CSS pixels of the page
from the element SELECTOR down, at 3/4 scale (a small picture for a README); without, the
whole page. Exit 1 with a message on a failed check."""

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

# The verdicts: present, first, each a sentence naming the first configuration and what it
# solves (`solves 6/6`, `both solve 6/6`, `for solving more: 7/10`); on the first screen.
HEADLINE_JS = r"""
(() => {
  const out = [];
  const h = document.querySelector('section#headline');
  if (!h) return ['no #headline section'];
  const first = document.querySelector('section');
  if (first !== h) out.push('the first section is #' + first.id + ', not the verdicts');
  const items = [...h.querySelectorAll('li.verdict summary')];
  if (items.length === 0 && !/No trials/.test(h.textContent)) out.push('no verdict sentence');
  for (const s of items) {
    const t = s.textContent;
    // `solves 6/6`, `both solve 6/6`, or `for solving more: 7/10 against …'s 5/10`.
    if (!/( solves?|solving more:) \d+\/\d+/.test(t) || !s.querySelector('code')) out.push('a verdict names no winner: ' + t.slice(0, 120));
  }
  if (items.length) {
    const top = items[0].getBoundingClientRect().top;
    if (top > innerHeight) out.push('the first verdict starts at ' + Math.round(top) + ' px, below the first screen (' + innerHeight + ' px)');
  }
  return out;
})()
"""

# The method filter: unchecking a configuration hides its series in every chart, checking it
# shows them again; every chart of configurations has named series.
FILTER_JS = r"""
(() => {
  const out = [];
  const boxes = [...document.querySelectorAll('#methods input[data-config]')];
  const figs = [...document.querySelectorAll('figure[id^="fig-"]')].filter(f => !f.id.startsWith('fig-sweep_'));
  if (figs.length && !boxes.length) return ['no method filter'];
  for (const f of figs) if (!f.querySelector('svg .series[data-config]')) out.push(f.id + ': no series names its configuration');
  const shown = e => getComputedStyle(e).display !== 'none' && !e.closest('[style*="display: none"]');
  for (const box of boxes.slice(0, 3)) {
    const c = box.dataset.config;
    const sel = 'svg .series[data-config="' + CSS.escape(c) + '"]';
    const had = figs.filter(f => f.querySelector(sel));
    if (!had.length) { out.push(c + ': in no chart'); continue; }
    box.click();
    for (const f of had) {
      if ([...f.querySelectorAll(sel)].some(shown)) out.push(f.id + ': ' + c + ' still shown after the filter hid it');
      const key = f.querySelector('svg .key[data-config="' + CSS.escape(c) + '"]');
      if (key && !key.classList.contains('off')) out.push(f.id + ': legend entry of ' + c + ' not marked off');
    }
    const others = [...document.querySelectorAll('svg .series[data-config]')].filter(e => e.dataset.config !== c);
    if (others.length && !others.some(shown)) out.push('hiding ' + c + ' hid the other configurations too');
    box.click();
    for (const f of had) if (![...f.querySelectorAll(sel)].every(shown)) out.push(f.id + ': ' + c + ' not shown again');
  }
  return out;
})()
"""

# A table sorts on a click of a numeric heading, ascending then descending (within each block
# between group headings), and its filter box hides rows.
SORT_JS = r"""
(() => {
  const out = [];
  const key = t => {
    t = t.trim();
    let m = t.match(/^(\d+)\/(\d+)$/);
    if (m) return +m[2] ? m[1] / m[2] : 0;
    m = t.match(/^<\s*(-?[\d.]+)/);
    if (m) return m[1] / 2;
    m = t.match(/^-?\d+(\.\d+)?(e-?\d+)?/);
    return m ? parseFloat(m[0]) : null;
  };
  const blocks = tb => {
    const res = [[]];
    for (const r of tb.rows) {
      if (r.cells.length === 1 && r.cells[0].colSpan > 1) res.push([]);
      else res[res.length - 1].push(r);
    }
    return res;
  };
  let tried = 0;
  for (const t of document.querySelectorAll('table')) {
    if (!t.tHead || !t.tBodies.length) continue;
    const heads = [...t.tHead.rows[0].cells];
    for (const [col, th] of heads.entries()) {
      if (!th.classList.contains('num')) continue;
      const vals = () => blocks(t.tBodies[0]).map(b => b.map(r => key(r.cells[col] ? r.cells[col].textContent : '')).filter(v => v !== null));
      if (new Set(vals().flat()).size < 2) continue;
      for (const dir of [1, -1]) {
        th.click();
        for (const b of vals()) for (let i = 1; i < b.length; i++) {
          if (dir * (b[i] - b[i - 1]) < 0) { out.push('table "' + th.textContent + '" not sorted ' + (dir > 0 ? 'ascending' : 'descending') + ': ' + b.join(' ')); break; }
        }
        const want = dir > 0 ? 'ascending' : 'descending';
        if (th.getAttribute('aria-sort') !== want) out.push('heading "' + th.textContent + '" does not say ' + want);
      }
      tried++;
      break;
    }
    if (tried >= 3) break;
  }
  if (!tried) out.push('no table with a numeric column to sort');
  const w = document.querySelector('.filterable');
  if (w) {
    const input = w.querySelector('input'), rows = [...w.querySelectorAll('tbody tr')];
    input.value = 'no row holds this text';
    input.dispatchEvent(new Event('input'));
    if (rows.some(r => !r.hidden)) out.push('the table filter hid no row');
    input.value = '';
    input.dispatchEvent(new Event('input'));
    if (rows.some(r => r.hidden)) out.push('the table filter did not show the rows again');
  }
  return out;
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


def evaluate(b, s, js):
    r = b.send("Runtime.evaluate", {"expression": js, "returnByValue": True}, session=s)
    if "exceptionDetails" in r:
        raise RuntimeError("check script failed: " + json.dumps(r["exceptionDetails"])[:300])
    return r["result"]["value"]


def screen(b, s, width, height, mobile):
    b.send("Emulation.setDeviceMetricsOverride",
           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile}, session=s)


def capture(b, s, path, clip):
    png = b.send("Page.captureScreenshot",
                 {"format": "png", "clip": clip, "captureBeyondViewport": True}, session=s)
    with open(path, "wb") as f:
        f.write(base64.b64decode(png["data"]))
    print(f"screenshot {path} ({int(clip['width'])}x{int(clip['height'])} CSS px, scale {clip['scale']})")


def main():
    if len(sys.argv) not in (4, 6):
        print(__doc__, file=sys.stderr)
        return 2
    chromium, page, shot = sys.argv[1:4]
    shots = os.environ.get("REPORT_SHOTS") or os.path.dirname(os.path.abspath(page))
    os.makedirs(shots, exist_ok=True)
    url = "file://" + os.path.abspath(page)
    b = Browser(chromium)
    failures = []
    try:
        target = b.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        s = b.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Log"):
            b.send(domain + ".enable", session=s)
        screen(b, s, 1280, 800, False)
        b.send("Page.navigate", {"url": url}, session=s)
        b.wait_event("Page.loadEventFired")
        res = evaluate(b, s, CHECK_JS)
        print(f"figures {res['figures']}, tables {res['tables']} ({res['rows']} rows), "
              f"sections {', '.join(res['sections'])}")
        if res["figures"] == 0:
            failures.append("no chart (figure) on the page")
        if res["tables"] == 0 or res["rows"] == 0:
            failures.append("no table, or a table without rows")
        failures += ["chart " + x for x in res["bad"]]
        failures += ["image failed to load: " + x for x in res["brokenImages"]]
        failures += ["headline: " + x for x in evaluate(b, s, HEADLINE_JS)]
        # The top of the page as a reader first sees it, before anything is clicked.
        capture(b, s, os.path.join(shots, "report-top-1280.png"),
                {"x": 0, "y": 0, "width": 1280, "height": 800, "scale": 1})
        screen(b, s, 390, 844, True)
        capture(b, s, os.path.join(shots, "report-top-390.png"),
                {"x": 0, "y": 0, "width": 390, "height": 844, "scale": 1})
        screen(b, s, 1200, 900, False)
        failures += ["filter: " + x for x in evaluate(b, s, FILTER_JS)]
        failures += ["tables: " + x for x in evaluate(b, s, SORT_JS)]
        if len(sys.argv) == 6:
            sel, height = sys.argv[4], float(sys.argv[5])
            js = f"(() => {{ const r = document.querySelector({json.dumps(sel)}).getBoundingClientRect(); return r.top + window.scrollY; }})()"
            top = evaluate(b, s, js)
            clip = {"x": 0, "y": top, "width": 1200, "height": height, "scale": 0.75}
        else:
            size = b.send("Page.getLayoutMetrics", session=s)["cssContentSize"]
            clip = {"x": 0, "y": 0, "width": 1200, "height": size["height"], "scale": 1}
        capture(b, s, shot, clip)
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
    if not failures:
        print("ok: verdicts first, method filter, sortable and filterable tables, no console error")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
