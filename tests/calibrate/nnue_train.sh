#!/usr/bin/env bash
# The evaluation network of sitting 17 (engine/search/nnue.h, kFeatureNnue), from nothing: quiet
# positions of seeded self-play (texel_gen: the strongest search at 1 000 nodes a move, the suite's
# openings plus random near-best plies), relabelled with Debian stockfish's static evaluation
# (nnue_label.py), then fitted on top of the full evaluation (nnue_train.cpp) and written to
# engine/search/nnue_weights.cpp. About an hour on this 2-core machine; the data (2.7 M positions,
# 250 MB) stays out of git, in DATA_DIR.
#
# usage: tests/calibrate/nnue_train.sh [BUILD_DIR]
# environment: DATA_DIR (default BUILD_DIR/nnue), STOCKFISH (default /usr/games/stockfish)
#
# Each seed's stream is cut at the line count sitting 17 used (its generators were stopped by the
# clock, not at a game count). The fit runs on every core and sums the cores' gradients in a fixed
# order: the weights repeat on a machine with as many cores, and differ by float rounding elsewhere.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
build="${1:-$root/build/engine}"
data="${DATA_DIR:-$build/nnue}"
stockfish="${STOCKFISH:-/usr/games/stockfish}"
source "$here/build_tool.sh"
for tool in texel_gen nnue_train; do build_tool "$build" "$tool"; done
mkdir -p "$data"
cd "$root"
# seed, stockfish depth of texel_gen's quiet test, random plies, lines
for spec in "901 6 10 635290" "902 6 10 644789" "903 1 12 724015" "904 1 12 717872"; do
    read -r seed depth plies lines <<<"$spec"
    file="$data/positions_$seed.txt"
    if [ "$(wc -l <"$file" 2>/dev/null || echo 0)" != "$lines" ]; then
        { nice -n 10 "$build/texel_gen" --games 100000 --seed "$seed" --nodes 1000 --features 54717 \
            --random-plies "$plies" --keep-permille 1000 --depth "$depth" --stockfish "$stockfish" \
            --out /dev/stdout 2>/dev/null || true; } | head -n "$lines" >"$file.part"
        [ "$(wc -l <"$file.part")" = "$lines" ] || { echo "error: seed $seed gave too few positions" >&2; exit 1; }
        mv "$file.part" "$file"
    fi
    [ -s "$data/static_$seed.txt" ] ||
        python3 "$here/nnue_label.py" "$file" "$data/static_$seed.txt" --stockfish "$stockfish"
done
"$build/nnue_train" "$data"/static_90{1,2,3,4}.txt --base --hidden 128 --w2-init 10 --epochs 60 --batch 16384 \
    --lr 0.004 --out "$data/net.txt" --export-cpp engine/search/nnue_weights.cpp
