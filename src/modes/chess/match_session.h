// The match screen's model, free of ImGui so it is tested natively: builds the players of a
// GameSetup, owns the MatchRunner, drives auto-play / pause / single steps, takes a person's
// moves, resignations and retries, and saves the game as JSON so a reloaded page resumes it.
#pragma once

#include "src/llm/assets.h"
#include "src/modes/chess/chess_prompts.h"
#include "src/llm/chat.h"
#include "src/modes/chess/game_setup.h"
#include "src/modes/chess/chess_settings.h"
#include "src/modes/chess/match.h"
#include "src/modes/chess/player.h"
#include "src/modes/chess/player_factory.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace chaiba {

// What the session needs from outside; the web app and the tests fill it differently.
struct SessionEnvironment {
    llm::ChatService* chat = nullptr;              // null: LLM players are refused (no key)
    const chessmode::AgentPrompts* prompts = nullptr;
    // The built-in engine as a player (native: searches in poll; web: a Web Worker).
    chessmode::EngineMaker makeEngine;
    // "Engine · level 4 · ≈1600" (the display name of a level).
    std::function<std::string(int level)> engineName;
    int maxEngineLevel = 8;
    // Optional: whether a model supports tools (text mode otherwise), from the catalog.
    std::function<bool(const std::string& model)> supportsTools;
};

// Stopped: an API error (refused key, empty account, a failure after the retries) halted the game
// mid-way; nothing is decided and Retry asks the same side again.
enum class SessionPhase { Empty, Running, Paused, Stopped, Finished };

class MatchSession {
public:
    explicit MatchSession(SessionEnvironment env);
    ~MatchSession();

    // Starts a new game from the setup (the previous one is dropped). Error sentence on failure.
    std::optional<std::string> newGame(const GameSetup& setup, const chessmode::ChessPlaySettings& settings, uint64_t seed);
    // Restores a game saved by saveJson(); the game comes back paused. Error sentence on failure
    // (corrupt or foreign data): the current game is then left as it was.
    std::optional<std::string> restore(std::string_view json, const chessmode::ChessPlaySettings& settings);
    std::string saveJson() const;
    // Restores a saved game to be looked at only (the history's review): its moves, reasoning,
    // costs and result, with no engine, model or key behind either side; it never moves on.
    std::optional<std::string> restoreForReview(std::string_view json, const chessmode::ChessPlaySettings& settings);
    // The game's identity: its start day and seed ("2026.11.28#8412…"); empty without a game.
    std::string gameKey() const;
    const std::string& date() const { return date_; }
    // A side's player as the screen names it ("Engine · level 4 · ≈1550", "Random mover").
    std::string playerName(chess::Color side) const;
    // How the finished game ended, as a stable name (chessmode::GameFacts::ending): a rule
    // ("checkmate", "threefold_repetition", ...), "move_limit", "agreement", "resignation",
    // "forfeit"; empty while it goes on or when stopped without a result.
    std::string ending() const;

    // Call every frame: advances players and the runner.
    void poll();

    SessionPhase phase() const;
    bool autoPlay() const { return autoPlay_; }
    void setAutoPlay(bool on);
    // Plays exactly one move (while paused).
    void step();
    // A person's move on the board; error sentence when it is not theirs to make or illegal.
    std::optional<std::string> humanMove(chess::Move move);
    // True when the side to move is a person waiting for a move.
    bool humanToMove() const;
    // The side to move resigns (a person's resign button resigns the person's side when exactly
    // one side is human).
    void resign();
    // Draws. With exactly one human side, the Draw button offers a draw from the person
    // (drawIsOffer()); otherwise (engines/LLMs only, or two people at one screen) it adjudicates
    // the game drawn at once (agreeDraw()).
    bool drawIsOffer() const;
    void agreeDraw();
    // The person offers a draw (see MatchRunner::offerDraw); error sentence when not possible.
    std::optional<std::string> offerDraw();
    // The side whose draw offer is open, if any.
    std::optional<chess::Color> pendingDrawOffer() const;
    // True when the open offer is made to the person, who answers with answerDraw().
    bool drawOfferToHuman() const;
    std::optional<std::string> answerDraw(bool accept);
    // After an API error stopped the game: asks the same side again.
    bool retry();
    bool canRetry() const;
    // Takes back the person's last move and the opponent's reply if it came (the person is to
    // move again; an engine or model still thinking is stopped). With two people, the last move.
    // Error sentence when refused (no person, nothing to take back, a game decided by a player).
    std::optional<std::string> takeBack();
    // Why takeBack() would be refused now; nothing when it would succeed.
    std::optional<std::string> takeBackRefusal() const;
    // The one human side, if exactly one side is a person (the side that premoves).
    std::optional<chess::Color> soleHuman() const;
    // This game's setup with the colours swapped, from the same start position (a rematch).
    GameSetup rematchSetup() const;

    const chessmode::MatchRunner* runner() const { return runner_.get(); }
    chessmode::MatchRunner* runner() { return runner_.get(); }
    chessmode::Player* player(chess::Color side);
    const GameSetup& setup() const { return setup_; }
    // Increases whenever a move is played or the game changes state (for autosave and animation).
    uint64_t revision() const { return revision_; }
    std::string pgn() const;
    double totalCostUsd() const;
    // The last error a player reported (API failure, forfeit reason), for the banner.
    std::string statusMessage() const;

private:
    std::unique_ptr<chessmode::Player> makePlayer(const PlayerSpec& spec, chess::Color side, const chessmode::ChessPlaySettings& settings,
                                              const std::string& opponentName, uint64_t seed, std::string& error);
    std::optional<std::string> build(const GameSetup& setup, const chessmode::ChessPlaySettings& settings, uint64_t seed,
                                     const ValidatedStart& start);

    std::string displayName(const PlayerSpec& spec) const;

    SessionEnvironment env_;
    GameSetup setup_;
    std::string date_; // the game's start day, "YYYY.MM.DD" (the PGN Date)
    uint64_t seed_ = 1;
    bool reviewOnly_ = false; // restoreForReview: both sides are stand-ins that never move
    std::unique_ptr<chessmode::Player> white_;
    std::unique_ptr<chessmode::Player> black_;
    std::unique_ptr<chessmode::MatchRunner> runner_;
    bool autoPlay_ = true;
    uint64_t revision_ = 0;
    size_t lastMoveCount_ = 0;
    chessmode::MatchState lastState_ = chessmode::MatchState::NotStarted;
    std::optional<chess::Color> lastDrawOffer_;
    // The side a takeback is for: the person, or with two people the side that moved last.
    std::optional<chess::Color> takeBackSide() const;
};

} // namespace chaiba
