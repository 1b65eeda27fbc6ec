// The user's settings, typed and validated. Stored as a JSON blob under one key; the API key is
// stored under its own key and never appears in the blob, an export or a log.
#pragma once

#include "src/modes/chess/board_look.h"
#include "src/modes/chess/chess_settings.h"
#include "src/ui/format.h"
#include "src/persist/key_value_store.h"

#include <string>
#include <vector>

namespace chaiba {

inline constexpr const char* kApiKeyStoreKey = "chaiba.apiKey";
inline constexpr const char* kSettingsStoreKey = "chaiba.settings";

// Everything the person set, one flat struct over each layer's part (the blob's keys are flat
// too, as older builds wrote them): the model call's (src/llm), the chess mode's, and the app's.
struct Settings : chessmode::ChessPlaySettings {
    std::vector<std::string> selectedModels; // empty: the shipped default list
    Theme theme = Theme::Light;
    chessmode::PieceSet pieceSet = chessmode::PieceSet::Cburnett;   // every board's pieces
    chessmode::BoardTheme boardTheme = chessmode::BoardTheme::Brown; // every board's squares
};

struct SettingsLoad {
    Settings settings;
    std::vector<std::string> warnings;  // one sentence per value that was missing-but-corrupt or out of range
};

// Missing values take their defaults silently; corrupt or out-of-range ones take their defaults
// with a warning, and an unreadable blob is kept under "<key>.corrupt" so nothing is lost.
SettingsLoad loadSettings(KeyValueStore& store);
// Returns an error message when the store refused the write.
std::optional<std::string> saveSettings(KeyValueStore& store, const Settings& settings);

// The settings as JSON, without the API key (for storage and for exports).
std::string settingsToJson(const Settings& settings);
SettingsLoad settingsFromJson(std::string_view json);

using llm::effortName;
using llm::kDefaultBaseUrl;
using llm::ReasoningEffort;
using llm::validateApiKey;
using llm::validateBaseUrl;

} // namespace chaiba
