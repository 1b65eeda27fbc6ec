// `chaiba fen --fen FEN --apply "MOVE MOVE ..." [--960]`: applies SAN or UCI moves and prints the
// resulting FEN; an illegal move prints `error: <reason>` and exits 1.
#include "engine/chess/notation.h"
#include "src/cli/rules_cli.h"

#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

namespace chaiba::cli {

const Usage& fenUsage() {
    static const Usage usage{"fen",
                             "[--fen FEN] --apply \"MOVE MOVE ...\" [--960]",
                             "apply SAN/UCI moves, print the FEN (an illegal move: `error: ...`, exit 1)",
                             {fenOption(),
                              {"apply", "MOVES", "space-separated SAN or UCI moves to play (default: none)"},
                              chess960Option()},
                             ""};
    return usage;
}

int runFen(const std::vector<std::string>& argv) {
    Args args(argv, fenUsage());
    if (args.error()) return fail(*args.error(), kExitBadInput);
    if (!args.positional().empty()) return failUsage(fenUsage());
    auto pos = positionFromArgs(args);
    if (!pos) return kExitBadInput;
    std::istringstream moves(args.value("apply").value_or(""));
    std::string text;
    int ply = 0;
    while (moves >> text) {
        ++ply;
        const chess::MoveResult r = chess::parseSanOrUci(*pos, text);
        if (!r.ok()) return fail("move " + std::to_string(ply) + " (" + text + "): " + r.error, kExitIllegal);
        pos->makeMove(r.move);
    }
    std::printf("%s\n", pos->fen().c_str());
    return kExitOk;
}

} // namespace chaiba::cli
