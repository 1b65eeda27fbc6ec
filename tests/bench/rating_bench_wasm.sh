#!/bin/sh
# Builds `chaiba rating-bench` for WebAssembly (a node-run single file) and runs it: the browser-side
# figure for the Bradley-Terry + bootstrap recomputation. Usage: tests/bench/rating_bench_wasm.sh [ARGS]
set -e
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${TMPDIR:-/tmp}/chaiba_rating_bench_wasm
mkdir -p "$out"
cat > "$out/main.cpp" <<'CPP'
#include <string>
#include <vector>
namespace chaiba::cli { int runRatingBenchCommand(const std::vector<std::string>& args); }
int main(int argc, char** argv) {
    return chaiba::cli::runRatingBenchCommand(std::vector<std::string>(argv + 1, argv + argc));
}
CPP
export NODE_PATH=${NODE_PATH:-/usr/share/nodejs}
em++ -std=c++20 -O2 -I"$root" "$out/main.cpp" "$root/src/cli/rating_bench_command.cpp" "$root/src/cli/args.cpp" \
    "$root/src/play/rating.cpp" -sSINGLE_FILE=1 -sALLOW_MEMORY_GROWTH=1 -o "$out/rating_bench.js"
node "$out/rating_bench.js" "$@"
