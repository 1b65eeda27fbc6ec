// The chess tournament runner: the one play::TournamentDriver driving chess games. A LiveGame is
// chess's play::TournamentGame (a MatchRunner between two players made by an injected factory,
// turned into a GameRecord); TournamentRunner keeps the records, the bundle and resume.
#pragma once

#include "src/modes/chess/layers.h"
#include "src/modes/chess/bundle.h"
#include "src/modes/chess/match.h"
#include "src/modes/chess/tournament.h"
#include "src/play/budget.h"
#include "src/play/scheduler.h"
#include "src/play/tournament_runner.h"

#include <cstdint>
#include <functional>
#include <map>
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

using play::RunnerEvent;
using play::RunnerState;
using play::runnerStateName;
using play::StopMode;

struct RunnerOptions {
    int backoffMs = 2000; // first backoff after a rate limit or server error; doubles per failure
    // The time of day a game starts and ends (GameRecord::startedAt/finishedAt), seconds since
    // 1970 UTC; empty: the system clock.
    std::function<int64_t()> clock;
};

// One running chess game: its pairing, its players and its match; the play runner drives it.
class LiveGame final : public play::TournamentGame {
public:
    LiveGame() = default;
    ~LiveGame() override;

    Pairing pairing;
    std::unique_ptr<Player> white; // from the factory
    std::unique_ptr<Player> black;
    std::unique_ptr<Player> whiteSeat; // what the match drives: the player, observed by the game
    std::unique_ptr<Player> blackSeat;
    std::unique_ptr<MatchRunner> match;
    std::string whiteName; // participants' display names
    std::string blackName;
    std::string continued; // ", continued after N plies" for a resumed game
    int64_t startedAt = 0; // seconds since 1970 UTC (a resumed game's first start)
    // Answers of the current turn that were not moves (a forfeit, errors).
    double openCostUsd = 0;
    llm::Usage openUsage;
    int openAttempts = 0;
    std::string forfeitMessage;
    Termination forfeitAs = Termination::ForfeitOther;
    std::optional<GameResult> forced; // a forfeit decided by the failure rules
    // A resumed game's recorded turns, kept as they were (illegal attempts, costs): the record's
    // first restoredTurns.size() turns; the match replayed them and continues after them.
    std::vector<TurnRecord> restoredTurns;

    // The game's record so far (unfinished while it runs).
    GameRecord record() const;
    // Brings a record of this game made earlier (by record()) up to date: the moves played since
    // are appended, nothing else is touched (moves are only ever appended while a game runs).
    void appendNewTurns(GameRecord& r) const;
    // Called by the seats with every answer of a player.
    void onAnswer(chess::Color side, const PlayerMove& answer);

    void start() override { match->start(); }
    void poll(double nowMs) override;
    void setHold(bool hold) override { match->setHold(hold); }
    void step() override { match->requestMove(); }
    std::optional<play::TurnFailure> failure() const override;
    void retry(int maxRequests) override { match->retry(maxRequests); }
    void forfeit(const play::TurnFailure& failure, int tries) override;
    void abort(const std::string& why) override { match->abort(why); }
    bool finished() const override;
    play::GameOutcome outcome() const override;
    std::string seatName(int seat) const override;
    std::string startText() const override;
    std::string finishText() const override;
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

    void start(double nowMs) { core_->start(nowMs); }
    // Advances everything: starts games up to the concurrency (unless stopping, paused or over
    // budget), fires the ticker, polls the matches, records finished games. Never blocks.
    void poll(double nowMs) { core_->poll(nowMs); }
    void stop(StopMode mode) { core_->stop(mode); }
    // After a pause (401/402, fixed key or credits): asks the failed players again.
    void resume() { core_->resume(); }

    RunnerState state() const { return core_->state(); }
    bool done() const { return core_->done(); }
    const std::string& pauseMessage() const { return core_->pauseMessage(); }
    const std::optional<FailureKind>& pauseReason() const { return core_->pauseReason(); }
    bool budgetReached() const { return core_->budget().capReached(); }
    const BudgetTracker& budget() const { return core_->budget(); }
    const TournamentConfig& config() const { return config_; }
    const Scheduler& scheduler() const { return schedule_->scheduler(); }
    long long ticks() const { return core_->ticks(); }
    // Milliseconds until the runner has timed work to do (ticker, backoff); -1: none.
    double msUntilNextTimer(double nowMs) const { return core_->msUntilNextTimer(nowMs); }

    // Running games, in start order.
    std::vector<LiveGame*> liveGames() const;
    // Resumed unfinished games not started yet (they start at the next poll that may start games).
    int pendingResumes() const { return int(core_->pendingResumes().size()); }
    // Finished games in finish order.
    const std::vector<GameRecord>& games() const { return games_; }
    // Puts the caller's copy of finished game `index` in its place (the same game: the arena's
    // folded record, or one with its late analysis), so the runner holds no second whole copy.
    // False, and nothing changed, when it is not that game.
    bool replaceFinished(size_t index, const GameRecord& record);
    // The record of a running game so far (unfinished).
    GameRecord recordOf(const LiveGame& game) const { return game.record(); }
    // Finished games, then the running ones (and resumed ones not started yet) as unfinished
    // records (what a bundle stores).
    std::vector<GameRecord> snapshot() const;
    TournamentBundle bundle(const LeaderboardOptions& options = {}) const;
    // Events since the last call.
    std::vector<RunnerEvent> takeEvents() { return core_->takeEvents(); }

private:
    // An unfinished game of the resumed run, checked to replay, waiting to start.
    struct Resumed {
        GameRecord record;
        std::vector<MoveRecord> moves; // record.moves as MatchRunner::restore replays them
    };

    TournamentRunner(TournamentConfig config, PlayerFactory factory, RunnerOptions options);
    play::GameStart makeGame(const play::Table& table, bool resumed);
    MatchConfig matchConfig(const Pairing& pairing) const;

    TournamentConfig config_;
    PlayerFactory factory_;
    std::function<int64_t()> clock_; // RunnerOptions::clock, or the system clock
    play::PairSchedule* schedule_ = nullptr; // owned by core_
    std::unique_ptr<play::TournamentDriver> core_;
    std::map<int, Resumed> resuming_; // by game id; started first, in the core's order
    std::vector<GameRecord> games_;
};

} // namespace chaiba::chessmode
