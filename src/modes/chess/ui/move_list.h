// The move list: SAN with move numbers in two columns, the viewed move highlighted, a click shows
// that position; buttons and arrow keys step through the game, "Live" returns to the newest move.
#pragma once

#include "engine/search/analysis.h"
#include "src/ui/format.h"

#include <string>
#include <vector>

namespace chaiba::ui {

struct Fonts;

struct MoveListModel {
    std::vector<std::string> sans;  // one per ply, in order
    int startFullmove = 1;
    bool startBlack = false;        // the first ply is Black's
    std::string result;             // "1-0", ... shown after the last move ("" while running)
    // Move quality per ply, as far as analysed (may be shorter than sans): ?!, ?, ?? after the SAN,
    // in the judgement's colour.
    std::vector<search::MoveJudgement> marks;
};

// Draws the navigation buttons and the list (filling `height`); keyboard arrows act when the
// page has no text field active.
void drawMoveList(const Fonts& fonts, const MoveListModel& model, MoveNavigator& nav, float height);

} // namespace chaiba::ui
