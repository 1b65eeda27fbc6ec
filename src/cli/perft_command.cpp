// `chaiba perft DEPTH [--fen FEN] [--960] [--divide]`: leaf counts with bulk counting; the last
// line is exactly `nodes=<N> time_ms=<T> nps=<X>`.
#include "engine/chess/movegen.h"
#include "engine/chess/notation.h"
#include "src/cli/rules_cli.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

namespace chaiba::cli {

const Usage& perftUsage() {
    static const Usage usage{"perft",
                             "DEPTH [--fen FEN] [--960] [--divide]",
                             "count the leaf nodes of the move tree to DEPTH (0-20)",
                             {fenOption(),
                              chess960Option(),
                              {"divide", "", "also print each legal move's count (UCI, sorted)"}},
                             "The last line is exactly `nodes=<N> time_ms=<T> nps=<X>`."};
    return usage;
}

int runPerft(const std::vector<std::string>& argv) {
    Args args(argv, perftUsage());
    if (args.error()) return fail(*args.error(), kExitBadInput);
    if (args.positional().size() != 1) return failUsage(perftUsage());
    const auto depth = parseInteger(args.positional()[0]);
    if (!depth || *depth < 0 || *depth > 20)
        return fail("DEPTH must be a whole number from 0 to 20", kExitBadInput);
    auto pos = positionFromArgs(args);
    if (!pos) return kExitBadInput;
    const auto start = std::chrono::steady_clock::now();
    uint64_t nodes = 0;
    if (args.has("divide") && *depth > 0) {
        chess::MoveList moves;
        chess::generateLegal(*pos, moves);
        std::vector<std::pair<std::string, uint64_t>> lines;
        for (const chess::Move m : moves) {
            const chess::Undo u = pos->makeMove(m);
            const uint64_t n = chess::perft(*pos, int(*depth) - 1);
            pos->unmakeMove(m, u);
            lines.emplace_back(chess::toUci(*pos, m), n);
            nodes += n;
        }
        std::sort(lines.begin(), lines.end());
        for (const auto& [uci, n] : lines)
            std::printf("%s: %llu\n", uci.c_str(), static_cast<unsigned long long>(n));
    } else {
        nodes = chess::perft(*pos, int(*depth));
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const auto ms = static_cast<long long>(seconds * 1000.0);
    const auto nps = static_cast<unsigned long long>(seconds > 0 ? double(nodes) / seconds : 0.0);
    std::printf("nodes=%llu time_ms=%lld nps=%llu\n", static_cast<unsigned long long>(nodes), ms, nps);
    return kExitOk;
}

} // namespace chaiba::cli
