#!/usr/bin/env bash
# Screenshot the transcript section of a run's report.html with headless Chromium.
#
#   scripts/screenshot_report.sh RUN_DIR OUT.png [WIDTH] [HEIGHT]
#
# Installs Chromium with apt-get when it is missing (Debian/Ubuntu; needs root). The shot is of a temporary
# copy of the page that shows only its transcripts section (the first episode is open), so the decisions are
# in view without scrolling.
set -euo pipefail
run_dir=${1:?usage: scripts/screenshot_report.sh RUN_DIR OUT.png [WIDTH] [HEIGHT]}
out=${2:?usage: scripts/screenshot_report.sh RUN_DIR OUT.png [WIDTH] [HEIGHT]}
width=${3:-1400}
height=${4:-900}
html="$(cd "$run_dir" && pwd)/report.html"
[ -f "$html" ] || { echo "screenshot_report: no report.html in $run_dir (expected a wmbench run folder)" >&2; exit 2; }
browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
if [ -z "$browser" ]; then
  apt-get update -qq && apt-get install -y -qq chromium >/dev/null
  browser=$(command -v chromium)
fi
view=$(mktemp --suffix=.html)
trap 'rm -f "$view"' EXIT
sed 's|</head>|<style>body>*:not(#transcripts){display:none}</style></head>|' "$html" > "$view"
"$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --force-device-scale-factor=1 \
  --window-size="${width},${height}" --screenshot="$(realpath -m "$out")" "file://${view}" 2>/dev/null
echo "screenshot: $out"
