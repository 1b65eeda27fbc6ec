// The user's settings, typed and validated. Stored as one JSON blob under one key; the API key is
// stored under its own key and never appears in the blob, an export or a log.
#pragma once

#include "src/llm/call_settings.h"
#include "src/persist/key_value_store.h"
#include "src/ui/format.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace chaiba {

inline constexpr const char* kApiKeyStoreKey = "chaiba.apiKey";
inline constexpr const char* kSettingsStoreKey = "chaiba.settings";

// The shell's settings: the model call's (src/llm) and the page's own. The blob is flat, as older
// builds wrote it: each mode keeps its values under its own keys of the same object (read by the
// mode's module from `stored`, written back by it before a save; see ModeModule).
struct Settings : llm::CallSettings {
    std::vector<std::string> selectedModels; // empty: the shipped default list
    Theme theme = Theme::Light;
    // The blob as it was read (an object): the modes' keys, and keys this build does not know,
    // which are written back unchanged.
    nlohmann::json stored = nlohmann::json::object();
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

// The settings as JSON (`stored` with the shell's values over it), without the API key (for
// storage and for exports).
std::string settingsToJson(const Settings& settings);
SettingsLoad settingsFromJson(std::string_view json);

using llm::effortName;
using llm::kDefaultBaseUrl;
using llm::ReasoningEffort;
using llm::validateApiKey;
using llm::validateBaseUrl;

} // namespace chaiba
