#!/usr/bin/env bash
# Texel tuning of the full evaluation (levels 8 and up): builds texel_gen.cpp and texel_tune.cpp
# against the engine library of a CMake build directory, makes the data set if it is missing
# (seeded self-play of the classic search, quiet positions labelled by stockfish at depth 8; 54 060
# positions, 3.2 MB, kept out of git) and fits the numbers of engine/search/eval_params.h (kFeatureTunedEval).
#
# usage: tests/calibrate/texel_tune.sh [BUILD_DIR] [-- texel_tune options, e.g. --write engine/search/eval_params_tuned.cpp]
# environment: GAMES (default 2000), SEED (default 1), STOCKFISH (default /usr/games/stockfish)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
build="${1:-$root/build/engine}"
shift || true
[ "${1:-}" = "--" ] && shift
source "$here/build_tool.sh"
for tool in texel_gen texel_tune; do build_tool "$build" "$tool"; done
cd "$root"
data="$build/texel_positions_seed${SEED:-1}.txt"
if [ ! -s "$data" ]; then
    nice -n 19 "$build/texel_gen" --games "${GAMES:-2000}" --seed "${SEED:-1}" --nodes 2000 --features 0 \
        --random-plies 8 --keep-permille 400 --depth 8 --stockfish "${STOCKFISH:-/usr/games/stockfish}" \
        --out "$data.part"
    mv "$data.part" "$data"
fi
exec nice -n 19 "$build/texel_tune" "$data" "$@"
