// `chaiba status --fen FEN [--960]`: ongoing, checkmate, stalemate, insufficient_material,
// fifty_move_claimable or seventy_five_move, plus " check" when the side to move is in check.
#include "engine/chess/game.h"
#include "src/cli/rules_cli.h"

#include <cstdio>
#include <string>
#include <vector>

namespace chaiba::cli {

const Usage& statusUsage() {
    static const Usage usage{"status",
                             "[--fen FEN] [--960]",
                             "ongoing, checkmate, stalemate, insufficient_material, fifty_move_claimable or "
                             "seventy_five_move (+ check)",
                             {fenOption(), chess960Option()},
                             ""};
    return usage;
}

int runStatus(const std::vector<std::string>& argv) {
    Args args(argv, statusUsage());
    if (args.error()) return fail(*args.error(), kExitBadInput);
    if (!args.positional().empty()) return failUsage(statusUsage());
    const auto pos = positionFromArgs(args);
    if (!pos) return kExitBadInput;
    const std::string_view name = chess::statusName(chess::positionStatus(*pos));
    std::printf("%.*s%s\n", static_cast<int>(name.size()), name.data(), pos->inCheck() ? " check" : "");
    return kExitOk;
}

} // namespace chaiba::cli
