// MatchRunner: one game between two Players, non-blocking (poll() from the main loop), UI-free.
// It asks the side to move, applies the answer, adjudicates with the rules' game status, and
// records per move SAN, reasoning, attempts, cost and tokens. Reused by the CLI, the web match
// screen and the arena.
#pragma once

#include "src/modes/chess/layers.h"
#include "engine/chess/game.h"
#include "engine/chess/pgn.h"
#include "src/modes/chess/conversation.h"
#include "src/modes/chess/player.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace chaiba::chessmode {

struct MatchConfig {
    bool chess960 = false;
    int chess960Number = -1;             // 0..959; -1: drawn from the seed
    std::optional<std::string> startFen; // overrides both (validated by MatchRunner::create)
    std::uint64_t seed = 1;
    int maxPlies = 600;     // adjudicated a draw after this many plies
    bool claimDraws = true; // claim threefold / fifty-move draws as soon as they arise
    // Every model request's caps per error kind (MoveRequest::maxRequestsByKind): a tournament's
    // failure rules (play::requestCapsOfRules); zeros: the chat client's policy alone.
    llm::RequestCaps maxRequestsByKind{};
};

// One move as played, for the move list, the reasoning panel and the PGN.
struct MoveRecord {
    int ply = 0; // 0-based
    chess::Move move;
    std::string san;
    std::string uci;
    std::string playerId;
    std::string reasoning;
    int attempts = 1;
    double costUsd = 0;
    llm::Usage usage;
    bool offeredDraw = false; // the mover offered a draw with (or just before) this move
};

enum class MatchState { NotStarted, Running, Finished };

// How a match ended, typed; termination() is the same fact as text for people.
enum class MatchEnd : uint8_t {
    None,        // running, not started, or asked again after an error
    Rules,       // checkmate, stalemate, a draw by rule (claimed or automatic)
    MoveLimit,   // adjudicated a draw after maxPlies
    Agreement,   // a draw agreed (offer accepted, or agreeDraw)
    Resignation, // resign()
    Forfeit,     // the side to move answered PlayerMove::Kind::Forfeit (see forfeitBy())
    Decided,     // endAs(): a result decided elsewhere
    Error,       // stopped unfinished on a player's error (see failure()); retry() asks again
    Aborted      // abort(): stopped unfinished
};

// Where a match of this config starts: startFen if it parses, else the Chess960 position (its
// number, or one drawn from the seed), else the standard start.
chess::Position matchStartPosition(const MatchConfig& config);

class MatchRunner {
public:
    // Players must outlive the runner. An invalid startFen is an error value, never a crash.
    static std::optional<std::string> validate(const MatchConfig& config);
    MatchRunner(Player& white, Player& black, MatchConfig config);
    ~MatchRunner();
    MatchRunner(const MatchRunner&) = delete;
    MatchRunner& operator=(const MatchRunner&) = delete;

    // Replays moves recorded earlier (a reloaded page, a pasted PGN) before start(); an illegal
    // move is an error value naming it, and nothing is replayed then.
    std::optional<std::string> restore(const std::vector<MoveRecord>& records);
    void start();
    // Advances: polls the side to move, applies its move, adjudicates, asks the next side (unless
    // held).
    void poll();
    // Held: a move in progress finishes, but the next side is not asked (pause / single steps).
    void setHold(bool hold) { hold_ = hold; }
    bool held() const { return hold_; }
    // Asks the side to move now if nobody is thinking (a step while held, or resuming).
    void requestMove();
    // True while a player has been asked and has not answered yet.
    bool thinking() const { return state_ == MatchState::Running && asked_; }
    // Ends the game by resignation of `side`, or by agreement.
    void resign(chess::Color side);
    // An immediate draw decided outside the players (the user adjudicates an engine game).
    void agreeDraw(const std::string& reason);

    // Draw offers. `by` offers a draw: the offer is told to everyone (a moderator entry) and stays
    // open for exactly the opponent's next turn (its current one when the opponent is on move; a
    // player already thinking is asked again, now with the offer). The opponent accepts
    // (PlayerMove::Kind::AcceptDraw, or answerDraw for a person): "1/2-1/2", "draw agreed"; a
    // move declines it. Error sentence when no offer can be made now.
    std::optional<std::string> offerDraw(chess::Color by);
    // The side whose draw offer is open, if any.
    std::optional<chess::Color> drawOfferBy() const { return drawOfferBy_; }
    // `by` answers the offer made to it (a person's buttons). Declining leaves `by` to move.
    std::optional<std::string> answerDraw(chess::Color by, bool accept);
    // Ends the game with a result decided elsewhere (a restored game that had ended that way).
    void endAs(const std::string& result, const std::string& reason);
    // After the game stopped on an error (result "*", termination "error: ..."), asks the same
    // side again; false when there is nothing to retry. maxRequests caps the requests of its model
    // calls for the turn (MoveRequest::maxRequests; 0: none).
    bool retry(int maxRequests = 0);
    // Stops an unfinished game: result "*" with the reason (e.g. "stopped by the user").
    void abort(const std::string& reason);
    // Takes back `side`'s last move and every move after it (the opponent's reply, if it came),
    // so `side` is to move again. A player still thinking is stopped: its answer never lands.
    // A game ended by the rules, the move limit or an error plays on; one decided by the players
    // (resignation, agreement, forfeit, abort) stays over. Error sentence when refused.
    std::optional<std::string> takeBack(chess::Color side);
    // Why takeBack(side) would be refused now; nothing when it would succeed.
    std::optional<std::string> takeBackRefusal(chess::Color side) const;

    MatchState state() const { return state_; }
    bool finished() const { return state_ == MatchState::Finished; }
    const chess::Game& game() const { return game_; }
    const std::vector<MoveRecord>& moves() const { return moves_; }
    chessmode::GameConversation& conversation() { return conversation_; }
    Player& white() { return white_; }
    Player& black() { return black_; }
    Player& sideToMove();

    // How it ended (None while running).
    MatchEnd end() const { return end_; }
    // Over with a result (not running, not stopped unfinished by an error or an abort).
    bool decided() const { return state_ == MatchState::Finished && result_ != "*"; }
    // Stopped unfinished on a player's error: retry() may ask the same side again.
    bool stoppedOnError() const { return stoppedOnError_; }
    // The typed failure that stopped it (MatchEnd::Error), else nothing.
    const std::optional<play::SeatFailure>& failure() const { return failure_; }
    // The side that forfeited (MatchEnd::Forfeit), else nothing.
    std::optional<chess::Color> forfeitBy() const {
        return end_ == MatchEnd::Forfeit ? forfeitBy_ : std::nullopt;
    }
    // "1-0", "0-1", "1/2-1/2", or "*" (running, aborted, or stopped by an error).
    std::string result() const;
    // "checkmate", "White forfeits: ...", "error: ...", ...; empty while running. Text for people:
    // decisions read end(), failure() and forfeitBy().
    std::string termination() const;
    // Cost and tokens of this game per side: every answer, including a forfeited or failed turn.
    double costUsd(chess::Color side) const;
    llm::Usage usage(chess::Color side) const;

    // The game as PGN: reasoning as move comments; players, models, costs, tokens as tags.
    chess::PgnGame toPgn(const std::string& event, int round) const;

private:
    void finish(std::string result, std::string reason, MatchEnd end);
    void stopOnError(const std::string& message); // a player bug: stop, don't crash
    void askNext(int maxRequests = 0);
    void adjudicate();
    void addToTotals(int side, double costUsd, const llm::Usage& usage);
    void acceptDraw(chess::Color by);

    Player& white_;
    Player& black_;
    MatchConfig config_;
    chess::Game game_;
    chessmode::GameConversation conversation_;
    std::vector<MoveRecord> moves_;
    MatchState state_ = MatchState::NotStarted;
    bool asked_ = false;
    struct SideTotals {
        double costUsd = 0;
        llm::Usage usage;
    };
    SideTotals totals_[2]; // every answer's cost, including forfeited and failed turns
    bool hold_ = false;
    bool stoppedOnError_ = false;
    std::optional<chess::Color> drawOfferBy_; // an open draw offer, by this side
    std::vector<MoveRecord> restored_;        // replayed by restore(), recorded at start()
    std::string result_;                      // set when finished outside the rules (forfeit, error, abort)
    std::string termination_;
    MatchEnd end_ = MatchEnd::None;
    std::optional<play::SeatFailure> failure_;
    std::optional<chess::Color> forfeitBy_;
};

} // namespace chaiba::chessmode
