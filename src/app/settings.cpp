// Settings: decode once at the edge, field by field, so one bad value never costs the others.
#include "src/app/settings.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace chaiba {

using nlohmann::json;

namespace {

struct Reader {
    const json& doc;
    std::vector<std::string>& warnings;

    void warn(const char* name, const std::string& why) {
        warnings.push_back(std::string("setting '") + name + "' " + why + "; using the default");
    }
    void text(const char* name, std::string& out) {
        if (!doc.contains(name)) return;
        const json& v = doc[name];
        if (v.is_string()) out = v.get<std::string>();
        else warn(name, "is not text");
    }
    void flag(const char* name, bool& out) {
        if (!doc.contains(name)) return;
        const json& v = doc[name];
        if (v.is_boolean()) out = v.get<bool>();
        else warn(name, "is not true/false");
    }
    void integer(const char* name, int& out, int lo, int hi) {
        if (!doc.contains(name)) return;
        const json& v = doc[name];
        if (!v.is_number_integer()) return warn(name, "is not a whole number");
        const long long n = v.get<long long>();
        if (n < lo || n > hi)
            return warn(name, "is " + std::to_string(n) + ", outside " + std::to_string(lo) + ".." +
                                  std::to_string(hi));
        out = static_cast<int>(n);
    }
    void number(const char* name, double& out, double lo, double hi, double unset) {
        if (!doc.contains(name)) return;
        const json& v = doc[name];
        if (!v.is_number()) return warn(name, "is not a number");
        const double x = v.get<double>();
        if (x == unset) { out = x; return; }
        if (!std::isfinite(x) || x < lo || x > hi) return warn(name, "is out of range");
        out = x;
    }
    void stringList(const char* name, std::vector<std::string>& out) {
        if (!doc.contains(name)) return;
        const json& v = doc[name];
        if (!v.is_array()) return warn(name, "is not a list");
        std::vector<std::string> items;
        for (const json& item : v) {
            if (!item.is_string() || item.get<std::string>().empty()) return warn(name, "has an entry that is not a model id");
            items.push_back(item.get<std::string>());
        }
        out = std::move(items);
    }
    template <typename Enum, size_t N>
    void choice(const char* name, Enum& out, const Enum (&options)[N], const char* (*nameOf)(Enum)) {
        if (!doc.contains(name)) return;
        const json& v = doc[name];
        if (v.is_string()) {
            for (Enum option : options)
                if (v.get<std::string>() == nameOf(option)) { out = option; return; }
        }
        warn(name, "is not one of the known choices");
    }
};

} // namespace

SettingsLoad settingsFromJson(std::string_view text) {
    SettingsLoad load;
    json doc = json::parse(text.begin(), text.end(), nullptr, false);
    if (doc.is_discarded() || !doc.is_object()) {
        load.warnings.push_back("stored settings were unreadable; defaults restored");
        return load;
    }
    Settings& s = load.settings;
    Reader r{doc, load.warnings};
    r.text("baseUrl", s.baseUrl);
    if (validateBaseUrl(s.baseUrl)) {
        r.warn("baseUrl", "is not an http(s) URL");
        s.baseUrl = kDefaultBaseUrl;
    }
    r.stringList("selectedModels", s.selectedModels);
    r.text("promptBase", s.promptBase);
    r.text("promptWhite", s.promptWhite);
    r.text("promptBlack", s.promptBlack);
    r.flag("sendContextMessage", s.sendContextMessage);
    r.flag("sendLegalMoves", s.sendLegalMoves);
    r.integer("retryAttempts", s.retryAttempts, 0, 10);
    r.flag("sendFenOnError", s.sendFenOnError);
    r.number("temperature", s.temperature, 0.0, 2.0, -1.0);
    r.integer("maxTokens", s.maxTokens, 0, 200000);
    static constexpr ReasoningEffort efforts[] = {ReasoningEffort::Default, ReasoningEffort::Minimal,
                                                  ReasoningEffort::Low, ReasoningEffort::Medium,
                                                  ReasoningEffort::High};
    r.choice("reasoningEffort", s.reasoningEffort, efforts, effortName);
    r.integer("engineMoveDelayMs", s.engineMoveDelayMs, 0, 10000);
    r.integer("requestTimeoutSeconds", s.requestTimeoutSeconds, 1, 3600);
    static constexpr Theme themes[] = {Theme::Light, Theme::Dark};
    r.choice("theme", s.theme, themes, themeName);
    // Added with the piece sets: blobs written before them take the defaults (cburnett, brown).
    r.choice("pieceSet", s.pieceSet, chessmode::kPieceSets, chessmode::pieceSetName);
    r.choice("boardTheme", s.boardTheme, chessmode::kBoardThemes, chessmode::boardThemeName);
    return load;
}

std::string settingsToJson(const Settings& s) {
    json doc = {
        {"baseUrl", s.baseUrl},
        {"selectedModels", s.selectedModels},
        {"promptBase", s.promptBase},
        {"promptWhite", s.promptWhite},
        {"promptBlack", s.promptBlack},
        {"sendContextMessage", s.sendContextMessage},
        {"sendLegalMoves", s.sendLegalMoves},
        {"retryAttempts", s.retryAttempts},
        {"sendFenOnError", s.sendFenOnError},
        {"temperature", s.temperature},
        {"maxTokens", s.maxTokens},
        {"reasoningEffort", effortName(s.reasoningEffort)},
        {"engineMoveDelayMs", s.engineMoveDelayMs},
        {"requestTimeoutSeconds", s.requestTimeoutSeconds},
        {"theme", themeName(s.theme)},
        {"pieceSet", chessmode::pieceSetName(s.pieceSet)},
        {"boardTheme", chessmode::boardThemeName(s.boardTheme)},
    };
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
