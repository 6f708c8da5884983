#!/usr/bin/env bash
# Opens DIR/report.html in headless Chromium and checks it: every chart drawn (an SVG of some
# size in each figure), a table with rows, every image loaded; the verdicts first, on the first
# screen; the method filter hides a configuration's series in every chart; a table sorts on a
# click and its filter box hides rows; no console error or exception (check-report.py says
# each). Saves the top of the page at 1280 px and 390 px wide (report-top-1280.png,
# report-top-390.png, in $REPORT_SHOTS or DIR) and a full-page screenshot (DIR/report.png, or
# the path given). With SELECTOR HEIGHT after it, that screenshot is HEIGHT CSS px from that
# element down at 3/4 scale (the README picture).
# Chromium is Debian's `chromium`: installed with apt-get when missing and running as root,
# otherwise the check prints `skipped: <reason>` and exits 0. Needs python3 (standard library).
# Usage: scripts/check-report.sh DIR [SCREENSHOT.png [SELECTOR HEIGHT]]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
dir="${1:?usage: scripts/check-report.sh DIR [SCREENSHOT.png [SELECTOR HEIGHT]]}"
shot="${2:-$dir/report.png}"
page="$dir/report.html"
if [ ! -f "$page" ]; then
  echo "error: $page not found (write it with: sudoku-bench report $dir)" >&2
  exit 1
fi
if ! command -v python3 >/dev/null; then
  echo "skipped: python3 is missing"
  exit 0
fi
find_chromium() { command -v chromium || command -v chromium-browser || true; }
chrome="$(find_chromium)"
if [ -z "$chrome" ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "installing chromium with apt-get (about 35 s and 350 MB on Debian 12)"
    start=$(date +%s)
    if ! (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
      --no-install-recommends chromium >/dev/null); then
      echo "skipped: apt-get could not install chromium"
      exit 0
    fi
    echo "chromium installed in $(($(date +%s) - start)) s"
    chrome="$(find_chromium)"
  else
    echo "skipped: chromium is missing and cannot be installed here (not root, or no apt-get)"
    exit 0
  fi
fi
exec python3 "$here/check-report.py" "$chrome" "$page" "$shot" "${@:3}"
