#!/usr/bin/env bash
# Builds tests/e2e/http_web_node_test.cpp with emscripten and runs it under node against the mock
# OpenRouter server: checks the browser fetch transport's JS glue (web/http_web.cpp, through
# web/io_client.js on the page's side: node has no Web Worker) for real.
# Usage: http_web_node_test.sh CHAIBA_BINARY
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
chaiba="$1"
out="$(mktemp -d)"
mock_pid=""
trap 'kill "$mock_pid" 2>/dev/null || true; rm -rf "$out"' EXIT
NODE_PATH="${NODE_PATH:-/usr/share/nodejs}" em++ -std=c++20 -O2 -I"$root" "$here/http_web_node_test.cpp" "$root/web/http_web.cpp" "$root/src/net/http.cpp" "$root/src/net/section_timer.cpp" \
    --pre-js "$root/web/io_worker.js" --pre-js "$root/web/io_client.js" \
    -sENVIRONMENT=node -sALLOW_MEMORY_GROWTH=1 -sSINGLE_FILE=1 -o "$out/test.js"
key="sk-web-node-test"
python3 "$here/mock_openrouter.py" --chaiba "$chaiba" --key "$key" > "$out/port" &
mock_pid=$!
for _ in $(seq 50); do [ -s "$out/port" ] && break; sleep 0.1; done
port="$(awk '/^PORT/ {print $2}' "$out/port")"
node "$out/test.js" "http://127.0.0.1:$port/api/v1" "$key"
