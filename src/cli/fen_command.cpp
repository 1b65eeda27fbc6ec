// `chaiba fen --fen FEN --apply "MOVE MOVE ..." [--960]`: applies SAN or UCI moves and prints the
// resulting FEN; an illegal move prints `error: <reason>` and exits 1.
#include "engine/chess/notation.h"
#include "src/cli/rules_cli.h"

#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

namespace chaiba::cli {

int runFen(const std::vector<std::string>& argv) {
    Args args(argv, {"fen", "apply"}, {"960"});
    if (args.error()) return fail(*args.error(), kExitBadInput);
    if (!args.positional().empty())
        return fail("usage: chaiba fen --fen FEN --apply \"MOVE MOVE ...\"", kExitBadInput);
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
