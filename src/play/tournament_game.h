// The game interface of play: one game of a tournament as the runner drives it, with N seats and
// optional teams, and the schedule that deals tables. A mode implements TournamentGame (e.g.
// a match of two players; a team game: seats dealt roles by seed) and the runner does the rest
// (concurrency, tempo, budget, failure rules, pause, stop, resume).
#pragma once

#include "src/play/failure.h"
#include "src/play/rating.h"
#include "src/play/scheduler.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace chaiba::play {

// One table of a tournament: the participants in their seats and what the schedule dealt.
struct Table {
    int id = 0;             // unique per game of the tournament
    std::vector<int> seats; // participant index per seat (seat 0 first)
    std::vector<int> teams; // team per seat; empty: every seat plays for itself
    int round = 0;          // 1-based, as the schedule counts
    int seededStart = -1;   // a start (deal, position) drawn from the seed, or -1
    int opening = -1;       // index into the mode's opening suite, or -1
    bool operator==(const Table&) const = default;
};

// How a finished game went, as the ratings and the schedule see it. A two-seat game reports one
// encounter with seat 0 as `a`; a team game its team-vs-team pairs (encountersOfTeamGame).
struct GameOutcome {
    std::vector<Encounter> encounters;
};

// A seat's request failed and its turn waits for the runner's decision (the failure rules).
struct TurnFailure {
    int seat = 0; // who failed
    int turn = 0; // the game's turn counter: failures are counted per turn and kind
    SeatFailure failure;
};

// One game of a tournament. Non-blocking: the runner calls poll() from its own poll().
class TournamentGame {
public:
    virtual ~TournamentGame() = default;

    // Starts the game (a resumed one continues where its record stopped).
    virtual void start() = 0;
    // Advances without blocking: polls the seat(s) acting, applies answers, adjudicates.
    virtual void poll(double nowMs) = 0;
    // Held: a turn in progress finishes, but no next turn is asked (ticker tempo, pause).
    virtual void setHold(bool hold) = 0;
    // Asks the next turn now if nobody is acting (one ticker step, or after a resume).
    virtual void step() = 0;

    // The failure the game waits on, if a seat's request failed (the runner then calls retry()
    // or forfeit(), or pauses the tournament).
    virtual std::optional<TurnFailure> failure() const = 0;
    // Asks the failed seat again. maxRequests: the requests the failure rules have left for the
    // failure it retries (each request counts, a chat client's own retries included), so the
    // seat's model calls of the turn make at most that many; 0: no limit of the rules'.
    virtual void retry(int maxRequests) = 0;
    // The failure rules ran out for the failed seat: the mode decides what the forfeit means
    // (e.g. that side loses). `tries` counts the consecutive failures of the turn.
    virtual void forfeit(const TurnFailure& failure, int tries) = 0;
    // Stops an unfinished game (stop, abandon); it is not rated.
    virtual void abort(const std::string& why) = 0;

    // Over and rated (not while it waits on a failure).
    virtual bool finished() const = 0;
    virtual GameOutcome outcome() const = 0;

    // Texts for events and pause messages.
    virtual std::string seatName(int seat) const = 0;
    virtual std::string startText() const = 0;
    virtual std::string finishText() const = 0;

    Table table; // set by the runner before start()
    // Set by the runner before start(): every cost as it is incurred, for the budget.
    std::function<void(int seat, double usd)> onCost;
    // The runner's schedule for a failed turn, for screens: when the seat is asked again (ms on
    // the runner's clock; very large while paused), -1 when no retry is pending.
    double retryAtMs() const { return retryAtMs_; }

private:
    friend class TournamentDriver;
    double retryAtMs_ = -1;
};

// Where tables come from: a pull iterator with feedback, like Scheduler.
class Schedule {
public:
    virtual ~Schedule() = default;
    // The next table that may start now, or nothing (all started, or everyone due is busy).
    virtual std::optional<Table> next() = 0;
    virtual void onGameFinished(int id, const GameOutcome& outcome) = 0;
    // Stopped unfinished: its participants are free and it is dealt again later.
    virtual void onGameAbandoned(int id) = 0;
    virtual bool finished() const = 0;
};

// The pairing Scheduler as a Schedule of two-seat tables (seat 0 = Pairing::white, teams {0, 1}).
class PairSchedule final : public Schedule {
public:
    explicit PairSchedule(SchedulerConfig config) : scheduler_(std::move(config)) {}
    std::optional<Table> next() override;
    void onGameFinished(int id, const GameOutcome& outcome) override;
    void onGameAbandoned(int id) override { scheduler_.onGameAbandoned(id); }
    bool finished() const override { return scheduler_.finished(); }
    Scheduler& scheduler() { return scheduler_; }
    const Scheduler& scheduler() const { return scheduler_; }

    static Table tableOf(const Pairing& pairing);
    static Pairing pairingOf(const Table& table);

private:
    Scheduler scheduler_;
};

} // namespace chaiba::play
