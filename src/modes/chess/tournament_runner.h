// TournamentRunner: plays a tournament, non-blocking (poll() from a loop), UI-free. Pulls games
// from the Scheduler, runs a MatchRunner per game with players made by an injected factory, turns
// finished games into GameRecords, and applies tempo, failure rules, budget cap, stop and resume.
#pragma once

#include "src/modes/chess/layers.h"
#include "src/play/budget.h"
#include "src/modes/chess/bundle.h"
#include "src/modes/chess/match.h"
#include "src/play/scheduler.h"
#include "src/modes/chess/tournament.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace chaiba::chessmode {

// What the factory is asked for: one side of one game.
struct PlayerSlot {
    int participant = 0;       // index in the config
    const Participant* spec{}; // config.participants[participant]
    chess::Color side = chess::Color::White;
    std::string id;           // "white" / "black" (unique within the match)
    std::string opponentName; // the other participant's display name
    std::uint64_t seed = 1;   // per game and side, for deterministic random and engine players
};
// Makes a player for a slot; nothing (with *error set) when the spec cannot be played.
using PlayerFactory = std::function<std::unique_ptr<Player>(const PlayerSlot& slot, std::string& error)>;

enum class StopMode : uint8_t {
    FinishRunning, // no new games; running games play to the end
    AbandonRunning // running games are stopped now and handed back to the scheduler
};

enum class RunnerState : uint8_t {
    Idle,     // not started
    Running,  // games start and move
    Stopping, // stop(FinishRunning) or the budget cap: running games finish, none start
    Paused,   // 401/402: nothing moves until resume()
    Finished  // every game played, or stopped and nothing left running
};
std::string_view runnerStateName(RunnerState state);

// Something the caller may want to print or show.
struct RunnerEvent {
    enum class Kind : uint8_t { GameStarted, GameFinished, GameAbandoned, Retrying, Paused, BudgetReached };
    Kind kind = Kind::GameStarted;
    int gameId = -1;
    std::string message;
};

struct RunnerOptions {
    int backoffMs = 2000; // first backoff after a rate limit or server error; doubles per failure
};

// One running game: its pairing, its players and its match.
struct LiveGame {
    Pairing pairing;
    std::unique_ptr<Player> white; // from the factory
    std::unique_ptr<Player> black;
    std::unique_ptr<Player> whiteSeat; // what the match drives: the player, observed by the runner
    std::unique_ptr<Player> blackSeat;
    std::unique_ptr<MatchRunner> match;
    // Failure bookkeeping for the current turn (per the failure rules).
    int turnPly = -1;
    int failures = 0;
    std::optional<FailureKind> lastFailure;
    double retryAtMs = -1; // a backoff's due time; -1: none pending
    // Answers of the current turn that were not moves (a forfeit, errors).
    double openCostUsd = 0;
    llm::Usage openUsage;
    int openAttempts = 0;
    std::string forfeitMessage;
    Termination forfeitAs = Termination::ForfeitOther;
    std::optional<GameResult> forced; // a forfeit decided by the runner (failure rules)
    // A resumed game's recorded turns, kept as they were (illegal attempts, costs): the record's
    // first restoredTurns.size() turns; the match replayed them and continues after them.
    std::vector<TurnRecord> restoredTurns;
};

class TournamentRunner {
public:
    // A runner for a config (validated) continuing `resumed` games (a bundle's, in finish order):
    // finished games are kept; an unfinished one continues where it stopped: it starts before any
    // new game (counting toward the concurrency), its recorded moves are replayed and the side to
    // move is asked again. Their recorded costs count toward the budget. An unfinished game whose
    // moves cannot be replayed (another start position, an illegal move) is played again from the
    // start, with a GameAbandoned event saying why. Errors: an invalid config, or games that do
    // not fit its schedule.
    static Parsed<std::unique_ptr<TournamentRunner>> create(TournamentConfig config, PlayerFactory factory,
                                                            std::vector<GameRecord> resumed = {},
                                                            RunnerOptions options = {});
    ~TournamentRunner();
    TournamentRunner(const TournamentRunner&) = delete;
    TournamentRunner& operator=(const TournamentRunner&) = delete;

    void start(double nowMs);
    // Advances everything: starts games up to the concurrency (unless stopping, paused or over
    // budget), fires the ticker, polls the matches, records finished games. Never blocks.
    void poll(double nowMs);
    void stop(StopMode mode);
    // After a pause (401/402, fixed key or credits): asks the failed players again.
    void resume();

    RunnerState state() const { return state_; }
    bool done() const { return state_ == RunnerState::Finished; }
    const std::string& pauseMessage() const { return pauseMessage_; }
    bool budgetReached() const { return budget_.capReached(); }
    const BudgetTracker& budget() const { return budget_; }
    const TournamentConfig& config() const { return config_; }
    const Scheduler& scheduler() const { return scheduler_; }
    long long ticks() const { return ticker_.ticks(); }
    // Milliseconds until the runner has timed work to do (ticker, backoff); -1: none.
    double msUntilNextTimer(double nowMs) const;

    const std::vector<std::unique_ptr<LiveGame>>& liveGames() const { return live_; }
    // Resumed unfinished games not started yet (they start at the next poll that may start games).
    int pendingResumes() const { return int(resuming_.size()); }
    // Finished games in finish order.
    const std::vector<GameRecord>& games() const { return games_; }
    // The record of a running game so far (unfinished).
    GameRecord recordOf(const LiveGame& game) const;
    // Finished games, then the running ones (and resumed ones not started yet) as unfinished
    // records (what a bundle stores).
    std::vector<GameRecord> snapshot() const;
    TournamentBundle bundle(const LeaderboardOptions& options = {}) const;
    // Events since the last call.
    std::vector<RunnerEvent> takeEvents();

private:
    // An unfinished game of the resumed run, checked to replay, waiting to start.
    struct Resumed {
        GameRecord record;
        std::vector<MoveRecord> moves; // record.moves as MatchRunner::restore replays them
    };

    TournamentRunner(TournamentConfig config, PlayerFactory factory, RunnerOptions options);
    void startGames(double nowMs);
    bool startGame(const Pairing& pairing, const Resumed* resumed = nullptr);
    void pollGame(LiveGame& game, double nowMs);
    void onAnswer(LiveGame& game, chess::Color side, const PlayerMove& answer);
    void onStoppedOnError(LiveGame& game, double nowMs);
    void finishGame(size_t index);
    void abandonGame(size_t index, const std::string& why);
    void pause(const std::string& message);
    void updateState();
    MatchConfig matchConfig(const Pairing& pairing) const;

    TournamentConfig config_;
    PlayerFactory factory_;
    RunnerOptions options_;
    Scheduler scheduler_;
    BudgetTracker budget_;
    Ticker ticker_;
    RunnerState state_ = RunnerState::Idle;
    std::string pauseMessage_;
    std::vector<std::unique_ptr<LiveGame>> live_;
    std::vector<Resumed> resuming_; // started first, in the resumed order
    std::vector<GameRecord> games_;
    std::vector<RunnerEvent> events_;
    bool budgetAnnounced_ = false;
};

// Maps a stopped match's player error to a failure kind: an LLM player's last chat error, else
// an HTTP status named in the message, else a server error.
FailureKind failureKindOf(Player& player, const std::string& message);

} // namespace chaiba::chessmode
