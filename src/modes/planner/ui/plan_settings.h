// The planner's own settings: which provider answers in "Plan with AI" (OpenRouter by default, or
// Anthropic's Messages API with its own key), the model of each, Anthropic's base URL, whether the
// panel is open. The blob is versioned; the Anthropic key lives under its own localStorage key
// like the OpenRouter key, never in the blob, an export or a log.
#pragma once

#include "src/modes/planner/plan_chat.h"
#include "src/persist/key_value_store.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace chaiba::planner {

inline constexpr const char* kPlannerSettingsStoreKey = "chaiba.planner.settings";
inline constexpr const char* kAnthropicKeyStoreKey = "chaiba.planner.anthropicKey";
inline constexpr int kPlannerSettingsVersion = 1;

enum class Provider : std::uint8_t { OpenRouter, Anthropic };
const char* providerName(Provider provider); // "openrouter", "anthropic"
std::optional<Provider> parseProvider(const std::string& text);

struct PlannerSettings {
    Provider provider = Provider::OpenRouter;
    std::string openRouterModel = kDefaultPlannerModel;      // plan_chat.h: the CLI's too
    std::string anthropicModel = kDefaultAnthropicPlannerModel;
    std::string anthropicBaseUrl = "https://api.anthropic.com";
    std::string anthropicKey; // secret
    bool panelOpen = false;
    bool review = true; // the model's changes wait for Accept (absent in older blobs: on)
    const std::string& model() const { return provider == Provider::Anthropic ? anthropicModel : openRouterModel; }
};

// Missing values take their defaults; bad ones too, with a sentence in *warnings.
PlannerSettings loadPlannerSettings(const KeyValueStore& store, std::vector<std::string>* warnings);
// An error sentence when the store refused a write.
std::optional<std::string> savePlannerSettings(KeyValueStore& store, const PlannerSettings& settings);

} // namespace chaiba::planner
