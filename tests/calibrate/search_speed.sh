#!/usr/bin/env bash
# The top level's think time natively and as WASM under Node (the engine worker runs the same
# engine sources as WASM): builds tests/calibrate/search_speed.cpp both ways, runs both on the
# same positions and prints the WASM/native time ratio.
#
# usage: tests/calibrate/search_speed.sh [LEVEL]   (default: the strongest level)
set -euo pipefail
cd "$(dirname "$0")/../.."
export NODE_PATH="${NODE_PATH:-/usr/share/nodejs}" # emscripten's optimizer needs Debian's acorn
out=build/engine-speed
mkdir -p "$out"
sources=$(grep -oE "engine/(chess|search)/[a-z_0-9]+\.cpp" engine/sources.cmake | tr '\n' ' ')
g++ -std=c++20 -O3 -DNDEBUG -I. tests/calibrate/search_speed.cpp $sources -o "$out/search_speed"
# -msimd128 as the engine worker (web/web.cmake): level 9's evaluation network needs it
em++ -std=c++20 -O3 -DNDEBUG -msimd128 -I. tests/calibrate/search_speed.cpp $sources -o "$out/search_speed.js" \
    -sENVIRONMENT=node -sSINGLE_FILE=1 -sWASM_ASYNC_COMPILATION=0 -sALLOW_MEMORY_GROWTH=1 -sEXIT_RUNTIME=1
native=$("$out/search_speed" "$@" | tail -1)
wasm=$(node "$out/search_speed.js" "$@" | tail -1)
echo "native: $native"
echo "wasm:   $wasm"
python3 - "$native" "$wasm" <<'PY'
import sys
f = lambda s: dict(kv.split("=") for kv in s.split())
n, w = f(sys.argv[1]), f(sys.argv[2])
print(f"wasm/native time ratio: {float(w['avg_ms']) / float(n['avg_ms']):.2f} (nodes {n['nodes']} vs {w['nodes']})")
PY
