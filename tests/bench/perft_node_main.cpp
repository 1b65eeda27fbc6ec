// Tiny perft driver for the WASM benchmark under Node (target chaiba_perft_node, bench_web.cmake):
// `node chaiba_perft_node.js DEPTH [FEN]` prints `nodes=<N> time_ms=<T> nps=<X>` like `chaiba perft`.
#include "engine/chess/movegen.h"
#include "engine/chess/position.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
    using namespace chaiba::chess;
    const int depth = argc > 1 ? std::atoi(argv[1]) : 5;
    FenResult r = argc > 2 ? Position::fromFen(argv[2]) : FenResult{Position::startPosition(), ""};
    if (!r.ok()) {
        std::printf("error: %s\n", r.error.c_str());
        return 2;
    }
    Position pos = *r.position;
    const auto start = std::chrono::steady_clock::now();
    const uint64_t nodes = perft(pos, depth);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("nodes=%llu time_ms=%lld nps=%llu\n", static_cast<unsigned long long>(nodes),
                static_cast<long long>(seconds * 1000),
                static_cast<unsigned long long>(nodes / (seconds > 0 ? seconds : 1)));
    return 0;
}
