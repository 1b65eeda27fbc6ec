// The one tournament runner (TournamentDriver; each mode wraps it in its own runner):
// plays a tournament of any mode, non-blocking (poll() from a loop),
// UI-free. Pulls tables from a Schedule, makes a TournamentGame per table with the mode's factory,
// and applies concurrency, tempo (ticker), the budget cap, the failure rules (retry, backoff,
// forfeit, pause on 401/402), stop modes and resume ordering.
#pragma once

#include "src/play/budget.h"
#include "src/play/tempo.h"
#include "src/play/tournament_game.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace chaiba::play {

enum class StopMode : uint8_t {
    FinishRunning, // no new games; running games play to the end
    AbandonRunning // running games are stopped now and handed back to the schedule
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
    RunnerEvent() = default;
    RunnerEvent(Kind what, int game, std::string text, std::optional<FailureKind> why = std::nullopt)
        : kind(what), gameId(game), message(std::move(text)), failure(why) {}
    Kind kind = Kind::GameStarted;
    int gameId = -1;
    std::string message;
    std::optional<FailureKind> failure; // Paused by the failure rules (401/402): which failure
};

struct RunnerConfig {
    int participants = 0;
    int concurrency = 1; // games at once
    Tempo tempo = Tempo::MaxSpeed;
    int tickerSeconds = 60;
    std::optional<double> budgetUsd; // hard spending cap; none = no cap
    int backoffMs = 2000; // first backoff after a rate limit or server error; doubles per failure
    // A Retry-After hint up to this long is waited out (instead of the backoff); a longer one
    // (an hourly or daily limit) pauses the tournament with the reason, for a later resume.
    int maxRetryAfterMs = 10 * 60 * 1000;
};

// What the mode's factory returns for a table.
struct GameStart {
    std::unique_ptr<TournamentGame> game; // null: `error` says why
    std::string error;
    bool abandon = false; // true: this table cannot be played (hand it back); false: pause
};
// Makes the game of a table; `resumed`: the table was queued by resumeFirst().
using GameFactory = std::function<GameStart(const Table& table, bool resumed)>;

class TournamentDriver {
public:
    TournamentDriver(RunnerConfig config, std::unique_ptr<Schedule> schedule, GameFactory factory);
    ~TournamentDriver();
    TournamentDriver(const TournamentDriver&) = delete;
    TournamentDriver& operator=(const TournamentDriver&) = delete;

    // Before start(): an unfinished game of an interrupted run (already placed in the schedule as
    // running). Resumed games start before any new game, in the order given, counting toward the
    // concurrency; like running games they are not held back by the budget cap.
    void resumeFirst(Table table) { resuming_.push_back(std::move(table)); }
    // Before start(): a recorded cost of the interrupted run, counted toward the budget.
    void addCost(int participant, double usd) { budget_.add(participant, usd); }
    // An event of the mode's (e.g. a resumed game that could not continue).
    void note(RunnerEvent event) { events_.push_back(std::move(event)); }
    // Called with each finished game before the runner lets it go (the mode keeps its record).
    std::function<void(TournamentGame&)> onGameFinished;

    void start(double nowMs);
    // Advances everything: starts games up to the concurrency (unless stopping, paused or over
    // budget), fires the ticker, polls the games, applies the failure rules, records finished
    // games. Never blocks.
    void poll(double nowMs);
    void stop(StopMode mode);
    // After a pause (401/402, fixed key or credits): asks the failed seats again.
    void resume();

    RunnerState state() const { return state_; }
    bool done() const { return state_ == RunnerState::Finished; }
    const std::string& pauseMessage() const { return pauseMessage_; }
    // Why the failure rules paused the tournament (Unauthorized, PaymentRequired); nothing when
    // not paused or paused for another reason (a seat that could not be made).
    const std::optional<FailureKind>& pauseReason() const { return pauseReason_; }
    const BudgetTracker& budget() const { return budget_; }
    const RunnerConfig& config() const { return config_; }
    const Schedule& schedule() const { return *schedule_; }
    Schedule& schedule() { return *schedule_; }
    long long ticks() const { return ticker_.ticks(); }
    // Milliseconds until the runner has timed work to do (ticker, backoff); -1: none.
    double msUntilNextTimer(double nowMs) const;

    // Running games, in start order.
    std::vector<TournamentGame*> liveGames() const;
    // Resumed games not started yet (they start at the next poll that may start games).
    const std::vector<Table>& pendingResumes() const { return resuming_; }
    // Events since the last call.
    std::vector<RunnerEvent> takeEvents();

private:
    // A running game and the runner's failure bookkeeping for its current turn.
    struct Live {
        std::unique_ptr<TournamentGame> game;
        int turn = -1;
        int failures = 0;
        std::optional<FailureKind> lastFailure; // (the retry's due time is the game's retryAtMs_)
    };

    void startGames();
    bool startGame(const Table& table, bool resumed);
    void pollGame(Live& live, double nowMs);
    void onFailure(Live& live, const TurnFailure& failure, double nowMs);
    // The requests the rules leave a retried turn for its failure: a rule of "retry up to N times"
    // is N + 1 requests, and the calls so far took live.failures of them; 0: none counted.
    static int triesLeft(const Live& live);
    void finishGame(size_t index);
    void abandonGame(size_t index, const std::string& why);
    void pause(const std::string& message, std::optional<FailureKind> reason = std::nullopt);
    void updateState();

    RunnerConfig config_;
    std::unique_ptr<Schedule> schedule_;
    GameFactory factory_;
    BudgetTracker budget_;
    Ticker ticker_;
    RunnerState state_ = RunnerState::Idle;
    std::string pauseMessage_;
    std::optional<FailureKind> pauseReason_;
    std::vector<Live> live_;
    std::vector<Table> resuming_;
    std::vector<RunnerEvent> events_;
    bool budgetAnnounced_ = false;
};

} // namespace chaiba::play
