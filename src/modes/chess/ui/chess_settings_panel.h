// The chess sections of the Settings window: the prompts (edited or shipped), how models play
// (context message, legal moves, retries), the boards' pieces and squares, and the pace of engine
// moves. Edits the chess mode's settings; the shell saves them with the rest.
#pragma once

#include "src/modes/chess/chess_prompts.h"
#include "src/modes/chess/chess_settings.h"
#include "src/ui/format.h"

#include <string>

namespace chaiba::ui {
struct Fonts;
}

namespace chaiba::chessmode {

class ChessSettingsPanel {
public:
    // `defaults`: the shipped prompts (shown while a prompt is not edited); outlive the panel.
    explicit ChessSettingsPanel(const AgentPrompts& defaults) : defaults_(defaults) {}
    // True when something changed that must be saved. `pieceSetProblem`: why the chosen pieces are
    // not drawn (glyphs are), or "".
    bool draw(const ui::Fonts& fonts, ChessSettings& settings, BoardLook& look, Theme pageTheme,
              const std::string& pieceSetProblem);

private:
    bool drawPrompts(const ui::Fonts& fonts, ChessSettings& settings);
    bool drawBoardLook(BoardLook& look, Theme pageTheme, const std::string& pieceSetProblem);

    const AgentPrompts& defaults_;
    char promptBuffers_[3][8192] = {};
    int lastFrame_ = -2; // the frame last drawn: a gap (the window was closed) reloads the prompts' text
};

} // namespace chaiba::chessmode
