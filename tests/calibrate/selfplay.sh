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
source "$here/build_tool.sh"
build_tool "$build" selfplay
bin="$build/selfplay"
cd "$root"
exec nice -n 10 "$bin" "$@"
