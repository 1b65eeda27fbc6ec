#!/usr/bin/env bash
# Builds the static site into build/web/site with Debian's emscripten (run web/setup.sh first).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
export NODE_PATH="${NODE_PATH:-/usr/share/nodejs}"   # emscripten's optimizer needs acorn from here
emcmake cmake -S . -B build/web -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build/web -j"$(nproc 2>/dev/null || echo 2)"
echo "web: built $root/build/web/site"
