// The match screen: one game on a board (models, engines, a person, the random mover), with the
// player cards, controls, move list, the two reasoning panels, the New Game dialog, the debug
// windows and the custom-instructions editor; and its automation commands (newMatch, start,
// pause, pgn, the history's). The game itself is MatchSession; this is its view and its autosave;
// every finished game goes into the history (match_history.h), whose games open in the review.
#pragma once

#include "src/modes/chess/chess_screens.h"
#include "src/modes/chess/chess_settings.h"
#include "src/modes/chess/game_analyser.h"
#include "src/modes/chess/match_history.h"
#include "src/modes/chess/match_session.h"
#include "src/modes/chess/ui/board_view.h"
#include "src/modes/chess/ui/new_game_dialog.h"
#include "src/ui/command_queue.h"
#include "src/ui/debug_window.h"
#include "src/ui/format.h"
#include "src/ui/screen.h"

#include <memory>
#include <optional>
#include <string>
#include <utility>

namespace chaiba {

class MatchScreen final : public ui::Screen {
public:
    // `context`, `assets` and `settings` are the shell's and outlive the screen. Restores the
    // game this browser kept (a corrupt one is kept aside under "<key>.corrupt").
    MatchScreen(const ui::ScreenContext& context, ChessServices services, const ChessAssets& assets,
                const chessmode::ChessPlaySettings& settings);
    ~MatchScreen() override;

    std::string_view id() const override { return "match"; }
    std::string_view title() const override { return "Match"; }
    void tick(double nowMs) override;
    void draw() override;
    void drawWindows() override;
    bool wantsContinuousFrames() const override;
    double contentFrameIntervalMs() const override;
    uint64_t changeCounter() const override;
    double spentUsd() const override;
    // {status, fen, startFen, moves, thinking, result, reason, white, black, costUsd, notes, ...}
    std::string stateJson() const override;
    // newMatch {white, black, chess960, fen} (player SPECs as the CLI takes them), start, pause,
    // pgn (answers the PGN as a JSON string); the history: history {open}, historyFilter {player,
    // result, ending, opening}, historyReview {id}, historyBack, historyDelete {id}, historyPgn {id}.
    std::optional<std::string> command(std::string_view name, std::string_view argumentJson,
                                       std::string* resultJson) override;
    std::vector<ui::CommandInfo> commands() const override;

private:
    // Changes the draw code asks for (a new game replaces the session it is drawing), applied at
    // the start of the next tick.
    ui::CommandQueue commands_;
    // match_screen.cpp: the game's lifecycle
    SessionEnvironment sessionEnvironment();
    GameSetup defaultSetup(bool haveKey) const;
    void followKeyDefaults();
    std::optional<std::string> startGame(const GameSetup& setup);
    std::optional<std::string> newMatch(std::string_view argumentJson);
    void start();
    void pause();
    void autosaveGame();
    void facePerson();
    void analyseStep(); // scores one position of the shown game per frame
    // match_view.cpp: drawing
    void drawBoardArea(float size);
    void drawSidePanel(float width, float height, bool compact);
    void drawControls();
    void drawBanner();
    void drawInstructionsEditor();
    void drawDebugWindows();
    void drawReasoning(chess::Color side, float width, float height);
    chess::Position viewedPosition(chess::Move& lastMove) const;
    // match_history_view.cpp: the history of finished games, and a past game in the review
    // (read-only, beside a live game that goes on: "Back to the live game" returns to it).
    void recordFinishedGame();
    void drawHistory();
    void drawHistoryRows(const std::vector<int>& ids);
    void drawReviewControls();
    void drawDeleteConfirm();
    void drawHistoryNotice();
    std::vector<int> historyListed() const; // ids, newest first, as filtered
    std::optional<std::string> openReview(int id);
    void closeReview();
    std::optional<std::string> deleteGame(int id);
    void exportGame(int id);
    std::string historyStateJson() const;
    std::optional<std::string> historyCommand(std::string_view name, std::string_view argumentJson, std::string* resultJson);
    // What the board, cards, move list and graph show: the past game under review, else the live game.
    MatchSession* shownSession() { return review_ ? review_.get() : session_.get(); }
    const MatchSession* shownSession() const { return review_ ? review_.get() : session_.get(); }
    MoveNavigator& shownNavigator() { return review_ ? reviewNav_ : navigator_; }
    const MoveNavigator& shownNavigator() const { return review_ ? reviewNav_ : navigator_; }
    const chessmode::GameAnalyser& shownAnalyser() const { return review_ && reviewAnalyser_ ? *reviewAnalyser_ : analyser_; }

    const ui::ScreenContext& context_;
    ChessServices services_;
    const ChessAssets& assets_;
    const chessmode::ChessPlaySettings& settings_;

    std::unique_ptr<MatchSession> session_;
    MoveNavigator navigator_;
    uint64_t savedRevision_ = 0;
    size_t animatedMoves_ = 0;
    double sessionCostUsd_ = 0;       // finished games of this session
    double thinkStartMs_ = 0;         // when the side to move started thinking
    struct RetrySeen {
        int number = 0;      // the agent's retryWaitNumber() last seen
        double sinceMs = 0;  // when this screen first saw it (the wait counts down from there)
    } retrySeen_[2];
    size_t thinkKey_ = static_cast<size_t>(-1);
    std::string gameError_;           // a start/restore error shown in the banner
    std::pair<std::string, double> copied_; // "FEN copied" shown until that time (ms)

    ui::BoardView board_;
    chessmode::GameAnalyser analyser_; // move quality of the shown game (eval bar, graph, marks)
    ui::NewGameDialog newGame_;
    ui::DebugWindow debug_[2];
    bool instructionsOpen_[2] = {false, false};
    char instructionsBuffer_[2][2048] = {};
    GameSetup lastSetup_;
    bool haveKey_ = false;            // the key presence lastSetup_'s default was chosen for

    // The history (every finished game of this screen) and its view.
    MatchHistory history_;
    std::string historyNotice_;       // a refused write, damaged records, a deletion
    bool historyOpen_ = false;        // the list replaces the board and the side panel
    chessmode::GamesFilter historyFilter_;
    int confirmDelete_ = -1;          // the game the "Delete?" dialog asks about, -1: none
    std::string recordedKey_;         // the live game's gameKey + its length when last recorded
    // A past game in the review: its own session (no players behind it), analyser and navigator.
    int reviewId_ = -1;
    std::unique_ptr<MatchSession> review_;
    std::unique_ptr<chessmode::GameAnalyser> reviewAnalyser_;
    MoveNavigator reviewNav_;
};

} // namespace chaiba
