#!/usr/bin/env bash
# The main job: set up, build the page and serve it on http://127.0.0.1:8080 (Ctrl+C stops it).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
port="${PORT:-8080}"
bash "$root/web/setup.sh"
bash "$root/web/build.sh"
echo
echo "CHAIBA is served at http://127.0.0.1:$port/  (Ctrl+C to stop)"
exec python3 -m http.server "$port" --bind 127.0.0.1 --directory "$root/build/web/site"
