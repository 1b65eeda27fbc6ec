// The planner's settings: a versioned JSON blob and the Anthropic key under its own key.
#include "src/modes/planner/ui/plan_settings.h"

#include "src/llm/call_settings.h"

#include <nlohmann/json.hpp>

namespace chaiba::planner {

using nlohmann::json;

const char* providerName(Provider provider) { return provider == Provider::Anthropic ? "anthropic" : "openrouter"; }

std::optional<Provider> parseProvider(const std::string& text) {
    if (text == "openrouter") return Provider::OpenRouter;
    if (text == "anthropic") return Provider::Anthropic;
    return std::nullopt;
}

PlannerSettings loadPlannerSettings(const KeyValueStore& store, std::vector<std::string>* warnings) {
    PlannerSettings s;
    auto warn = [&](std::string text) {
        if (warnings) warnings->push_back(std::move(text));
    };
    if (auto key = store.get(kAnthropicKeyStoreKey)) s.anthropicKey = *key;
    const std::optional<std::string> text = store.get(kPlannerSettingsStoreKey);
    if (!text) return s;
    const json doc = json::parse(*text, nullptr, false);
    if (doc.is_discarded() || !doc.is_object()) {
        warn("the planner's settings were unreadable: defaults are used");
        return s;
    }
    const int version = doc.contains("version") && doc["version"].is_number_integer() ? doc["version"].get<int>() : 0;
    if (version > kPlannerSettingsVersion) {
        warn("the planner's settings come from a newer version: defaults are used");
        return s;
    }
    auto text_of = [&](const char* name, std::string& out) {
        if (doc.contains(name) && doc[name].is_string() && !doc[name].get<std::string>().empty())
            out = doc[name].get<std::string>();
    };
    std::string provider;
    text_of("provider", provider);
    if (!provider.empty()) {
        if (auto p = parseProvider(provider)) s.provider = *p;
        else warn("unknown planner provider '" + provider.substr(0, 40) + "': OpenRouter is used");
    }
    text_of("openRouterModel", s.openRouterModel);
    text_of("anthropicModel", s.anthropicModel);
    std::string url;
    text_of("anthropicBaseUrl", url);
    if (!url.empty()) {
        if (auto bad = llm::validateBaseUrl(url)) warn("the stored Anthropic base URL is not used: " + *bad);
        else s.anthropicBaseUrl = url;
    }
    if (doc.contains("panelOpen") && doc["panelOpen"].is_boolean()) s.panelOpen = doc["panelOpen"].get<bool>();
    if (doc.contains("review") && doc["review"].is_boolean()) s.review = doc["review"].get<bool>();
    return s;
}

std::optional<std::string> savePlannerSettings(KeyValueStore& store, const PlannerSettings& s) {
    const json doc = {{"version", kPlannerSettingsVersion},       {"provider", providerName(s.provider)},
                      {"openRouterModel", s.openRouterModel},      {"anthropicModel", s.anthropicModel},
                      {"anthropicBaseUrl", s.anthropicBaseUrl},    {"panelOpen", s.panelOpen},
                      {"review", s.review}};
    if (auto error = store.set(kPlannerSettingsStoreKey, doc.dump())) return error;
    if (s.anthropicKey.empty()) {
        store.remove(kAnthropicKeyStoreKey);
        return std::nullopt;
    }
    return store.set(kAnthropicKeyStoreKey, s.anthropicKey);
}

} // namespace chaiba::planner
