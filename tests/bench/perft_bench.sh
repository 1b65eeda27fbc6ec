#!/usr/bin/env bash
# Perft speed benchmark (not a test): our native perft, our WASM perft under Node, Debian
# stockfish's `go perft` and chess.js's perft(), on the same machine in one go; prints the ratios.
# Goals: native >= stockfish (both bulk-count the last ply, both generic x86-64 builds);
# WASM >= 50x chess.js. Usage: tests/bench/perft_bench.sh   (from anywhere; builds what it needs)
set -euo pipefail
export NODE_PATH="${NODE_PATH:-/usr/share/nodejs}"  # emscripten tools need acorn from Debian
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
NATIVE_BUILD="${NATIVE_BUILD:-build/native}"
WASM_OUT="build/web-bench/chaiba_perft_node.js"
START="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
KIWIPETE="r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
CHESSJS="$ROOT/tests/e2e/node_modules/chess.js/dist/esm/chess.js"

echo "== building"
if [ ! -f "$NATIVE_BUILD/CMakeCache.txt" ]; then
  cmake -S . -B "$NATIVE_BUILD" -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
cmake --build "$NATIVE_BUILD" --target chaiba -j2 >/dev/null
mkdir -p build/web-bench
SOURCES=$(grep -o 'engine/[a-z_/]*\.cpp' engine/sources.cmake | tr '\n' ' ')
# Same flags as the bench_web.cmake target; built directly so no ImGui checkout is needed.
em++ -std=c++20 -O3 -DNDEBUG -I. tests/bench/perft_node_main.cpp $SOURCES -o "$WASM_OUT" \
  -sENVIRONMENT=node -sSINGLE_FILE=1 -sWASM_ASYNC_COMPILATION=0 -sNODERAWFS=1 -sEXIT_RUNTIME=1
[ -f "$CHESSJS" ] || (cd tests/e2e && npm ci --no-audit --no-fund >/dev/null)

nps_of() { sed -n 's/.*nps=\([0-9]*\).*/\1/p' | tail -1; }

# stockfish: time from "go perft" to "Nodes searched" (it prints no time itself).
stockfish_nps() {
  python3 - "$1" "$2" <<'PY'
import subprocess, sys, time
fen, depth = sys.argv[1], sys.argv[2]
sf = subprocess.Popen(["/usr/games/stockfish"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
def send(c):
    sf.stdin.write(c + "\n"); sf.stdin.flush()
send("uci"); send("isready")
while sf.stdout.readline().strip() != "readyok": pass
send("position fen " + fen)
t0 = time.perf_counter(); send("go perft " + depth)
while True:
    line = sf.stdout.readline()
    if line.startswith("Nodes searched:"):
        nodes = int(line.split(":")[1]); break
dt = time.perf_counter() - t0
send("quit")
print(f"nodes={nodes} time_ms={int(dt*1000)} nps={int(nodes/dt)}")
PY
}

chessjs_nps() {
  node --input-type=module -e "
    const { Chess } = await import('$CHESSJS');
    const c = new Chess('$1');
    const t0 = performance.now(); const n = c.perft($2); const dt = (performance.now() - t0) / 1000;
    console.log('nodes=' + n + ' time_ms=' + Math.round(dt * 1000) + ' nps=' + Math.round(n / dt));"
}

ratio() { python3 -c "print(f'{$1 / $2:.2f}')"; }

# Best of RUNS (the machine may be shared): runs the command RUNS times, keeps the highest nps line.
RUNS="${RUNS:-3}"
best_of() {
  local best="" best_nps=0 line nps
  for _ in $(seq "$RUNS"); do
    line=$("$@" | tail -1)
    nps=$(echo "$line" | nps_of)
    if [ "${nps:-0}" -gt "$best_nps" ]; then best="$line"; best_nps="$nps"; fi
  done
  echo "$best"
}

echo "(best of $RUNS runs each for chaiba and stockfish; chess.js runs once)"
echo "== native vs stockfish (start position depth 6, Kiwipete depth 5)"
for spec in "$START|6" "$KIWIPETE|5"; do
  fen="${spec%|*}"; depth="${spec#*|}"
  ours=$(best_of "$NATIVE_BUILD/chaiba" perft "$depth" --fen "$fen")
  sf=$(best_of stockfish_nps "$fen" "$depth")
  echo "  chaiba native : $ours"
  echo "  stockfish     : $sf"
  echo "  native / stockfish = $(ratio "$(echo "$ours" | nps_of)" "$(echo "$sf" | nps_of)")x"
done

echo "== WASM (Node) vs chess.js (start position depth 5, Kiwipete depth 4)"
for spec in "$START|5" "$KIWIPETE|4"; do
  fen="${spec%|*}"; depth="${spec#*|}"
  wasm=$(best_of node "$WASM_OUT" "$depth" "$fen")
  js=$(chessjs_nps "$fen" "$depth")
  echo "  chaiba wasm   : $wasm"
  echo "  chess.js      : $js"
  echo "  wasm / chess.js = $(ratio "$(echo "$wasm" | nps_of)" "$(echo "$js" | nps_of)")x"
done
wasm6=$(best_of node "$WASM_OUT" 6 "$START")
native6=$(best_of "$NATIVE_BUILD/chaiba" perft 6)
echo "== WASM vs native (start position depth 6): wasm $wasm6; native / wasm = $(ratio "$(echo "$native6" | nps_of)" "$(echo "$wasm6" | nps_of)")x"
