#!/usr/bin/env bash
# Renders an HTML report of two bundled scenarios under four policies, opens it in headless
# Chromium (Debian's package, installed if missing), checks that the page shows every chart
# and no error, and saves a screenshot to docs/report.png; then does the same for a small
# sweep's report (docs/sweep-report.png).
# Fails (non-zero) if the page is missing charts, shows an error, or the screenshot is blank.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
if ! command -v swift >/dev/null 2>&1; then export PATH=/opt/swift/usr/bin:$PATH; fi
if ! command -v chromium >/dev/null 2>&1; then
  [ "$(id -u)" -eq 0 ] || { echo "report-screenshot: chromium is missing; install Debian's chromium package" >&2; exit 1; }
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
swift build -c release --product pressurelab >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
.build/release/pressurelab compare photo-browser long-random --policy keep-all --policy ios3 --policy ios6 --policy cost-aware \
  --output "$work/results.json" --html "$work/report.html" >/dev/null
browser=(chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$work/profile")
"${browser[@]}" --dump-dom "file://$work/report.html" 2>/dev/null > "$work/dom.html"
for id in comparison timeline-photo-browser timeline-long-random latency-photo-browser-view-reload owners-photo-browser-ios3-0; do
  grep -q "id=\"$id\"" "$work/dom.html" || { echo "report-screenshot: the page has no element '$id'" >&2; exit 1; }
done
if grep -qiE "error|NaN|undefined" "$work/dom.html"; then
  echo "report-screenshot: the page shows an error" >&2
  exit 1
fi
mkdir -p docs
"${browser[@]}" --window-size=1280,1100 --screenshot="docs/report.png" "file://$work/report.html" >/dev/null 2>&1
size=$(stat -c %s docs/report.png)
[ "$size" -gt 30000 ] || { echo "report-screenshot: the screenshot is nearly empty ($size bytes)" >&2; exit 1; }
echo "report-screenshot: docs/report.png ($size bytes); the page has every chart and no error"

# A sweep's report: three scenarios x four policies x two terminations x three seeds.
cat > "$work/sweep.yaml" <<YAML
sweep: 1
output: $work/sweep
scenarios: [photo-browser, mail-compose, settings-deep]
policy: [keep-all, ios3, ios6, lru]
termination: [jetsam, lmk]
seeds: { from: 1, to: 3 }
YAML
.build/release/pressurelab sweep "$work/sweep.yaml" --jobs 2 >/dev/null
.build/release/pressurelab report "$work/sweep/results.json" --html "$work/sweep.html"
"${browser[@]}" --dump-dom "file://$work/sweep.html" 2>/dev/null > "$work/sweep-dom.html"
for id in aggregate wins comparison; do
  grep -q "id=\"$id\"" "$work/sweep-dom.html" || { echo "report-screenshot: the sweep report has no element '$id'" >&2; exit 1; }
done
[ "$(grep -c 'class="frontier"' "$work/sweep-dom.html")" -ge 1 ] || { echo "report-screenshot: the sweep report has no frontier chart" >&2; exit 1; }
"${browser[@]}" --window-size=1280,1400 --screenshot="docs/sweep-report.png" "file://$work/sweep.html" >/dev/null 2>&1
size=$(stat -c %s docs/sweep-report.png)
[ "$size" -gt 30000 ] || { echo "report-screenshot: the sweep screenshot is nearly empty ($size bytes)" >&2; exit 1; }
echo "report-screenshot: docs/sweep-report.png ($size bytes); the sweep report has its tables and charts"
