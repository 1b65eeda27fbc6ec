// Settings: decode once at the edge, field by field, so one bad value never costs the others.
#include "src/app/settings.h"

#include "src/persist/settings_fields.h"

#include <nlohmann/json.hpp>

namespace chaiba {

using nlohmann::json;

SettingsLoad settingsFromJson(std::string_view text) {
    SettingsLoad load;
    json doc = json::parse(text.begin(), text.end(), nullptr, false);
    if (doc.is_discarded() || !doc.is_object()) {
        load.warnings.push_back("stored settings were unreadable; defaults restored");
        return load;
    }
    Settings& s = load.settings;
    s.stored = doc;
    persist::SettingsFields r(doc, load.warnings);
    r.text("baseUrl", s.baseUrl);
    if (validateBaseUrl(s.baseUrl)) {
        r.warn("baseUrl", "is not an http(s) URL");
        s.baseUrl = kDefaultBaseUrl;
    }
    r.stringList("selectedModels", s.selectedModels);
    r.number("temperature", s.temperature, 0.0, 2.0, -1.0);
    r.integer("maxTokens", s.maxTokens, 0, 200000);
    static constexpr ReasoningEffort efforts[] = {ReasoningEffort::Default, ReasoningEffort::Minimal,
                                                  ReasoningEffort::Low, ReasoningEffort::Medium,
                                                  ReasoningEffort::High};
    r.choice("reasoningEffort", s.reasoningEffort, efforts, effortName);
    r.integer("requestTimeoutSeconds", s.requestTimeoutSeconds, 1, 3600);
    static constexpr Theme themes[] = {Theme::Light, Theme::Dark};
    r.choice("theme", s.theme, themes, themeName);
    return load;
}

std::string settingsToJson(const Settings& s) {
    json doc = s.stored.is_object() ? s.stored : json::object();
    doc.erase("apiKey"); // never in the blob, whatever an older or edited one held
    doc["baseUrl"] = s.baseUrl;
    doc["selectedModels"] = s.selectedModels;
    doc["temperature"] = s.temperature;
    doc["maxTokens"] = s.maxTokens;
    doc["reasoningEffort"] = effortName(s.reasoningEffort);
    doc["requestTimeoutSeconds"] = s.requestTimeoutSeconds;
    doc["theme"] = themeName(s.theme);
    return doc.dump(2, ' ', false, json::error_handler_t::replace);
}

SettingsLoad loadSettings(KeyValueStore& store) {
    SettingsLoad load;
    if (auto blob = store.get(kSettingsStoreKey)) {
        load = settingsFromJson(*blob);
        json probe = json::parse(*blob, nullptr, false);
        if (probe.is_discarded() || !probe.is_object())
            store.set(std::string(kSettingsStoreKey) + ".corrupt", *blob);
    }
    if (auto key = store.get(kApiKeyStoreKey)) {
        if (validateApiKey(*key)) {
            load.warnings.push_back("the stored API key was malformed and has been ignored; paste it again");
        } else {
            load.settings.apiKey = *key;
        }
    }
    return load;
}

std::optional<std::string> saveSettings(KeyValueStore& store, const Settings& settings) {
    if (auto error = store.set(kSettingsStoreKey, settingsToJson(settings))) return error;
    if (settings.apiKey.empty()) {
        store.remove(kApiKeyStoreKey);
        return std::nullopt;
    }
    return store.set(kApiKeyStoreKey, settings.apiKey);
}

} // namespace chaiba
