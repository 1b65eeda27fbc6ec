// Tests of play's one tournament runner (TournamentDriver) over fake games, no rules of any real
// game: a two-seat game that lasts a few turns, a team game (4 seats, 2 teams) rated as
// team-vs-team encounters, failure rules (retry, backoff, forfeit, pause on 401/402), the budget
// cap, the ticker, stop modes and resume ordering.
#include "src/play/tournament_runner.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

using namespace chaiba;
using namespace chaiba::play;

namespace {

// A scripted seat behaviour: fail with this kind for the first `failures` requests of each turn.
struct FakeScript {
    int turns = 3;                   // turns until the game ends
    std::optional<FailureKind> fail; // seat 0's requests fail with this kind...
    int failures = 0;                // ...this many times in the game (large: always)
    double costPerTurnUsd = 0.01;    // charged to the acting seat per answer
    double seat0Score = 1.0;         // the first team's (or seat's) score at the end
    int retryAfterMs = 0;            // the failures' Retry-After hint (0: none)
    // The requests a failed call makes (a chat client's own retries), at most the retry's cap as a
    // client honouring ChatRequest::maxRequests makes them; each retry's cap is logged here.
    int requestsPerCall = 1;
    std::vector<int>* retryCaps = nullptr;
    int* requests = nullptr; // every request of seat 0's failed calls, counted here
};

// A game of N seats taking turns in order; each turn answers at the next poll.
class FakeGame final : public TournamentGame {
public:
    FakeGame(FakeScript script, int seatCount, bool teams) : script_(script), seats_(seatCount), teams_(teams) {}

    void start() override { asked_ = !hold_; }
    void poll(double) override {
        if (!asked_ || failure_ || forfeitBy_ || aborted_ || turn_ >= script_.turns) return;
        const int seat = turn_ % seats_;
        if (onCost) onCost(seat, script_.costPerTurnUsd);
        if (seat == 0 && script_.fail && failed_ < script_.failures) {
            ++failed_;
            const int made = cap_ > 0 ? std::min(script_.requestsPerCall, cap_) : script_.requestsPerCall;
            if (script_.requests) *script_.requests += made;
            failure_ = TurnFailure{
                seat, turn_, SeatFailure{*script_.fail, "scripted failure", 0, script_.retryAfterMs, made}};
            return;
        }
        ++turn_;
        cap_ = 0;
        asked_ = !hold_;
    }
    void setHold(bool hold) override { hold_ = hold; }
    void step() override {
        if (!failure_) asked_ = true;
    }
    std::optional<TurnFailure> failure() const override { return failure_; }
    void retry(int maxRequests) override {
        if (script_.retryCaps) script_.retryCaps->push_back(maxRequests);
        cap_ = maxRequests;
        failure_.reset();
        asked_ = true;
    }
    void forfeit(const TurnFailure& f, int tries) override {
        forfeitBy_ = f.seat;
        tries_ = tries;
        failure_.reset();
    }
    void abort(const std::string&) override { aborted_ = true; }
    bool finished() const override { return !aborted_ && !failure_ && (forfeitBy_ || turn_ >= script_.turns); }
    GameOutcome outcome() const override {
        const double score = forfeitBy_ ? 0.0 : script_.seat0Score; // seat 0 is on the first team
        if (!teams_) return {{Encounter{table.seats[0], table.seats[1], score, forfeitBy_.has_value()}}};
        std::vector<int> a, b;
        for (size_t i = 0; i < table.seats.size(); ++i) (table.teams[i] == 0 ? a : b).push_back(table.seats[i]);
        return {encountersOfTeamGame(a, b, score, forfeitBy_.has_value())};
    }
    std::string seatName(int seat) const override { return "seat" + std::to_string(seat); }
    std::string startText() const override { return "game " + std::to_string(table.id); }
    std::string finishText() const override { return "game " + std::to_string(table.id) + " over"; }

    int turn() const { return turn_; }
    int tries() const { return tries_; }
    std::optional<int> forfeitBy() const { return forfeitBy_; }

private:
    FakeScript script_;
    int seats_;
    bool teams_;
    bool hold_ = false;
    bool asked_ = false;
    bool aborted_ = false;
    int turn_ = 0;
    int failed_ = 0;
    int tries_ = 0;
    int cap_ = 0; // the retried turn's cap on requests (0: none)
    std::optional<TurnFailure> failure_;
    std::optional<int> forfeitBy_;
};

// Deals `games` tables of `seatsPerTable` seats from `players` participants in rotation, two
// teams (even seats / odd seats) when asked; a participant is never at two tables at once.
class RotatingSchedule final : public Schedule {
public:
    RotatingSchedule(int players, int seatsPerTable, int games, bool teams)
        : players_(players), seatsPerTable_(seatsPerTable), games_(games), teams_(teams), busy_(size_t(players)) {}
    std::optional<Table> next() override {
        if (dealt_ >= games_ && again_.empty()) return std::nullopt;
        Table t;
        t.id = again_.empty() ? dealt_ : again_.front();
        const int first = (t.id * seatsPerTable_) % players_;
        for (int s = 0; s < seatsPerTable_; ++s) {
            const int p = (first + s) % players_;
            if (busy_[size_t(p)]) return std::nullopt;
            t.seats.push_back(p);
            if (teams_) t.teams.push_back(s % 2);
        }
        if (again_.empty())
            ++dealt_;
        else
            again_.erase(again_.begin());
        for (int p : t.seats) busy_[size_t(p)] = true;
        running_[t.id] = t;
        return t;
    }
    void onGameFinished(int id, const GameOutcome& outcome) override {
        outcomes[id] = outcome;
        free(id);
        ++finished_;
    }
    void onGameAbandoned(int id) override {
        free(id);
        again_.push_back(id);
        ++abandoned;
    }
    bool finished() const override { return finished_ == games_; }
    void place(const Table& t) { // resume: a table already running
        for (int p : t.seats) busy_[size_t(p)] = true;
        running_[t.id] = t;
        dealt_ = std::max(dealt_, t.id + 1);
    }

    std::map<int, GameOutcome> outcomes;
    int abandoned = 0;

private:
    void free(int id) {
        for (int p : running_[id].seats) busy_[size_t(p)] = false;
        running_.erase(id);
    }
    int players_, seatsPerTable_, games_;
    bool teams_;
    std::vector<bool> busy_;
    std::map<int, Table> running_;
    std::vector<int> again_;
    int dealt_ = 0;
    int finished_ = 0;
};

struct Fixture {
    RotatingSchedule* schedule = nullptr;
    std::unique_ptr<TournamentDriver> driver;
    std::map<int, FakeScript> scripts; // per table id; default otherwise
    FakeScript script;
    std::vector<int> created; // table ids in creation order
    std::vector<int> finished;
    std::vector<GameOutcome> outcomes;
    int factoryFailuresLeft = 0;

    Fixture(RunnerConfig config, int seats, int games, bool teams) {
        auto s = std::make_unique<RotatingSchedule>(config.participants, seats, games, teams);
        schedule = s.get();
        driver = std::make_unique<TournamentDriver>(config, std::move(s), [this, seats, teams](const Table& t, bool) {
            if (factoryFailuresLeft > 0) {
                --factoryFailuresLeft;
                return GameStart{nullptr, "cannot seat table " + std::to_string(t.id), false};
            }
            created.push_back(t.id);
            const auto it = scripts.find(t.id);
            return GameStart{std::make_unique<FakeGame>(it != scripts.end() ? it->second : script, seats, teams), {}, false};
        });
        driver->onGameFinished = [this](TournamentGame& g) {
            finished.push_back(g.table.id);
            outcomes.push_back(g.outcome());
        };
    }
    void runToEnd(double& now, double stepMs = 100) {
        for (int i = 0; i < 100000 && !driver->done(); ++i) {
            driver->poll(now);
            now += stepMs;
        }
    }
};

RunnerConfig config(int participants, int concurrency) {
    RunnerConfig c;
    c.participants = participants;
    c.concurrency = concurrency;
    c.backoffMs = 1000;
    return c;
}

int countEvents(const std::vector<RunnerEvent>& events, RunnerEvent::Kind kind) {
    int n = 0;
    for (const RunnerEvent& e : events) n += e.kind == kind;
    return n;
}

} // namespace

TEST_CASE("play runner: a two-seat tournament plays every table, one encounter per game, costs in the budget") {
    Fixture f(config(4, 2), 2, 6, false);
    double now = 0;
    f.driver->start(now);
    int maxLive = 0;
    for (int i = 0; i < 1000 && !f.driver->done(); ++i) {
        f.driver->poll(now += 100);
        maxLive = std::max(maxLive, int(f.driver->liveGames().size()));
    }
    REQUIRE(f.driver->done());
    CHECK(maxLive == 2);
    CHECK(f.finished.size() == 6);
    for (const GameOutcome& o : f.outcomes) {
        REQUIRE(o.encounters.size() == 1);
        CHECK(o.encounters[0].scoreA == 1.0);
        CHECK(!o.encounters[0].forfeit);
    }
    CHECK(f.driver->budget().spentUsd() == doctest::Approx(6 * 3 * 0.01));
    const std::vector<RunnerEvent> events = f.driver->takeEvents();
    CHECK(countEvents(events, RunnerEvent::Kind::GameStarted) == 6);
    CHECK(countEvents(events, RunnerEvent::Kind::GameFinished) == 6);
}

TEST_CASE("play runner: a team game (4 seats, 2 teams) is rated as team-vs-team encounters") {
    Fixture f(config(6, 1), 4, 3, true);
    f.script.seat0Score = 0.0; // the odd seats' team wins
    double now = 0;
    f.driver->start(now);
    f.runToEnd(now);
    REQUIRE(f.driver->done());
    REQUIRE(f.outcomes.size() == 3);
    std::vector<Encounter> all;
    for (const GameOutcome& o : f.outcomes) {
        CHECK(o.encounters.size() == 4); // 2 x 2 cross-team pairs, teammates never meet
        all.insert(all.end(), o.encounters.begin(), o.encounters.end());
    }
    // Table 0 seats participants 0..3: team {0, 2} against team {1, 3}.
    CHECK(f.schedule->outcomes[0].encounters[0] == Encounter{0, 1, 0.0, false});
    CHECK(f.schedule->outcomes[0].encounters[3] == Encounter{2, 3, 0.0, false});
    const BradleyTerryFit fit = fitBradleyTerry(6, all, BradleyTerryOptions{{}, 1.0, false, 0, 1, 0.95});
    // Participant 0 sat at tables 0 ({0, 1, 2, 3}) and 1 ({4, 5, 0, 1}): two opponents each time.
    CHECK(fit.games[0] == 4);
    CHECK(fit.ratings[1] > fit.ratings[0]); // 1 was on the winning team both times, 0 never
    // Every seat acts in turn; costs go to the participant in the seat.
    CHECK(f.driver->budget().spentUsd() == doctest::Approx(3 * 3 * 0.01));
    CHECK(f.driver->budget().spentUsd(0) == doctest::Approx(0.02)); // turn 0 at table 0, turn 2 at table 1
}

TEST_CASE("play runner: failure rules retry, back off, then forfeit, counted per turn and kind") {
    SUBCASE("a refused action is retried at once, then forfeits") {
        Fixture f(config(2, 1), 2, 1, false);
        f.script.fail = FailureKind::IllegalMove;
        f.script.failures = 100;
        double now = 0;
        f.driver->start(now);
        f.runToEnd(now);
        REQUIRE(f.driver->done());
        REQUIRE(f.outcomes.size() == 1);
        CHECK(f.outcomes[0].encounters[0].forfeit);
        CHECK(f.outcomes[0].encounters[0].scoreA == 0.0);
        CHECK(countEvents(f.driver->takeEvents(), RunnerEvent::Kind::Retrying) ==
              failureRule(FailureKind::IllegalMove).maxRetries);
    }
    SUBCASE("a server error backs off with doubling delays, then the game goes on") {
        Fixture f(config(2, 1), 2, 1, false);
        f.script.fail = FailureKind::ServerError;
        f.script.failures = 2; // fewer than the rule's 3 backoffs
        double now = 0;
        f.driver->start(now);
        f.driver->poll(now); // first failure: backoff of 1000 ms
        CHECK(f.driver->msUntilNextTimer(now) == doctest::Approx(1000));
        f.runToEnd(now);
        REQUIRE(f.outcomes.size() == 1);
        CHECK(!f.outcomes[0].encounters[0].forfeit);
        CHECK(f.outcomes[0].encounters[0].scoreA == 1.0);
    }
}

TEST_CASE("play runner: a retried turn may make only the requests the rule has left for its failure") {
    // Seat 0's calls always fail, each after `requestsPerCall` requests of its chat client's own
    // retries: the retry is told the tries left, so the seat forfeits after exactly the rule's
    // maxRetries + 1 requests (429 with the client's 5 tries: 5, then 1, not 5 more).
    struct Row {
        FailureKind kind;
        int requestsPerCall;
        std::vector<int> caps; // the cap of each retry
    };
    for (const Row& row : {Row{FailureKind::RateLimited, 5, {1}}, Row{FailureKind::Timeout, 2, {2}},
                           Row{FailureKind::ServerError, 1, {3, 2, 1}}, Row{FailureKind::Timeout, 4, {}}}) {
        CAPTURE(failureKindName(row.kind));
        CAPTURE(row.requestsPerCall);
        Fixture f(config(2, 1), 2, 1, false);
        std::vector<int> caps;
        int requests = 0;
        f.script.fail = row.kind;
        f.script.failures = 100;
        f.script.requestsPerCall = row.requestsPerCall;
        f.script.retryCaps = &caps;
        f.script.requests = &requests;
        double now = 0;
        f.driver->start(now);
        f.runToEnd(now);
        REQUIRE(f.outcomes.size() == 1);
        CHECK(f.outcomes[0].encounters[0].forfeit);
        CHECK(caps == row.caps);
        CHECK(requests == failureRule(row.kind).maxRetries + 1);
    }
}

TEST_CASE("play runner: 401 and 402 pause everything until resume, nothing forfeits") {
    for (FailureKind kind : {FailureKind::Unauthorized, FailureKind::PaymentRequired}) {
        Fixture f(config(4, 2), 2, 2, false);
        f.script.fail = kind;
        f.script.failures = 1;
        double now = 0;
        f.driver->start(now);
        f.driver->poll(now += 100);
        REQUIRE(f.driver->state() == RunnerState::Paused);
        CHECK(f.driver->pauseReason() == kind);
        CHECK(f.driver->pauseMessage().find("seat0") != std::string::npos);
        CHECK(f.driver->pauseMessage().find(kind == FailureKind::Unauthorized ? "API key" : "credits") !=
              std::string::npos);
        for (int i = 0; i < 20; ++i) f.driver->poll(now += 1000);
        CHECK(f.finished.empty());
        CHECK(f.driver->msUntilNextTimer(now) == -1);
        f.driver->resume();
        CHECK(!f.driver->pauseReason());
        f.runToEnd(now);
        REQUIRE(f.driver->done());
        CHECK(f.finished.size() == 2);
        for (const GameOutcome& o : f.outcomes) CHECK(!o.encounters[0].forfeit);
    }
}

TEST_CASE("play runner: a Retry-After hint is waited out up to the cap, a longer one pauses with the reason") {
    SUBCASE("a 5-minute hint: the retry waits 5 minutes, not the 1 s backoff, and the game goes on") {
        Fixture f(config(2, 1), 2, 1, false);
        f.script.fail = FailureKind::RateLimited;
        f.script.failures = 1;
        f.script.retryAfterMs = 5 * 60 * 1000;
        double now = 0;
        f.driver->start(now);
        f.driver->poll(now);
        CHECK(f.driver->msUntilNextTimer(now) == doctest::Approx(5 * 60 * 1000));
        CHECK(f.driver->state() == RunnerState::Running);
        f.runToEnd(now);
        REQUIRE(f.outcomes.size() == 1);
        CHECK(!f.outcomes[0].encounters[0].forfeit);
    }
    SUBCASE("an hour's hint: paused with the wait in the message (never 5 short backoffs and a forfeit)") {
        Fixture f(config(2, 1), 2, 1, false);
        f.script.fail = FailureKind::RateLimited;
        f.script.failures = 1;
        f.script.retryAfterMs = 3600 * 1000;
        double now = 0;
        f.driver->start(now);
        f.driver->poll(now += 100);
        REQUIRE(f.driver->state() == RunnerState::Paused);
        CHECK(f.driver->pauseReason() == FailureKind::RateLimited);
        CHECK(f.driver->pauseMessage().find("asks to wait 60 min") != std::string::npos);
        for (int i = 0; i < 20; ++i) f.driver->poll(now += 60000);
        CHECK(f.finished.empty());
        f.driver->resume();
        f.runToEnd(now);
        REQUIRE(f.outcomes.size() == 1);
        CHECK(!f.outcomes[0].encounters[0].forfeit);
    }
}

TEST_CASE("play runner: the budget cap stops new games, running ones finish") {
    RunnerConfig c = config(4, 2);
    c.budgetUsd = 0.05;
    Fixture f(c, 2, 10, false);
    double now = 0;
    f.driver->start(now);
    f.runToEnd(now);
    REQUIRE(f.driver->done());
    CHECK(f.finished.size() == 2); // the first two ran to the end; none started past the cap
    CHECK(f.driver->budget().capReached());
    CHECK(countEvents(f.driver->takeEvents(), RunnerEvent::Kind::BudgetReached) == 1);
}

TEST_CASE("play runner: the ticker advances every game one turn per tick") {
    RunnerConfig c = config(4, 2);
    c.tempo = Tempo::Ticker;
    c.tickerSeconds = 10;
    Fixture f(c, 2, 2, false);
    double now = 0;
    f.driver->start(now); // first tick at start
    auto turns = [&] {
        std::vector<int> out;
        for (TournamentGame* g : f.driver->liveGames()) out.push_back(static_cast<FakeGame*>(g)->turn());
        return out;
    };
    CHECK(turns() == std::vector<int>{1, 1});
    for (int i = 0; i < 5; ++i) f.driver->poll(now += 1000);
    CHECK(turns() == std::vector<int>{1, 1});
    f.driver->poll(now = 10000);
    CHECK(turns() == std::vector<int>{2, 2});
    CHECK(f.driver->ticks() == 2);
}

TEST_CASE("play runner: stop modes and a factory failure") {
    SUBCASE("finish running: no new tables, running ones end") {
        Fixture f(config(4, 2), 2, 10, false);
        double now = 0;
        f.driver->start(now);
        f.driver->stop(StopMode::FinishRunning);
        CHECK(f.driver->state() == RunnerState::Stopping);
        f.runToEnd(now);
        CHECK(f.finished.size() == 2);
    }
    SUBCASE("abandon running: tables go back to the schedule") {
        Fixture f(config(4, 2), 2, 10, false);
        double now = 0;
        f.driver->start(now);
        f.driver->stop(StopMode::AbandonRunning);
        CHECK(f.driver->done());
        CHECK(f.schedule->abandoned == 2);
        CHECK(f.driver->liveGames().empty());
    }
    SUBCASE("a seat that cannot be made pauses the tournament") {
        Fixture f(config(4, 1), 2, 2, false);
        f.factoryFailuresLeft = 1;
        double now = 0;
        f.driver->start(now);
        CHECK(f.driver->state() == RunnerState::Paused);
        CHECK(f.driver->pauseMessage() == "cannot seat table 0");
        CHECK(!f.driver->pauseReason()); // not a failure rule's pause
        f.driver->resume();
        f.runToEnd(now);
        CHECK(f.finished.size() == 2);
    }
}

TEST_CASE("play runner: resumed tables start first, in order, and their costs count") {
    Fixture f(config(6, 2), 2, 5, false);
    f.schedule->place(Table{3, {3, 4}, {}, 0, -1, -1});
    f.schedule->place(Table{1, {1, 2}, {}, 0, -1, -1});
    f.driver->resumeFirst(Table{3, {3, 4}, {}, 0, -1, -1});
    f.driver->resumeFirst(Table{1, {1, 2}, {}, 0, -1, -1});
    f.driver->addCost(3, 0.5);
    CHECK(f.driver->budget().spentUsd(3) == doctest::Approx(0.5));
    CHECK(f.driver->pendingResumes().size() == 2);
    double now = 0;
    f.driver->start(now);
    REQUIRE(f.created.size() >= 2);
    CHECK(f.created[0] == 3);
    CHECK(f.created[1] == 1);
    CHECK(f.driver->pendingResumes().empty());
}
