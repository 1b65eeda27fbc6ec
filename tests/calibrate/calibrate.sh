#!/usr/bin/env bash
# Calibrates the built-in engine's levels against Debian's stockfish (UCI_LimitStrength/UCI_Elo)
# and prints each level's rating with a 95% interval (logistic model, maximum likelihood over all
# anchors; levels below stockfish's 1350 floor are rated against already-rated levels of ours).
#
# usage: tests/calibrate/calibrate.sh [CHAIBA_BINARY] [RESULTS_FILE]
# environment: GAMES (per pairing, default 10), MOVETIME_MS (stockfish's time per move, default 100),
#              SEED (default 1), STOCKFISH (default /usr/games/stockfish),
#              LADDER (pairings "LEVEL:ANCHOR[xGAMES][@MS][%SEED] ...", ANCHOR = a stockfish Elo or
#              L<level>, MS = stockfish's time per move for that pairing instead of MOVETIME_MS,
#              SEED = this pairing's seed instead of SEED).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
chaiba="${1:-$here/../../build/native/chaiba}"
results="${2:-$here/results.txt}"
games="${GAMES:-10}"
movetime="${MOVETIME_MS:-100}"
seed="${SEED:-1}"
stockfish="${STOCKFISH:-/usr/games/stockfish}"
# The pairings behind tests/calibrate/results.txt (RESULTS.md, sitting 4): 300 ms for stockfish at
# 1800 and above with our levels 6 and 7, so that it reaches the depth where its limited-strength
# mode picks its move; %SEED adds games to a pairing already played with another seed (stockfish's
# own choices are random, so its games differ in any case).
ladder="${LADDER:-7:2000x10@300 7:2000x20@300%6 7:2100x20@300%3 7:2200x20@300 6:1800x20@300 6:2000x20@300
 6:2000x20@300%7 6:2200x20@300%3 5:1600x20%5 5:1800x20%5 5:2000x20@300%5 4:1350x10 4:1350x20%2 4:1500x10
 4:1500x20%2 4:1700x20%3 3:1350x20%5 3:1500x20%5 2:1350x10 2:1350x20%2 2:1350x20%7 2:1500x20%3 1:1350x10
 1:1350x20%2 1:1350x20%7 0:L1x20}"

[ -x "$chaiba" ] || { echo "error: $chaiba not built (cmake --build build/native)" >&2; exit 2; }
: > "$results"
for pairing in $ladder; do
    level="${pairing%%:*}"
    anchor="${pairing#*:}"
    n="$games"
    ms="$movetime"
    s="$seed"
    if [[ "$anchor" == *%* ]]; then s="${anchor#*%}"; anchor="${anchor%%%*}"; fi
    if [[ "$anchor" == *@* ]]; then ms="${anchor#*@}"; anchor="${anchor%%@*}"; fi
    if [[ "$anchor" == *x* ]]; then n="${anchor#*x}"; anchor="${anchor%%x*}"; fi
    if [[ "$anchor" == L* ]]; then
        opponent=(--vs-level "${anchor#L}")
    else
        opponent=(--elo "$anchor" --stockfish "$stockfish" --movetime-ms "$ms")
    fi
    echo "== level $level vs $anchor: $n games, seed $s" >&2
    if [[ "$anchor" == L* ]]; then
        echo "# $pairing: seed $s" >> "$results"
    else
        echo "# $pairing: stockfish $ms ms per move, seed $s" >> "$results"
    fi
    "$chaiba" calibrate --level "$level" "${opponent[@]}" --games "$n" --seed "$s" |
        while IFS= read -r line; do
            echo "$line" >&2
            if [[ "$line" == result* ]]; then echo "$line" >> "$results"; fi
            # Our level's think time (wall clock: depends on the machine and its load).
            if [[ "$line" == time* ]]; then echo "# $line" >> "$results"; fi
        done
done
echo "ladder: $ladder; games per pairing: $games unless xN; stockfish movetime: ${movetime} ms unless @MS; seed: $seed unless %SEED"
"$chaiba" calibrate --fit "$results"
