// The games list's filter combos (player, result, ending, opening), one row that wraps on a phone:
// the arena's games list and the match history draw the same bar over their own choices.
#pragma once

#include "src/modes/chess/games_filter.h"
#include "src/ui/flow_row.h"
#include "src/ui/fonts.h"

#include <string>
#include <vector>

namespace chaiba::ui {

// What the combos offer: player names (GameFacts' indexes), the endings that occurred (stable names,
// in the order listed) and the openings (shown when there are at least `minOpenings`).
struct GamesFilterChoices {
    std::vector<std::string> players;
    std::vector<std::string> endings;
    std::vector<std::string> openings;
    size_t minOpenings = 2;
};

// Draws the combos in `row` (the caller's flow: the count after them wraps with them) and edits
// `filter` (plain values the list owns; a choice that no longer exists falls back to "any").
// Items are marked "<idPrefix>.player", ".result", ".ending", ".ending.<name>", ".opening" and
// ".opening.<index>".
void drawGamesFilterBar(const Fonts& fonts, chessmode::GamesFilter& filter, const GamesFilterChoices& choices,
                        const std::string& idPrefix, FlowRow& row);

} // namespace chaiba::ui
