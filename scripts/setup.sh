#!/usr/bin/env bash
# Installs what PressureLab needs on a fresh Debian/Ubuntu machine: jemalloc's headers and
# library (libjemalloc-dev), which become the process allocator, the compressors LZ4 and
# Zstandard (liblz4-dev, libzstd-dev), and SQLite (libsqlite3-dev: sweeps write their results
# as a database through GRDB). Idempotent; fast when
# everything is there. Needs root (or sudo) only when something is missing.
set -euo pipefail

if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swift ]; then
  export PATH=/opt/swift/usr/bin:$PATH
fi
command -v swift >/dev/null 2>&1 || { echo "setup: Swift 6 is required (swift not found on PATH)" >&2; exit 1; }

if pkg-config --exists jemalloc liblz4 libzstd sqlite3 2>/dev/null && [ -f /usr/include/jemalloc/jemalloc.h ] \
  && [ -f /usr/include/lz4.h ] && [ -f /usr/include/zstd.h ] && [ -f /usr/include/sqlite3.h ]; then
  exit 0
fi

echo "setup: installing libjemalloc-dev liblz4-dev libzstd-dev libsqlite3-dev" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null 2>&1 || { echo "setup: run as root, or install libjemalloc-dev liblz4-dev libzstd-dev libsqlite3-dev yourself" >&2; exit 1; }
  SUDO="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq libjemalloc-dev liblz4-dev libzstd-dev libsqlite3-dev pkg-config >/dev/null
pkg-config --exists jemalloc liblz4 libzstd sqlite3 || { echo "setup: the packages are installed but pkg-config cannot find jemalloc, liblz4, libzstd or sqlite3" >&2; exit 1; }
