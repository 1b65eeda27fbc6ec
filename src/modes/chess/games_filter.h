// The games list's filter, shared by the arena's games list and the match screen's history: by
// player, result, how the game ended and opening. Free of ImGui (the combos that edit it are in
// ui/games_filter_bar.h) so the lists' contents are tested natively.
#pragma once

#include "src/modes/chess/tournament.h"

#include <string>
#include <string_view>

namespace chaiba::chessmode {

// What the filter looks at in one finished game; players and openings are indexes into the
// list's own choices (the arena's participants, the history's distinct names).
struct GameFacts {
    int white = -1;
    int black = -1;
    GameResult result = GameResult::Unfinished;
    std::string ending; // a stable snake_case name: terminationName(), or "resignation", "agreement", ...
    bool forfeit = false;
    int opening = -1; // -1: none known
};

// The four choices; each at its default lets every game through.
struct GamesFilter {
    enum Result { AnyResult = 0, Decisive = 1, Draws = 2, Forfeits = 3 };
    int player = -1; // either colour; -1: every player
    int result = AnyResult;
    std::string ending; // empty: any ending
    int opening = -1;   // -1: any opening

    bool matches(const GameFacts& g) const;
};

// "checkmate", "threefold repetition", "draw agreed": an ending name as people read it.
std::string endingLabel(std::string_view ending);

} // namespace chaiba::chessmode
