// The strongest level's think time on a fixed set of positions, the same source built natively
// and as WASM under Node (tests/calibrate/search_speed.sh), for the WASM/native speed ratio and
// the top level's time a move in the browser's engine worker. Standard library and engine/ only.
#include "engine/search/board_glue.h"
#include "engine/search/levels.h"
#include "engine/search/player.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace chaiba;

int main(int argc, char** argv) {
    const int level = argc > 1 ? std::atoi(argv[1]) : search::maxLevel();
    const auto spec = search::levelSpec(level);
    if (!spec) {
        std::fprintf(stderr, "error: no level %d\n", level);
        return 2;
    }
    // Middlegames and endgames from the bench set and common test suites.
    const char* fens[] = {
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        "r1bq1rk1/pp2nppp/2n1p3/3pP3/1b1P4/2NB1N2/PP3PPP/R1BQK2R w KQ - 0 9",
        "2r3k1/pp3ppp/4p3/3n4/3P4/P4N2/1P3PPP/2R3K1 b - - 0 25",
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
        "rnbqkb1r/pp2pppp/3p1n2/8/3NP3/2N5/PPP2PPP/R1BQKB1R b KQkq - 2 5",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r2q1rk1/ppp2ppp/2np1n2/2b1p1B1/2B1P1b1/2NP1N2/PPP2PPP/R2Q1RK1 w - - 6 8",
    };
    uint64_t nodes = 0;
    double totalMs = 0, maxMs = 0;
    int n = 0;
    for (const char* fen : fens) {
        std::string error;
        auto pos = search::glue::positionFromFen(fen, false, error);
        if (!pos) {
            std::fprintf(stderr, "error: %s\n", error.c_str());
            return 1;
        }
        const auto t0 = std::chrono::steady_clock::now();
        const auto c = search::chooseMove(*pos, *spec, 1);
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        nodes += c.nodes;
        totalMs += ms;
        maxMs = ms > maxMs ? ms : maxMs;
        ++n;
        std::printf("position %d: depth %d nodes %llu %.0f ms\n", n, c.depth, static_cast<unsigned long long>(c.nodes),
                    ms);
    }
    std::printf("level=%d positions=%d nodes=%llu avg_ms=%.0f max_ms=%.0f knps=%.0f\n", level, n,
                static_cast<unsigned long long>(nodes), totalMs / n, maxMs, nodes / totalMs);
    return 0;
}
