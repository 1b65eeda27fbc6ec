// The user's settings, typed and validated. Stored as a JSON blob under one key; the API key is
// stored under its own key and never appears in the blob, an export or a log.
#pragma once

#include "src/app/key_value_store.h"

#include <string>
#include <vector>

namespace chaiba {

enum class Theme { Light, Dark };
enum class ReasoningEffort { Default, Minimal, Low, Medium, High };

const char* themeName(Theme theme);
const char* effortName(ReasoningEffort effort);

inline constexpr const char* kDefaultBaseUrl = "https://openrouter.ai/api/v1";
inline constexpr const char* kApiKeyStoreKey = "chaiba.apiKey";
inline constexpr const char* kSettingsStoreKey = "chaiba.settings";

struct Settings {
    std::string apiKey;                        // secret; see file comment
    std::string baseUrl = kDefaultBaseUrl;     // any OpenAI-compatible server
    std::vector<std::string> selectedModels;   // empty: the shipped default list
    std::string promptBase;                    // empty: the shipped default prompt
    std::string promptWhite;
    std::string promptBlack;
    bool sendContextMessage = true;            // FEN + move history each turn
    bool sendLegalMoves = false;
    int retryAttempts = 3;                     // 0..10 retries after an invalid move
    bool sendFenOnError = true;
    double temperature = -1.0;                 // < 0: the model's default; else 0..2
    int maxTokens = 0;                         // 0: the model's default; else 1..200000
    ReasoningEffort reasoningEffort = ReasoningEffort::Default;
    int engineMoveDelayMs = 700;               // 0..10000, pace of engine moves
    int requestTimeoutSeconds = 300;           // 1..3600: a model answer slower than this is a timeout
    Theme theme = Theme::Light;
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

// A base URL is http(s)://host[...] without trailing slash; returns an error sentence or nothing.
std::optional<std::string> validateBaseUrl(std::string_view url);
// A key looks plausible (non-empty, printable, no spaces); returns an error sentence or nothing.
std::optional<std::string> validateApiKey(std::string_view key);

} // namespace chaiba
