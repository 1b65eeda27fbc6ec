#!/usr/bin/env bash
# Runs every test: installs what is missing (web/setup.sh --tests), builds native and web, then
# runs the unit tests, the rules/engine/agent suites, the UI monkey (build/sanitize) and the browser
# tests through CTest.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
jobs="$(nproc 2>/dev/null || echo 2)"

bash web/setup.sh --tests

echo "== native build"
cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release -DCHAIBA_WEB_SITE="$root/build/web/site" >/dev/null
cmake --build build/native -j"$jobs"

echo "== UI monkey build (the page's ImGui code natively, AddressSanitizer + UBSan)"
cmake -S . -B build/sanitize -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1" \
      "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -g1" -DCHAIBA_SANITIZE=ON -DCHAIBA_UI_NATIVE=ON >/dev/null
cmake --build build/sanitize -j"$jobs" --target chaiba_monkey

echo "== web build"
bash web/build.sh

echo "== tests"
ctest --test-dir build/native --output-on-failure -j"$jobs" "$@"
