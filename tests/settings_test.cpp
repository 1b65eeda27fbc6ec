// Settings: defaults, round trips, and what happens to corrupt or out-of-range stored values.
#include "src/persist/file_store.h"
#include "src/app/settings.h"
#include "src/modes/chess/chess_settings.h"

#include <nlohmann/json.hpp>

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

using namespace chaiba;

TEST_CASE("settings: an empty store gives the defaults without warnings") {
    MemoryStore store;
    SettingsLoad load = loadSettings(store);
    CHECK(load.warnings.empty());
    CHECK(load.settings.baseUrl == kDefaultBaseUrl);
    CHECK(load.settings.requestTimeoutSeconds == 300);
    CHECK(load.settings.apiKey.empty());
    chessmode::ChessSettings chess;
    chessmode::BoardLook look;
    std::vector<std::string> warnings;
    chessmode::readChessSettings(load.settings.stored, chess, look, warnings);
    CHECK(warnings.empty());
    CHECK(chess.retryAttempts == 3);
}

// The shell's values and the chess mode's, written into the one blob as the page saves it (the
// chess module's writeSettings, then saveSettings) and read back by each.
TEST_CASE("settings: save then load round-trips every field, the shell's and the chess mode's") {
    MemoryStore store;
    Settings s;
    s.apiKey = "sk-or-test-key";
    s.baseUrl = "http://127.0.0.1:8089/api/v1";
    s.selectedModels = {"openai/gpt-4o", "anthropic/claude-sonnet-4"};
    s.temperature = 0.25;
    s.maxTokens = 4096;
    s.reasoningEffort = ReasoningEffort::High;
    s.requestTimeoutSeconds = 45;
    s.theme = Theme::Dark;
    chessmode::ChessSettings c;
    c.promptBase = "You play chess {braces} \"quotes\"";
    c.promptWhite = "white";
    c.promptBlack = "black";
    c.sendContextMessage = false;
    c.sendLegalMoves = true;
    c.retryAttempts = 10;
    c.sendFenOnError = false;
    c.engineMoveDelayMs = 0;
    chessmode::BoardLook look{chessmode::PieceSet::Merida, chessmode::BoardTheme::Green};
    chessmode::writeChessSettings(s.stored, c, look);
    REQUIRE_FALSE(saveSettings(store, s));
    SettingsLoad load = loadSettings(store);
    CHECK(load.warnings.empty());
    const Settings& t = load.settings;
    CHECK(t.apiKey == s.apiKey);
    CHECK(t.baseUrl == s.baseUrl);
    CHECK(t.selectedModels == s.selectedModels);
    CHECK(t.temperature == doctest::Approx(0.25));
    CHECK(t.maxTokens == s.maxTokens);
    CHECK(t.reasoningEffort == s.reasoningEffort);
    CHECK(t.requestTimeoutSeconds == 45);
    CHECK(t.theme == s.theme);
    chessmode::ChessSettings d;
    chessmode::BoardLook lookBack;
    chessmode::readChessSettings(t.stored, d, lookBack, load.warnings);
    CHECK(load.warnings.empty());
    CHECK(d.promptBase == c.promptBase);
    CHECK(d.promptWhite == c.promptWhite);
    CHECK(d.promptBlack == c.promptBlack);
    CHECK(d.sendContextMessage == c.sendContextMessage);
    CHECK(d.sendLegalMoves == c.sendLegalMoves);
    CHECK(d.retryAttempts == c.retryAttempts);
    CHECK(d.sendFenOnError == c.sendFenOnError);
    CHECK(d.engineMoveDelayMs == c.engineMoveDelayMs);
    CHECK(lookBack.pieceSet == chessmode::PieceSet::Merida);
    CHECK(lookBack.boardTheme == chessmode::BoardTheme::Green);
}

// A blob as the builds before the split wrote it (every value flat in one object): each part reads
// its own keys, and keys no part knows (a newer build's, a mode this page lacks) are written back.
TEST_CASE("settings: an older build's flat blob reads into the shell's and the chess mode's parts, unknown keys kept") {
    MemoryStore store;
    store.set(kSettingsStoreKey, R"({"baseUrl": "http://127.0.0.1:9/v1", "retryAttempts": 6, "pieceSet": "merida",
        "engineMoveDelayMs": 250, "theme": "dark", "requestTimeoutSeconds": 90, "futureOption": {"x": 1}})");
    SettingsLoad load = loadSettings(store);
    CHECK(load.warnings.empty());
    CHECK(load.settings.baseUrl == "http://127.0.0.1:9/v1");
    CHECK(load.settings.theme == Theme::Dark);
    CHECK(load.settings.requestTimeoutSeconds == 90);
    chessmode::ChessSettings c;
    chessmode::BoardLook look;
    chessmode::readChessSettings(load.settings.stored, c, look, load.warnings);
    CHECK(load.warnings.empty());
    CHECK(c.retryAttempts == 6);
    CHECK(c.engineMoveDelayMs == 250);
    CHECK(look.pieceSet == chessmode::PieceSet::Merida);
    load.settings.theme = Theme::Light;
    REQUIRE_FALSE(saveSettings(store, load.settings));
    const nlohmann::json saved = nlohmann::json::parse(*store.get(kSettingsStoreKey));
    CHECK(saved["theme"] == "light");
    CHECK(saved["retryAttempts"] == 6);
    CHECK(saved["pieceSet"] == "merida");
    CHECK(saved["futureOption"]["x"] == 1);
}

TEST_CASE("settings: a blob from before the piece sets loads with cburnett pieces on brown squares") {
    // What a build before the piece sets wrote (no pieceSet, no boardTheme).
    SettingsLoad load = settingsFromJson(R"({"baseUrl": "https://openrouter.ai/api/v1", "retryAttempts": 5,
        "theme": "dark", "engineMoveDelayMs": 300})");
    CHECK(load.warnings.empty());
    CHECK(load.settings.theme == Theme::Dark);
    auto chess = [](const nlohmann::json& blob, std::vector<std::string>& warnings) {
        std::pair<chessmode::ChessSettings, chessmode::BoardLook> out;
        chessmode::readChessSettings(blob, out.first, out.second, warnings);
        return out;
    };
    std::vector<std::string> warnings;
    auto [c, look] = chess(load.settings.stored, warnings);
    CHECK(warnings.empty());
    CHECK(c.retryAttempts == 5);
    CHECK(look.pieceSet == chessmode::PieceSet::Cburnett);
    CHECK(look.boardTheme == chessmode::BoardTheme::Brown);
    // Every choice round-trips by its stored name; an unknown one falls back alone, with a warning.
    for (chessmode::PieceSet set : chessmode::kPieceSets) {
        nlohmann::json blob;
        chessmode::writeChessSettings(blob, {}, {set, chessmode::BoardTheme::Brown});
        CHECK(chess(blob, warnings).second.pieceSet == set);
    }
    for (chessmode::BoardTheme theme : chessmode::kBoardThemes) {
        nlohmann::json blob;
        chessmode::writeChessSettings(blob, {}, {chessmode::PieceSet::Cburnett, theme});
        CHECK(chess(blob, warnings).second.boardTheme == theme);
    }
    CHECK(warnings.empty());
    auto [bad, badLook] = chess(nlohmann::json::parse(R"({"pieceSet": "staunton3d", "boardTheme": 7, "retryAttempts": 2})"),
                                warnings);
    CHECK(badLook.pieceSet == chessmode::PieceSet::Cburnett);
    CHECK(badLook.boardTheme == chessmode::BoardTheme::Brown);
    CHECK(bad.retryAttempts == 2);
    REQUIRE(warnings.size() == 2);
    CHECK(warnings[0].find("pieceSet") != std::string::npos);
    CHECK(warnings[1].find("boardTheme") != std::string::npos);
}

TEST_CASE("settings: the API key never appears in the settings blob") {
    MemoryStore store;
    Settings s;
    s.apiKey = "sk-or-v1-secret-value";
    REQUIRE_FALSE(saveSettings(store, s));
    CHECK(settingsToJson(s).find("sk-or-v1-secret-value") == std::string::npos);
    CHECK(store.get(kSettingsStoreKey)->find("secret") == std::string::npos);
    CHECK(*store.get(kApiKeyStoreKey) == "sk-or-v1-secret-value");
    // Nor when a hand-edited blob carried it: it is dropped, never written back.
    s.stored["apiKey"] = "sk-or-v1-pasted-into-the-blob";
    CHECK(settingsToJson(s).find("pasted-into-the-blob") == std::string::npos);
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
    CHECK(load.settings.stored.empty());
    CHECK(load.settings.apiKey == "sk-or-still-good");
    CHECK(*store.get(std::string(kSettingsStoreKey) + ".corrupt") == "{\"retryAttempts\": 4,");
}

TEST_CASE("settings: each bad field falls back alone, with a warning naming it") {
    SettingsLoad load = settingsFromJson(R"({
        "retryAttempts": 42, "temperature": "hot", "theme": "neon", "baseUrl": "ftp://x",
        "selectedModels": ["a/b", 7], "maxTokens": 100, "sendFenOnError": false, "engineMoveDelayMs": -5
    })");
    CHECK(load.settings.temperature == -1.0);
    CHECK(load.settings.theme == Theme::Light);
    CHECK(load.settings.baseUrl == kDefaultBaseUrl);
    CHECK(load.settings.selectedModels.empty());
    CHECK(load.settings.maxTokens == 100); // good values survive next to bad ones
    REQUIRE(load.warnings.size() == 4);
    CHECK(load.warnings[0].find("baseUrl") != std::string::npos);
    chessmode::ChessSettings c;
    chessmode::BoardLook look;
    chessmode::readChessSettings(load.settings.stored, c, look, load.warnings);
    CHECK(c.retryAttempts == 3);
    CHECK(c.engineMoveDelayMs == 700);
    CHECK(c.sendFenOnError == false);
    REQUIRE(load.warnings.size() == 6);
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
