#!/usr/bin/env bash
# Builds the documentation site (scripts/docs.sh), serves it on localhost, opens it in headless
# Chromium (Debian's package, installed if missing) and saves two screenshots: the site's
# landing page (docs/docs-landing.png) and the tutorial's first step (docs/docs-tutorial.png).
# Fails (non-zero) if a page does not render its content or a screenshot is nearly empty.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v chromium >/dev/null 2>&1; then
  [ "$(id -u)" -eq 0 ] || { echo "docs-screenshot: chromium is missing; install Debian's chromium package" >&2; exit 1; }
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
bash scripts/docs.sh
work=$(mktemp -d)
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -m http.server --bind 127.0.0.1 --directory .build/docs "$port" >/dev/null 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 50); do python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/documentation/')" 2>/dev/null && break; sleep 0.1; done
browser=(chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$work/profile" --virtual-time-budget=10000)
shoot() { # URL, what the rendered page must contain, window size, file
  "${browser[@]}" --dump-dom "$1" 2>/dev/null > "$work/dom.html"
  grep -q "$2" "$work/dom.html" || { echo "docs-screenshot: $1 does not show '$2'" >&2; exit 1; }
  "${browser[@]}" --window-size="$3" --screenshot="$4" "$1" >/dev/null 2>&1
  size=$(stat -c %s "$4")
  [ "$size" -gt 30000 ] || { echo "docs-screenshot: $4 is nearly empty ($size bytes)" >&2; exit 1; }
  echo "docs-screenshot: $4 ($size bytes)"
}
shoot "http://127.0.0.1:$port/documentation/" "PressureLabHarness" 1280,900 docs/docs-landing.png
# The tutorial from its top: the introduction, then the first section and its first step.
shoot "http://127.0.0.1:$port/tutorials/pressurelabtesting/yourfirstpolicy" "mkdir MyPolicies" 1280,1600 docs/docs-tutorial.png
