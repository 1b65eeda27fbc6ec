// The chess mode's part of the user's settings: prompt overrides, what each turn tells the model,
// retries, the pace of engine moves and the boards' look. Kept under the chess keys of the page's
// one settings blob (flat, as older builds wrote them), read and written here.
#pragma once

#include "src/modes/chess/layers.h"
#include "src/llm/call_settings.h"
#include "src/modes/chess/board_look.h"
#include "src/modes/chess/conversation.h"

#include <nlohmann/json_fwd.hpp>

#include <string>
#include <vector>

namespace chaiba::chessmode {

struct ChessSettings {
    std::string promptBase; // empty: the shipped default prompt
    std::string promptWhite;
    std::string promptBlack;
    bool sendContextMessage = true; // FEN + move history each turn
    ContextPolicy contextPolicy = ContextPolicy::Full; // what each request carries (conversation.h)
    int contextWindowMoves = kDefaultContextWindowMoves; // the windowed policy's N
    bool sendLegalMoves = false;
    int retryAttempts = 3; // 0..10 retries after an invalid move
    bool sendFenOnError = true;
    int engineMoveDelayMs = 700; // 0..10000, pace of engine moves
};

// What chess play reads of the settings: the model call's part and the chess mode's.
struct ChessPlaySettings : llm::CallSettings, ChessSettings {};

// The chess values of the settings blob: a missing one keeps its default; a bad one keeps its
// default with a warning naming it (the others still read).
void readChessSettings(const nlohmann::json& blob, ChessSettings& settings, BoardLook& look,
                       std::vector<std::string>& warnings);
// Puts the chess values into the blob (the other keys stay as they are).
void writeChessSettings(nlohmann::json& blob, const ChessSettings& settings, const BoardLook& look);

} // namespace chaiba::chessmode
