// The chess keys of the settings blob: the names older builds wrote, each decoded on its own.
#include "src/modes/chess/chess_settings.h"

#include "src/persist/settings_fields.h"

#include <nlohmann/json.hpp>

namespace chaiba::chessmode {

void readChessSettings(const nlohmann::json& blob, ChessSettings& s, BoardLook& look,
                       std::vector<std::string>& warnings) {
    persist::SettingsFields r(blob, warnings);
    r.text("promptBase", s.promptBase);
    r.text("promptWhite", s.promptWhite);
    r.text("promptBlack", s.promptBlack);
    r.flag("sendContextMessage", s.sendContextMessage);
    r.flag("sendLegalMoves", s.sendLegalMoves);
    r.integer("retryAttempts", s.retryAttempts, 0, 10);
    r.flag("sendFenOnError", s.sendFenOnError);
    r.integer("engineMoveDelayMs", s.engineMoveDelayMs, 0, 10000);
    // Added with the windowed policy: blobs written before it take the full conversation.
    r.choice("contextPolicy", s.contextPolicy, kContextPolicies, contextPolicyName);
    r.integer("contextWindowMoves", s.contextWindowMoves, 1, kMaxContextWindowMoves);
    // Added with the piece sets: blobs written before them take the defaults (cburnett, brown).
    r.choice("pieceSet", look.pieceSet, kPieceSets, pieceSetName);
    r.choice("boardTheme", look.boardTheme, kBoardThemes, boardThemeName);
}

void writeChessSettings(nlohmann::json& blob, const ChessSettings& s, const BoardLook& look) {
    if (!blob.is_object()) blob = nlohmann::json::object();
    blob["promptBase"] = s.promptBase;
    blob["promptWhite"] = s.promptWhite;
    blob["promptBlack"] = s.promptBlack;
    blob["sendContextMessage"] = s.sendContextMessage;
    blob["sendLegalMoves"] = s.sendLegalMoves;
    blob["retryAttempts"] = s.retryAttempts;
    blob["sendFenOnError"] = s.sendFenOnError;
    blob["engineMoveDelayMs"] = s.engineMoveDelayMs;
    blob["contextPolicy"] = contextPolicyName(s.contextPolicy);
    blob["contextWindowMoves"] = s.contextWindowMoves;
    blob["pieceSet"] = pieceSetName(look.pieceSet);
    blob["boardTheme"] = boardThemeName(look.boardTheme);
}

} // namespace chaiba::chessmode
