// GamesFilter: see games_filter.h.
#include "src/modes/chess/games_filter.h"

#include <algorithm>

namespace chaiba::chessmode {

bool GamesFilter::matches(const GameFacts& g) const {
    if (player >= 0 && g.white != player && g.black != player) return false;
    const bool draw = g.result == GameResult::Draw;
    if ((result == Decisive && draw) || (result == Draws && !draw) || (result == Forfeits && !g.forfeit))
        return false;
    if (!ending.empty() && g.ending != ending) return false;
    if (opening >= 0 && g.opening != opening) return false;
    return true;
}

std::string endingLabel(std::string_view ending) {
    if (ending == "agreement") return "draw agreed";
    std::string how(ending);
    std::replace(how.begin(), how.end(), '_', ' ');
    return how;
}

} // namespace chaiba::chessmode
