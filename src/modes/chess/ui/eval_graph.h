// The analysis widgets beside the board: an evaluation bar (White's share of the win percent,
// the score written at the leading end) and an evaluation graph of the whole game (win percent
// per ply, the ?!/?/?? moves as coloured dots, the viewed ply as a line; a click selects a ply).
// Drawn with ImGui draw lists; they read a GameAnalyser and emit a ply to show.
#pragma once

#include "src/modes/chess/game_analyser.h"

#include <optional>
#include <string>

namespace chaiba::ui {

struct Fonts;

// A vertical bar `width` x `height` at the cursor. `eval` may be null (not scored yet: a grey bar
// with "…"); `flipped` puts White at the top, as the board is drawn.
void drawEvalBar(const Fonts& fonts, const search::PositionEval* eval, const std::string& label, float width,
                 float height, bool flipped);

// The graph, `width` x `height`. Returns the ply clicked (0 = start), if any.
// `caption` (the accuracies) is written in a band along the top, above the curve (not over it).
std::optional<int> drawEvalGraph(const Fonts& fonts, const chessmode::GameAnalyser& analyser, int viewPly,
                                 float width, float height, const std::string& caption = {});

// "Accuracy: White 87.2 · Black 64.0" or "Analysing 12/40 positions…" (what the graph's title says).
std::string analysisSummary(const chessmode::GameAnalyser& analyser);

// The colour of a judged move's mark (inaccuracy yellow, mistake orange, blunder red).
unsigned int judgementColor(search::MoveJudgement j);

} // namespace chaiba::ui
