// `chaiba moves --fen FEN [--uci] [--960]`: every legal move, one per line, sorted (SAN by default).
#include "engine/chess/movegen.h"
#include "engine/chess/notation.h"
#include "src/cli/rules_cli.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace chaiba::cli {

int runMoves(const std::vector<std::string>& argv) {
    Args args(argv, {"fen"}, {"uci", "960"});
    if (args.error()) return fail(*args.error(), kExitBadInput);
    if (!args.positional().empty())
        return fail("usage: chaiba moves --fen FEN [--uci] [--960]", kExitBadInput);
    const auto pos = positionFromArgs(args);
    if (!pos) return kExitBadInput;
    chess::MoveList moves;
    chess::generateLegal(*pos, moves);
    std::vector<std::string> lines;
    for (const chess::Move m : moves)
        lines.push_back(args.has("uci") ? chess::toUci(*pos, m) : chess::toSan(*pos, m));
    std::sort(lines.begin(), lines.end());
    for (const auto& l : lines) std::printf("%s\n", l.c_str());
    return kExitOk;
}

} // namespace chaiba::cli
