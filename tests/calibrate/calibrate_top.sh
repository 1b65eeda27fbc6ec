#!/usr/bin/env bash
# Resumable calibration of the top levels against stockfish: pairings played two games at a time
# (one opening of the suite, both colours), round-robin over the pairings, each chunk's result
# appended to the results file at once; a chunk already in the file is skipped, so an interrupted
# run continues where it stopped. Fit at the end (or any time) with
#   chaiba calibrate --fit RESULTS_FILE
#
# Stockfish plays `go nodes N` (SF_NODES), a fixed node budget like our levels' own, so the results
# do not depend on the machine's load; it still searches past the depth where its UCI_Elo mode picks
# its move and keeps its hash between moves, as with a time a move (sittings 1-4). SF_NODES=0 plays
# `go depth D` instead, D the pick depth itself (sittings 5-7): that stockfish is weaker than its
# UCI_Elo (RESULTS.md, sitting 8), so those games are not on the scale of the others.
#
# usage: tests/calibrate/calibrate_top.sh [RESULTS_FILE]
# environment: PAIRINGS ("LEVEL:ELO ...", default below), CHUNKS (two-game chunks per pairing,
#              default 10; the suite has 10 openings, later chunks add seeded plies), BUILD (build directory, default build/engine),
#              STOCKFISH (default /usr/games/stockfish), SITTING (a tag such as "s7": its chunks are
#              marked "# chunk s7 LEVEL:ELO opening K", so a new sitting plays openings an earlier
#              one already played; empty for the sittings 5-6 markers), SF_NODES (stockfish's nodes
#              a move, default 300000: about 300 ms on one core of this machine; 0 = fixed depth),
#              FIRST_CHUNK (the first chunk's number, default 0: a later sitting of the same pairings
#              starts past the openings an earlier one played)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
results="${1:-$here/results.txt}"
pairings="${PAIRINGS:-9:2200 9:2400 8:2100}" # the anchors RESULTS.md (sitting 5) names for the next games
chunks="${CHUNKS:-10}"
first_chunk="${FIRST_CHUNK:-0}"
build="${BUILD:-$root/build/engine}"
stockfish="${STOCKFISH:-/usr/games/stockfish}"
sf_nodes="${SF_NODES:-300000}"
touch "$results"
source "$here/build_tool.sh"
build_tool "$build" selfplay
bin="$build/selfplay"
cd "$root"
suite_size=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["openings"]))' assets/chess/openings/classical.json)
for ((k = first_chunk; k < first_chunk + chunks; ++k)); do
    for pairing in $pairings; do
        level="${pairing%%:*}"
        elo="${pairing#*:}"
        marker="# chunk ${SITTING:+$SITTING }$level:$elo opening $k"
        grep -qxF "$marker" "$results" && continue
        # past the suite's end the same line is played again with four seeded plies after it (the
        # seed is the chunk's number), so no chunk repeats another's games
        plies=0
        [ "$k" -ge "$suite_size" ] && plies=4
        echo "== level $level vs stockfish $elo, opening $k" >&2
        budget=()
        [ "$sf_nodes" != 0 ] && budget=(--sf-nodes "$sf_nodes")
        # a busy machine can keep stockfish from answering `uci` in time: the chunk is tried again
        # (its games are seeded, so a retry plays the same games), the run stops after three tries
        out=""
        for attempt in 1 2 3; do
            if out=$(nice -n 10 "$bin" --level "$level" --stockfish "$stockfish" --sf-elo "$elo" "${budget[@]}" \
                --games 2 --book-plies "$plies" --opening-offset "$k" | tee -a /dev/stderr); then
                break
            fi
            [ "$attempt" = 3 ] && { echo "error: chunk $k of $pairing failed three times" >&2; exit 1; }
            echo "(chunk $k of $pairing failed, try $((attempt + 1)) of 3 in 10 s)" >&2
            sleep 10
        done
        { echo "$marker"; echo "$out" | grep -E '^(time|# stockfish)' | sed 's/^# //; s/^/# /'; echo "$out" | grep '^result'; } >> "$results"
    done
done
echo "done: $results" >&2
