// `chaiba bench`: searches a fixed set of positions to a fixed depth with a fresh engine each
// time. The node total is a signature of the search's behaviour; time and nps measure speed.
#include "src/cli/args.h"

#include "engine/search/board_glue.h"
#include "engine/search/search.h"

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

namespace chaiba::cli {

namespace {

struct BenchPosition {
    const char* fen;
    bool chess960;
};

// Openings, middlegames, endgames, a mate, and a Chess960 start.
constexpr BenchPosition kBenchPositions[] = {
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false},
    {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", false},
    {"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", false},
    {"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", false},
    {"rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", false},
    {"r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", false},
    {"r1bq1rk1/pp2nppp/2n1p3/3pP3/1b1P4/2NB1N2/PP3PPP/R1BQK2R w KQ - 0 9", false},
    {"2r3k1/pp3ppp/4p3/3n4/3P4/P4N2/1P3PPP/2R3K1 b - - 0 25", false},
    {"6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", false},
    {"8/8/4k3/8/2K5/3P4/8/8 w - - 0 1", false},
    {"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", true},
};

} // namespace

const Usage& benchUsage() {
    static const Usage usage{"bench",
                             "[--depth D] [--hash MB] [--strongest | --top-levels]",
                             "fixed-depth search benchmark (node signature, nps)",
                             {{"depth", "D", "search depth per position, 1-30 (default 9)"},
                              {"hash", "MB", "transposition table size in MiB, 1-1024 (default 16)"},
                              {"strongest", "", "search with the strongest search (level 9's and the judge's) instead of the "
                                                "classic one of levels 1-7"},
                              {"top-levels", "", "search with level 8's search (the top levels' of sittings 8-9)"}},
                             "The last line is exactly `nodes=<N> time_ms=<T> nps=<X>`."};
    return usage;
}

int runBenchCommand(const std::vector<std::string>& argv) {
    Args args(argv, benchUsage());
    const int depth = static_cast<int>(args.integer("depth", 9, 1, 30));
    const int hash = static_cast<int>(args.integer("hash", 16, 1, 1024));
    if (args.error()) {
        std::fprintf(stderr, "error: %s\n", args.error()->c_str());
        return 2;
    }
    if (args.has("strongest") && args.has("top-levels")) {
        std::fprintf(stderr, "error: --strongest and --top-levels name two searches: pick one\n");
        return 2;
    }
    uint64_t totalNodes = 0;
    const auto start = std::chrono::steady_clock::now();
    int index = 0;
    for (const auto& bp : kBenchPositions) {
        std::string error;
        auto position = search::glue::positionFromFen(bp.fen, bp.chess960, error);
        if (!position) {
            std::fprintf(stderr, "error: bench position %d: %s\n", index + 1, error.c_str());
            return 1;
        }
        search::Searcher searcher(static_cast<std::size_t>(hash));
        search::SearchLimits limits;
        limits.maxDepth = depth;
        limits.features = args.has("strongest")    ? search::kSearchStrongest
                          : args.has("top-levels") ? search::kSearchTopLevels
                                                   : search::kSearchClassic;
        const auto r = searcher.search(*position, limits);
        totalNodes += r.nodes;
        std::printf("position %2d: depth %d score %6d nodes %10llu best %s\n", ++index, r.completedDepth,
                    r.score, static_cast<unsigned long long>(r.nodes),
                    r.hasMove ? search::glue::moveToUci(*position, r.bestMove, bp.chess960).c_str()
                              : "(none)");
    }
    const auto ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start)
            .count();
    std::printf("nodes=%llu time_ms=%lld nps=%llu\n", static_cast<unsigned long long>(totalNodes),
                static_cast<long long>(ms),
                static_cast<unsigned long long>(totalNodes * 1000 / static_cast<uint64_t>(ms > 0 ? ms : 1)));
    return 0;
}

} // namespace chaiba::cli
