#!/usr/bin/env bash
# Sets up (scripts/setup.sh) and runs every test, one at a time (a fixed order, as CI runs
# them; the tests pass in parallel too, as plain `swift test` runs them).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
if ! command -v swift >/dev/null 2>&1; then export PATH=/opt/swift/usr/bin:$PATH; fi
swift build --build-tests
# The property test over seeded random scenarios runs 10,000 of them here (1,000 in a plain
# `swift test`).
export PRESSURELAB_PROPERTY_SCENARIOS="${PRESSURELAB_PROPERTY_SCENARIOS:-10000}"
swift test --skip-build --no-parallel "$@"
