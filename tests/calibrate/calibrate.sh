#!/usr/bin/env bash
# Calibrates the built-in engine's levels against Debian's stockfish (UCI_LimitStrength/UCI_Elo)
# and prints each level's rating with a 95% interval (logistic model, maximum likelihood over all
# anchors; levels below stockfish's 1350 floor are rated against already-rated levels of ours).
#
# usage: tests/calibrate/calibrate.sh [CHAIBA_BINARY] [RESULTS_FILE]
# environment: GAMES (per pairing, default 10), MOVETIME_MS (stockfish's time per move, default 100),
#              SEED (default 1), STOCKFISH (default /usr/games/stockfish),
#              LADDER (pairings "LEVEL:ANCHOR[xGAMES][@MS] ...", ANCHOR = a stockfish Elo or L<level>,
#              MS = stockfish's time per move for that pairing instead of MOVETIME_MS).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
chaiba="${1:-$here/../../build/native/chaiba}"
results="${2:-$here/results.txt}"
games="${GAMES:-10}"
movetime="${MOVETIME_MS:-100}"
seed="${SEED:-1}"
stockfish="${STOCKFISH:-/usr/games/stockfish}"
# The pairings behind tests/calibrate/results.txt (RESULTS.md): 300 ms for stockfish at 2000 and
# above, so that it reaches the depth where its limited-strength mode picks its move.
ladder="${LADDER:-7:2000x6 7:2300x4 7:2200x10@300 6:2000x20@300 6:2200x20@300 5:1600 5:1800 5:1800x20
 4:1350 4:1500 3:1350 3:L4 2:1350 2:L3 1:L2x40 1:1350x20 0:L1x20}"

[ -x "$chaiba" ] || { echo "error: $chaiba not built (cmake --build build/native)" >&2; exit 2; }
: > "$results"
for pairing in $ladder; do
    level="${pairing%%:*}"
    anchor="${pairing#*:}"
    n="$games"
    ms="$movetime"
    if [[ "$anchor" == *@* ]]; then ms="${anchor#*@}"; anchor="${anchor%%@*}"; fi
    if [[ "$anchor" == *x* ]]; then n="${anchor#*x}"; anchor="${anchor%%x*}"; fi
    if [[ "$anchor" == L* ]]; then
        opponent=(--vs-level "${anchor#L}")
    else
        opponent=(--elo "$anchor" --stockfish "$stockfish" --movetime-ms "$ms")
    fi
    echo "== level $level vs $anchor: $n games" >&2
    "$chaiba" calibrate --level "$level" "${opponent[@]}" --games "$n" --seed "$seed" |
        while IFS= read -r line; do
            echo "$line" >&2
            if [[ "$line" == result* ]]; then echo "$line" >> "$results"; fi
            # Our level's think time (wall clock: depends on the machine and its load).
            if [[ "$line" == time* ]]; then echo "# $line" >> "$results"; fi
        done
done
echo "ladder: $ladder; games per pairing: $games unless xN; stockfish movetime: ${movetime} ms unless @MS; seed: $seed"
"$chaiba" calibrate --fit "$results"
