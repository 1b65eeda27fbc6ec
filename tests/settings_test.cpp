// Settings: defaults, round trips, and what happens to corrupt or out-of-range stored values.
#include "src/persist/file_store.h"
#include "src/app/settings.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

using namespace chaiba;

TEST_CASE("settings: an empty store gives the defaults without warnings") {
    MemoryStore store;
    SettingsLoad load = loadSettings(store);
    CHECK(load.warnings.empty());
    CHECK(load.settings.baseUrl == kDefaultBaseUrl);
    CHECK(load.settings.retryAttempts == 3);
    CHECK(load.settings.apiKey.empty());
}

TEST_CASE("settings: save then load round-trips every field") {
    MemoryStore store;
    Settings s;
    s.apiKey = "sk-or-test-key";
    s.baseUrl = "http://127.0.0.1:8089/api/v1";
    s.selectedModels = {"openai/gpt-4o", "anthropic/claude-sonnet-4"};
    s.promptBase = "You play chess {braces} \"quotes\"";
    s.promptWhite = "white";
    s.promptBlack = "black";
    s.sendContextMessage = false;
    s.sendLegalMoves = true;
    s.retryAttempts = 10;
    s.sendFenOnError = false;
    s.temperature = 0.25;
    s.maxTokens = 4096;
    s.reasoningEffort = ReasoningEffort::High;
    s.engineMoveDelayMs = 0;
    s.requestTimeoutSeconds = 45;
    s.theme = Theme::Dark;
    s.pieceSet = chessmode::PieceSet::Merida;
    s.boardTheme = chessmode::BoardTheme::Green;
    REQUIRE_FALSE(saveSettings(store, s));
    SettingsLoad load = loadSettings(store);
    CHECK(load.warnings.empty());
    const Settings& t = load.settings;
    CHECK(t.apiKey == s.apiKey);
    CHECK(t.baseUrl == s.baseUrl);
    CHECK(t.selectedModels == s.selectedModels);
    CHECK(t.promptBase == s.promptBase);
    CHECK(t.promptWhite == s.promptWhite);
    CHECK(t.promptBlack == s.promptBlack);
    CHECK(t.sendContextMessage == s.sendContextMessage);
    CHECK(t.sendLegalMoves == s.sendLegalMoves);
    CHECK(t.retryAttempts == s.retryAttempts);
    CHECK(t.sendFenOnError == s.sendFenOnError);
    CHECK(t.temperature == doctest::Approx(0.25));
    CHECK(t.maxTokens == s.maxTokens);
    CHECK(t.reasoningEffort == s.reasoningEffort);
    CHECK(t.engineMoveDelayMs == s.engineMoveDelayMs);
    CHECK(t.requestTimeoutSeconds == 45);
    CHECK(t.theme == s.theme);
    CHECK(t.pieceSet == chessmode::PieceSet::Merida);
    CHECK(t.boardTheme == chessmode::BoardTheme::Green);
}

TEST_CASE("settings: a blob from before the piece sets loads with cburnett pieces on brown squares") {
    // What a build before the piece sets wrote (no pieceSet, no boardTheme).
    SettingsLoad load = settingsFromJson(R"({"baseUrl": "https://openrouter.ai/api/v1", "retryAttempts": 5,
        "theme": "dark", "engineMoveDelayMs": 300})");
    CHECK(load.warnings.empty());
    CHECK(load.settings.retryAttempts == 5);
    CHECK(load.settings.theme == Theme::Dark);
    CHECK(load.settings.pieceSet == chessmode::PieceSet::Cburnett);
    CHECK(load.settings.boardTheme == chessmode::BoardTheme::Brown);
    // Every choice round-trips by its stored name; an unknown one falls back alone, with a warning.
    for (chessmode::PieceSet set : chessmode::kPieceSets) {
        Settings s;
        s.pieceSet = set;
        CHECK(settingsFromJson(settingsToJson(s)).settings.pieceSet == set);
    }
    for (chessmode::BoardTheme theme : chessmode::kBoardThemes) {
        Settings s;
        s.boardTheme = theme;
        CHECK(settingsFromJson(settingsToJson(s)).settings.boardTheme == theme);
    }
    SettingsLoad bad = settingsFromJson(R"({"pieceSet": "staunton3d", "boardTheme": 7, "retryAttempts": 2})");
    CHECK(bad.settings.pieceSet == chessmode::PieceSet::Cburnett);
    CHECK(bad.settings.boardTheme == chessmode::BoardTheme::Brown);
    CHECK(bad.settings.retryAttempts == 2);
    REQUIRE(bad.warnings.size() == 2);
    CHECK(bad.warnings[0].find("pieceSet") != std::string::npos);
    CHECK(bad.warnings[1].find("boardTheme") != std::string::npos);
}

TEST_CASE("settings: the API key never appears in the settings blob") {
    MemoryStore store;
    Settings s;
    s.apiKey = "sk-or-v1-secret-value";
    REQUIRE_FALSE(saveSettings(store, s));
    CHECK(settingsToJson(s).find("sk-or-v1-secret-value") == std::string::npos);
    CHECK(store.get(kSettingsStoreKey)->find("secret") == std::string::npos);
    CHECK(*store.get(kApiKeyStoreKey) == "sk-or-v1-secret-value");
    s.apiKey.clear();
    REQUIRE_FALSE(saveSettings(store, s));
    CHECK_FALSE(store.get(kApiKeyStoreKey).has_value());
}

TEST_CASE("settings: a corrupt blob restores defaults, warns, and is kept aside") {
    MemoryStore store;
    store.set(kSettingsStoreKey, "{\"retryAttempts\": 4,");  // truncated write
    store.set(kApiKeyStoreKey, "sk-or-still-good");
    SettingsLoad load = loadSettings(store);
    REQUIRE(load.warnings.size() == 1);
    CHECK(load.warnings[0].find("unreadable") != std::string::npos);
    CHECK(load.settings.retryAttempts == 3);
    CHECK(load.settings.apiKey == "sk-or-still-good");
    CHECK(*store.get(std::string(kSettingsStoreKey) + ".corrupt") == "{\"retryAttempts\": 4,");
}

TEST_CASE("settings: each bad field falls back alone, with a warning naming it") {
    SettingsLoad load = settingsFromJson(R"({
        "retryAttempts": 42, "temperature": "hot", "theme": "neon", "baseUrl": "ftp://x",
        "selectedModels": ["a/b", 7], "maxTokens": 100, "sendFenOnError": false, "engineMoveDelayMs": -5
    })");
    CHECK(load.settings.retryAttempts == 3);
    CHECK(load.settings.temperature == -1.0);
    CHECK(load.settings.theme == Theme::Light);
    CHECK(load.settings.baseUrl == kDefaultBaseUrl);
    CHECK(load.settings.selectedModels.empty());
    CHECK(load.settings.engineMoveDelayMs == 700);
    CHECK(load.settings.maxTokens == 100);         // good values survive next to bad ones
    CHECK(load.settings.sendFenOnError == false);
    REQUIRE(load.warnings.size() == 6);
    CHECK(load.warnings[0].find("baseUrl") != std::string::npos);
    bool namesRetry = false;
    for (const auto& w : load.warnings) namesRetry |= w.find("retryAttempts") != std::string::npos;
    CHECK(namesRetry);
}

TEST_CASE("settings: a malformed stored key is ignored with a warning") {
    MemoryStore store;
    store.set(kApiKeyStoreKey, "sk or with spaces");
    SettingsLoad load = loadSettings(store);
    CHECK(load.settings.apiKey.empty());
    REQUIRE(load.warnings.size() == 1);
    CHECK(load.warnings[0].find("API key") != std::string::npos);
}

TEST_CASE("settings: base URL and key validation") {
    CHECK_FALSE(validateBaseUrl("https://openrouter.ai/api/v1"));
    CHECK_FALSE(validateBaseUrl("http://127.0.0.1:8089/v1"));
    CHECK(validateBaseUrl("openrouter.ai/api/v1"));
    CHECK(validateBaseUrl("https://"));
    CHECK(validateBaseUrl("https://openrouter.ai/api/v1/"));
    CHECK(validateBaseUrl("https://open router.ai"));
    CHECK_FALSE(validateApiKey("sk-or-v1-abc"));
    CHECK(validateApiKey(""));
    CHECK(validateApiKey("sk or"));
    CHECK(validateApiKey(std::string(600, 'a')));
}

TEST_CASE("file store: persists across instances and survives a corrupt file") {
    const auto dir = std::filesystem::temp_directory_path() / "chaiba_file_store_test";
    std::filesystem::remove_all(dir);
    const auto path = dir / "settings.json";
    {
        FileStore store(path);
        CHECK(store.loadError().empty());
        CHECK_FALSE(store.set("a", "1"));
        CHECK_FALSE(store.set("b", "two \"quoted\""));
    }
    {
        FileStore store(path);
        CHECK(store.loadError().empty());
        CHECK(*store.get("a") == "1");
        CHECK(*store.get("b") == "two \"quoted\"");
        store.remove("a");
    }
    CHECK_FALSE(FileStore(path).get("a").has_value());
    {
        std::ofstream(path) << "not json at all";
    }
    FileStore broken(path);
    CHECK(broken.loadError().find("not a JSON object") != std::string::npos);
    CHECK_FALSE(broken.get("b").has_value());
    CHECK(std::filesystem::exists(path.string() + ".corrupt"));
    CHECK_FALSE(broken.set("c", "3"));
    CHECK(*FileStore(path).get("c") == "3");
    std::filesystem::remove_all(dir);
}
