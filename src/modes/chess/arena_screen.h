// The arena screen: a tournament among models, engine levels and the random mover. A sidebar
// (status, controls, standings, export/import) beside the setup form, the live grid of games, the
// full view of one game and the leaderboard with the rating plot; and its automation commands
// (window.chaiba.arena.*). The tournament itself is ArenaSession.
#pragma once

#include "src/modes/chess/arena_session.h"
#include "src/modes/chess/chess_screens.h"
#include "src/modes/chess/chess_settings.h"
#include "src/modes/chess/game_analyser.h"
#include "src/modes/chess/games_filter.h"
#include "src/modes/chess/leaderboard_report.h"
#include "src/modes/chess/ui/board_view.h"
#include "src/modes/chess/ui/move_list.h"
#include "src/ui/format.h"
#include "src/play/tournament_host.h"
#include "src/ui/screen.h"
#include "src/ui/side_panel.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace chaiba {

// A recorded arena game replayed (positions for the board, moves for the list), kept so a grid of
// finished games is not replayed every frame; `key` tells whether the record changed since.
struct ArenaReplay {
    std::string key;
    chess::Position start = chess::Position::startPosition();
    std::vector<chess::Move> moves;
};

class ArenaScreen final : public ui::Screen {
public:
    // `context`, `assets` and `settings` are the shell's and outlive the screen. Loads the
    // tournament this browser kept (running ones resume), else a default draft.
    ArenaScreen(const ui::ScreenContext& context, ChessServices services, const ChessAssets& assets,
                const chessmode::ChessPlaySettings& settings);
    ~ArenaScreen() override;

    std::string_view id() const override { return "arena"; }
    std::string_view title() const override { return "Arena"; }
    void tick(double nowMs) override;
    void draw() override;
    void drawWindows() override;
    bool wantsContinuousFrames() const override;
    // The grid's boards move many times a second: 20 frames a second show every move readably.
    double contentFrameIntervalMs() const override { return 50.0; }
    uint64_t changeCounter() const override;
    double spentUsd() const override;
    // {screen, phase, gamesFinished, totalGames, spentUsd, config, leaderboard, games, live, ...}
    std::string stateJson() const override;
    // configure <config>, start, stop, finish, resume, reset, excludeForfeits <bool>,
    // select <game id or -1>, tab "games"|"leaderboard", game <id> (later: the game whole),
    // importJson <bundle>, exportJson / exportPgn (later: the text).
    std::optional<std::string> command(std::string_view name, std::string_view argumentJson,
                                       std::string* resultJson) override;
    std::vector<ui::CommandInfo> commands() const override;
    // A panel the shell draws at the page's left edge (wide pages only); null: none.
    void setLeftPanel(ui::SidePanel* panel) { leftPanel_ = panel; }

    // The arena as the planner's stages drive it: typed, the same paths as the commands.
    play::TournamentProgress tournamentProgress() const;
    // A new tournament of `config` (a finished or stopped one is reset first); refused while one
    // is under way, or with the reason the setup or the start was refused.
    std::optional<std::string> startTournament(const chessmode::TournamentConfig& config);
    void stopTournament();
    // The tournament as its JSON bundle, for a plan that keeps each stage: the older games are read
    // back from storage first, so `done` is called later (in a later frame).
    void exportTournament(std::function<void(chessmode::Parsed<std::string>)> done) const;
    // Shows a kept bundle in place of the arena's tournament (refused while one runs).
    std::optional<std::string> openTournament(std::string_view bundle);

private:
    void drawArena();
    ArenaEnvironment arenaEnvironment();
    void followKeyDefaults();
    std::optional<std::string> configure(std::string_view configJson);
    void resetArena(); // the tournament gone (the session's spend kept for the header)
    // arena_screen.cpp
    void drawSidebar(float width, float height);
    void drawControls();
    void drawStandings();
    void drawResetConfirm();
    void drawImport();
    // arena_setup.cpp
    void drawSetup();
    // arena_games.cpp
    void drawGrid();
    void drawGame(int gameId);
    void drawLeaderboard();
    void drawGamesList(); // every finished game, filtered by player and result; a click opens one
    // Below the leaderboard: the methods card and the exports a person can publish (CSV, HTML).
    void drawMethods();
    chessmode::LeaderboardReport leaderboardReport() const;
    std::vector<int> gamesListed() const; // the list's games (indexes into the session's), newest first
    std::string arenaRating(int participant) const;
    const ArenaReplay& arenaReplay(const chessmode::GameRecord& game);
    // The game shown in full, reviewed: its positions scored one a tick (tick).
    void followReview();
    bool reviewing() const; // the review's analysis is under way
    void drawGameColumn(const ui::MoveListModel& moves, const play::Pairing& pairing, chessmode::LiveGame* live,
                        const chessmode::GameRecord* record, float width, float height, bool compact);

    const ui::ScreenContext& context_;
    ChessServices services_;
    const ChessAssets& assets_;
    const chessmode::ChessPlaySettings& settings_;

    std::unique_ptr<ArenaSession> arena_;
    bool haveKey_ = false;       // the key presence the default draft was chosen for
    double spentBeforeResetUsd_ = 0; // tournaments reset in this session (the header's total)
    double importedSpentUsd_ = 0;    // what the imported tournament had spent before (not this session's)
    bool imported_ = false;          // the tournament shown came from a bundle
    // Replaces the tournament with a bundle, the session's spend kept as it was (see spentUsd).
    std::optional<std::string> importBundle(std::string_view text);
    bool arenaCompact_ = false;  // phones: sidebar above, the page scrolls
    int arenaGame_ = -1;         // the game shown in full, or -1 for the grid
    int arenaTab_ = 0;           // 0 games, 1 leaderboard (set by the API; the tab bar follows)
    bool arenaTabRequested_ = false;
    MoveNavigator arenaNav_;
    ui::BoardView arenaBoard_;
    bool arenaResetOpen_ = false;
    bool arenaImportOpen_ = false;
    std::string formatNote_; // what the last change of format made of the games and the estimate
    // The games list's filters (shared with the match history): a participant (a leaderboard row's
    // click sets it), the result, the ending (a terminationName) and an opening of the suite.
    chessmode::GamesFilter gamesFilter_;
    bool liveElo_ = false; // the leaderboard's rating column shows the live Elo (its own view)
    std::string arenaImportError_;
    std::vector<char> arenaImportBuffer_ = std::vector<char>(1 << 20, 0);
    char arenaModelFilter_[64] = {};
    std::string arenaNotice_;    // results of export/import, shown in the sidebar
    bool exportBusy_ = false;    // an Export button's export reads folded games back
    // The page API's export (chaiba.arena.exportJson/exportPgn): asked again until its text is there.
    struct ApiExport {
        bool pgn = false;
        std::optional<chessmode::Parsed<std::string>> text;
    };
    std::shared_ptr<ApiExport> apiExport_;
    std::map<int, std::pair<size_t, double>> arenaThinkStart_; // game -> (plies, since ms)
    std::map<int, ArenaReplay> arenaReplays_;                  // by game id
    // The review of the game shown in full (eval bar, graph, accuracy, marks): scored at the arena's
    // judging budget, so its marks are the leaderboard's, in an engine worker of its own made when
    // the first game is opened. reviewGame_ is the record replayed (reviewKey_: which one, how long).
    std::unique_ptr<chessmode::GameAnalyser> review_;
    chess::Game reviewGame_;
    std::string reviewKey_;
    int reviewGameId_ = -1; // the game the review follows
    ui::SidePanel* leftPanel_ = nullptr;
};

} // namespace chaiba
