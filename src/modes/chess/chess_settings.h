// The chess mode's part of the user's settings: prompt overrides, what each turn tells the model,
// retries and the pace of engine moves. Stored by the app in the one settings blob.
#pragma once

#include "src/modes/chess/layers.h"
#include "src/llm/call_settings.h"
#include "src/modes/chess/conversation.h"

#include <string>

namespace chaiba::chessmode {

struct ChessSettings {
    std::string promptBase; // empty: the shipped default prompt
    std::string promptWhite;
    std::string promptBlack;
    bool sendContextMessage = true; // FEN + move history each turn
    ContextPolicy contextPolicy = ContextPolicy::Full; // what each request carries (conversation.h)
    bool sendLegalMoves = false;
    int retryAttempts = 3; // 0..10 retries after an invalid move
    bool sendFenOnError = true;
    int engineMoveDelayMs = 700; // 0..10000, pace of engine moves
};

// What chess play reads of the settings: the model call's part and the chess mode's.
struct ChessPlaySettings : llm::CallSettings, ChessSettings {};

} // namespace chaiba::chessmode
