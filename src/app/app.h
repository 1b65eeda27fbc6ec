// The application: owns the settings, the model catalog, the match session and the screens, and
// draws one frame at a time. Platform services (clipboard, downloads, time, HTTP, the engine
// player) come in through AppServices, so the same App runs in the page and in tests.
#pragma once

#include "src/llm/assets.h"
#include "src/modes/chess/chess_prompts.h"
#include "src/llm/openrouter_client.h"
#include "src/modes/chess/arena_session.h"
#include "src/persist/key_value_store.h"
#include "src/modes/chess/match_session.h"
#include "src/app/platform.h"
#include "src/app/settings.h"
#include "src/ui/format.h"
#include "src/modes/chess/ui/board_view.h"
#include "src/ui/debug_window.h"
#include "src/ui/fonts.h"
#include "src/modes/chess/ui/new_game_dialog.h"
#include "src/app/settings_panel.h"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace chaiba {

struct AppServices {
    KeyValueStore* store = nullptr;
    Platform* platform = nullptr;
    bool storagePersistent = true;
    net::HttpTransport* transport = nullptr;
    const net::Clock* clock = nullptr;
    const llm::AssetSource* assets = nullptr;
    std::function<std::unique_ptr<chessmode::Player>(const std::string& id, int level, uint64_t seed, int delayMs)>
        makeEngine;
    std::function<std::string(int level)> engineName;
    std::function<std::optional<double>(int level)> engineRating; // calibrated; -1 = strongest
    int maxEngineLevel = 8;
    // The arena's tournaments (IndexedDB on the web; may be the same store as `store` in tests).
    KeyValueStore* arenaStore = nullptr;
    std::string arenaStoreWarning; // why tournaments are not kept, if they are not
    // Background storage failures (IndexedDB writes), polled once per tick.
    std::function<std::optional<std::string>()> takeStorageError;
};

enum class Screen { Match, Arena };

// A recorded arena game replayed (positions for the board, moves for the list), kept so a grid of
// finished games is not replayed every frame; `key` tells whether the record changed since.
struct ArenaReplay {
    std::string key;
    chess::Position start = chess::Position::startPosition();
    std::vector<chess::Move> moves;
};

class App {
public:
    explicit App(AppServices services);
    ~App();

    // Fonts and the pixel ratio they were built for (re-set after a devicePixelRatio change).
    void setFonts(const ui::Fonts& fonts, float pixelRatio);
    // Advances network, players and the game; call once per loop iteration, even when idle.
    void tick();
    // Draws the whole page; call between ImGui::NewFrame() and ImGui::Render().
    void frame();
    // True while something animates, thinks or waits on the network: the loop keeps full rate.
    bool wantsContinuousFrames() const;
    // Changes whenever something visible changed outside of input (a move, a result, a reply):
    // the loop draws a frame when it differs from the last drawn value.
    uint64_t changeCounter() const;

    const Settings& settings() const { return settings_; }

    // The automation API (window.chaiba); the same paths as the buttons.
    std::string stateJson() const;
    std::optional<std::string> configure(const std::string& apiKey, const std::string& baseUrl, bool setKey,
                                         bool setUrl);
    std::optional<std::string> newMatch(const std::string& white, const std::string& black, bool chess960,
                                        const std::string& fen);
    std::optional<std::string> setRequestTimeout(int seconds);
    void start();
    void pause();
    std::string pgn() const;
    // The arena's part of the automation API (window.chaiba.arena).
    std::string arenaStateJson() const;
    std::optional<std::string> arenaConfigure(const std::string& configJson);
    std::optional<std::string> arenaCommand(const std::string& command, const std::string& argument);
    std::string arenaExport(const std::string& what) const; // "json" or "pgn"
    void showScreen(Screen screen);

private:
    // app.cpp
    void drawHeader();
    void save();
    void autosaveGame();
    void ensureChat();
    void refreshCatalog();
    void checkKey();
    std::optional<std::string> startGame(const GameSetup& setup);
    ui::NewGameContext newGameContext() const;
    SessionEnvironment sessionEnvironment();
    // match_screen.cpp
    void drawMatchScreen();
    void drawBoardArea(float size);
    void drawSidePanel(float width, float height, bool compact);
    void drawControls();
    void drawBanner();
    void drawInstructionsEditor();
    void drawDebugWindows();
    void drawReasoning(chess::Color side, float width, float height);
    chess::Position viewedPosition(chess::Move& lastMove) const;
    // arena_screen.cpp / arena_setup.cpp
    ArenaEnvironment arenaEnvironment();
    void drawArenaScreen();
    void drawArenaSidebar(float width, float height);
    void drawArenaControls();
    void drawArenaStandings();
    void drawArenaSetup();
    void drawArenaGrid();
    void drawArenaGame(int gameId);
    void drawArenaLeaderboard();
    void drawArenaResetConfirm();
    void drawArenaImport();
    std::string arenaRating(int participant) const;

    AppServices services_;
    Settings settings_;
    std::vector<std::string> loadWarnings_;
    ui::Fonts fonts_;
    float pixelRatio_ = 1.0f;
    Theme appliedTheme_ = Theme::Light;
    float appliedRatio_ = 0.0f;

    chessmode::AgentPrompts prompts_;
    std::string promptsError_;
    std::vector<std::string> defaultModels_;
    // Clients are never destroyed while the app runs: players keep references to the one they
    // were built with; a new key or base URL makes a new client for new games.
    std::vector<std::unique_ptr<llm::OpenRouterClient>> clients_;
    llm::OpenRouterClient* chat_ = nullptr;
    std::vector<llm::ModelInfo> catalog_;
    std::string catalogStatus_;
    bool catalogLoading_ = false;
    std::string keyStatus_;
    uint64_t asyncChanges_ = 0;  // catalog and key-check replies

    std::unique_ptr<MatchSession> session_;
    MoveNavigator navigator_;
    uint64_t savedRevision_ = 0;
    uint64_t animatedRevision_ = 0;
    size_t animatedMoves_ = 0;
    double sessionCostUsd_ = 0;       // finished games of this session
    double thinkStartMs_ = 0;         // when the side to move started thinking
    size_t thinkKey_ = static_cast<size_t>(-1);
    int compactTab_ = 0;              // phones: 0 moves, 1 white, 2 black
    std::string gameError_;           // a start/restore error shown in the banner

    ui::SettingsPanel settingsPanel_;
    ui::BoardView board_;
    ui::NewGameDialog newGame_;
    ui::DebugWindow debug_[2];
    bool instructionsOpen_[2] = {false, false};
    char instructionsBuffer_[2][2048] = {};
    GameSetup lastSetup_;

    // The arena.
    Screen screen_ = Screen::Match;
    std::unique_ptr<ArenaSession> arena_;
    llm::ChatService* arenaChat_ = nullptr;
    bool arenaCompact_ = false;  // phones: sidebar above, the page scrolls
    int arenaGame_ = -1;         // the game shown in full, or -1 for the grid
    int arenaTab_ = 0;           // 0 games, 1 leaderboard (set by the API; the tab bar follows)
    bool arenaTabRequested_ = false;
    MoveNavigator arenaNav_;
    ui::BoardView arenaBoard_;
    bool arenaResetOpen_ = false;
    bool arenaImportOpen_ = false;
    std::string arenaImportError_;
    std::vector<char> arenaImportBuffer_ = std::vector<char>(1 << 20, 0);
    char arenaModelFilter_[64] = {};
    std::string arenaNotice_;    // results of export/import, shown in the sidebar
    std::map<int, std::pair<size_t, double>> arenaThinkStart_; // game -> (plies, since ms)
    std::map<int, ArenaReplay> arenaReplays_;                  // by game id
    const ArenaReplay& arenaReplay(const chessmode::GameRecord& game);
    std::vector<chessmode::Opening> openingSuite_;
    std::string openingSuiteError_;
};

} // namespace chaiba
