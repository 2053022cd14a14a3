#!/usr/bin/env bash
# Sets up (scripts/setup.sh) and runs the main job: `swift run pressurelab` with any arguments.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
if ! command -v swift >/dev/null 2>&1; then export PATH=/opt/swift/usr/bin:$PATH; fi
swift run -c release pressurelab "$@"
