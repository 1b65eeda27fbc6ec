#!/usr/bin/env bash
# Texel tuning of the full evaluation (levels 8 and up): builds texel_gen.cpp and texel_tune.cpp
# against the engine library of a CMake build directory, makes the data set if it is missing
# (seeded self-play of the classic search, quiet positions labelled by stockfish at depth 8; 54 060
# positions, 3.2 MB, kept out of git) and fits the numbers of engine/search/eval_params.h (kFeatureTunedEval).
#
# usage: tests/calibrate/texel_tune.sh [BUILD_DIR] [-- texel_tune options, e.g. --write engine/search/eval_params_tuned.cpp]
# environment: GAMES (default 2000), SEED (default 1), STOCKFISH (default /usr/games/stockfish),
#   NODES (the self-play engine's nodes a move, default 2000), FEATURES (its SearchFeature bits, default
#   0, the classic search; 54717 is kSearchStrongest), KEEP (the chance a quiet position is kept, per
#   mille, default 400). Sitting 15's data: GAMES=5000 NODES=5000 FEATURES=54717, SEED=501 and 502,
#   the two files put together (tests/calibrate/RESULTS.md).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
build="${1:-$root/build/engine}"
shift || true
[ "${1:-}" = "--" ] && shift
source "$here/build_tool.sh"
for tool in texel_gen texel_tune; do build_tool "$build" "$tool"; done
cd "$root"
nodes="${NODES:-2000}" features="${FEATURES:-0}"
data="$build/texel_positions_seed${SEED:-1}.txt"
# the data sets of other engines and budgets are named by them (the default keeps its old name)
[ "$nodes/$features/${GAMES:-2000}/${KEEP:-400}" = "2000/0/2000/400" ] || data="$build/texel_positions_seed${SEED:-1}_n${nodes}_f${features}_g${GAMES:-2000}_k${KEEP:-400}.txt"
if [ ! -s "$data" ]; then
    nice -n 19 "$build/texel_gen" --games "${GAMES:-2000}" --seed "${SEED:-1}" --nodes "$nodes" --features "$features" \
        --random-plies 8 --keep-permille "${KEEP:-400}" --depth 8 --stockfish "${STOCKFISH:-/usr/games/stockfish}" \
        --out "$data.part"
    mv "$data.part" "$data"
fi
exec nice -n 19 "$build/texel_tune" "$data" "$@"
