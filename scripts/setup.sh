#!/usr/bin/env bash
# Installs what PressureLab needs on a fresh Debian/Ubuntu machine: jemalloc's headers and
# library (libjemalloc-dev), which become the process allocator. Idempotent; fast when
# everything is there. Needs root (or sudo) only when something is missing.
set -euo pipefail

if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swift ]; then
  export PATH=/opt/swift/usr/bin:$PATH
fi
command -v swift >/dev/null 2>&1 || { echo "setup: Swift 6 is required (swift not found on PATH)" >&2; exit 1; }

if pkg-config --exists jemalloc 2>/dev/null && [ -f /usr/include/jemalloc/jemalloc.h ]; then
  exit 0
fi

echo "setup: installing libjemalloc-dev" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null 2>&1 || { echo "setup: run as root, or install libjemalloc-dev yourself" >&2; exit 1; }
  SUDO="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq libjemalloc-dev pkg-config >/dev/null
pkg-config --exists jemalloc || { echo "setup: libjemalloc-dev installed but pkg-config cannot find jemalloc" >&2; exit 1; }
