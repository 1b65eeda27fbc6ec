// What a reasoning panel shows for one side of a game, built from a live match (moves, the
// agent's calls: rejected attempts, the model's own reasoning, live streamed text) or from a
// finished game's record. Shared by the match screen and the arena's game view; free of ImGui.
#pragma once

#include "src/modes/chess/match.h"
#include "src/modes/chess/tournament.h"
#include "src/ui/reasoning_panel.h"

#include <string>

namespace chaiba {

// `player` is the side's player (an LLM's agent adds attempts and live text); `isLlm` and
// `isHuman` choose the empty-panel text.
ui::ReasoningPanelModel reasoningFromMatch(const chessmode::MatchRunner& match, chess::Color side, chessmode::Player* player,
                                           std::string title, bool isLlm, bool isHuman);

// From a recorded game: each move's reasoning and how many answers were rejected.
ui::ReasoningPanelModel reasoningFromRecord(const chessmode::GameRecord& game, chess::Color side, std::string title);

// Move number label of a ply for a move list: ply 0 -> "1.", ply 1 -> "1...", ply 2 -> "2.".
std::string moveNumberLabel(int ply, int startFullmove = 1, bool startBlack = false);

} // namespace chaiba
