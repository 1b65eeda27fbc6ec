#!/usr/bin/env bash
# Builds tests/calibrate/selfplay.cpp against the engine library of a CMake build directory and runs
# it: a self-play match between two variants of the built-in search (see selfplay.cpp --help).
#
# usage: tests/calibrate/selfplay.sh [BUILD_DIR] -- [selfplay options]
#   e.g. tests/calibrate/selfplay.sh build/engine -- --a-features 1 --b-features 0 --games 200
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
build="${1:-$root/build/engine}"
shift || true
[ "${1:-}" = "--" ] && shift
cmake --build "$build" --target chaiba_engine -j2 >/dev/null
bin="$build/selfplay"
lib="$build/libchaiba_engine.a"
if [ ! -x "$bin" ] || [ "$here/selfplay.cpp" -nt "$bin" ] || [ "$lib" -nt "$bin" ]; then
    g++ -std=c++20 -O2 -Wall -Wextra -I"$root" "$here/selfplay.cpp" "$root/src/cli/engine_process.cpp" "$lib" -o "$bin"
fi
cd "$root"
exec nice -n 10 "$bin" "$@"
