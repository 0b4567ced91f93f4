#!/usr/bin/env bash
# Headless Chromium screenshot of RUN_DIR/report.html; fails when the page logs JavaScript errors.
#
#   scripts/screenshot_report.sh RUN_DIR [OUT.png]      (default OUT: RUN_DIR/report_screenshot.png)
#   scripts/screenshot_report.sh RUN_DIR OUT.png transcripts   (only the episode transcripts, 1400x820)
#
# Installs Debian's chromium (apt-get) when no chromium/chrome is on PATH.
set -euo pipefail

dir="${1:?usage: scripts/screenshot_report.sh RUN_DIR [OUT.png]}"
[[ -d "$dir" ]] || { echo "screenshot_report: $dir is not a directory" >&2; exit 2; }
html="$(cd "$dir" && pwd)/report.html"
[[ -f "$html" ]] || { echo "screenshot_report: no report.html in $dir (run: wmbench report $dir)" >&2; exit 2; }
out="${2:-$(dirname "$html")/report_screenshot.png}"
out="$(cd "$(dirname "$out")" && pwd)/$(basename "$out")"

browser=""
for name in chromium chromium-browser google-chrome; do
  if command -v "$name" >/dev/null 2>&1; then browser="$name"; break; fi
done
if [[ -z "$browser" ]]; then
  echo "screenshot_report: installing Debian's chromium (apt-get)" >&2
  apt-get update >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y chromium >&2
  browser=chromium
fi

profile="$(mktemp -d)"
log="$(mktemp)"
trap 'rm -rf "$profile" "$log"' EXIT
size=1280,2400
if [[ "${3:-}" == "transcripts" ]]; then  # a copy of the page showing only its transcripts section
  view="$profile/transcripts.html"
  sed 's|</head>|<style>body>*:not(#transcripts){display:none}</style></head>|' "$html" > "$view"
  html="$view"
  size=1400,820
fi
rm -f "$out"
if ! "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$profile" --enable-logging=stderr --v=0 \
    --screenshot="$out" --window-size="$size" "file://$html" 2>"$log"; then
  cat "$log" >&2
  echo "screenshot_report: $browser failed" >&2
  exit 1
fi
# console lines look like: [..:INFO:CONSOLE:12] "Uncaught ReferenceError: x is not defined", source: ...
# (older builds: CONSOLE(12)); console.error() is logged at ERROR level
if grep -E '(ERROR:CONSOLE|CONSOLE[^]]*\] "Uncaught)' "$log" >&2; then
  echo "screenshot_report: JavaScript errors in $html (above)" >&2
  exit 1
fi
[[ -s "$out" ]] || { cat "$log" >&2; echo "screenshot_report: no screenshot written" >&2; exit 1; }
echo "$out"
