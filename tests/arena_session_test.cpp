// ArenaSession (the arena screen's model): default drafts, an engine-only tournament played to the
// end, persistence through the store (a reload mid-tournament continues every game where it
// stood), stop/resume, a 401 pause, corrupt stored data, export/import reproducing the leaderboard
// and the API key never reaching the store; the session's spend (only what it paid), the costs
// measured in earlier tournaments and the per-game token budget.
#include "src/modes/chess/arena_analysis.h"
#include "src/modes/chess/arena_session.h"

#include "engine/chess/movegen.h"
#include "engine/chess/notation.h"
#include "engine/search/levels.h"
#include "src/modes/chess/engine_player.h"
#include "tests/fakes/chess_model_helpers.h"
#include "tests/fakes/fake_chat.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

using namespace chaiba;

namespace {

const std::string kKey = std::string("sk-or-v1-") + "0123456789abcdef0123456789abcdef";

// Models of the fake chat: "t/legal" plays the legal move the FEN's length picks (varied, always
// legal) and mentions the key in its reasoning (which must never be stored); "t/401" is refused.
struct Fixture {
    chessmode::AgentPrompts prompts = fakes::loadTestPrompts();
    fakes::FakeChat chat;
    MemoryStore store;
    chessmode::ChessPlaySettings settings;
    bool refuse = true;

    Fixture() {
        settings.engineMoveDelayMs = 0;
        chat.setResponder([this](const llm::ChatRequest& r) {
            llm::ChatOutcome o;
            if (r.model == "t/401" && refuse) {
                o.error = llm::ChatError{llm::ChatErrorKind::Unauthorized, 401, "HTTP 401: bad key", std::nullopt};
                return o;
            }
            const auto pos = chess::Position::fromFen(fakes::latestFen(r));
            REQUIRE_MESSAGE(pos.ok(), pos.error);
            chess::MoveList moves;
            chess::generateLegal(*pos.position, moves);
            REQUIRE(!moves.empty());
            const chess::Move m = moves[fakes::latestFen(r).size() % moves.size()];
            llm::ChatReply reply;
            reply.toolCalls.push_back({"c", "make_move",
                                       "{\"move\":\"" + chess::toSan(*pos.position, m) + "\",\"reasoning\":\"my key is " +
                                           kKey + "\"}"});
            reply.usage.promptTokens = 50;
            reply.usage.completionTokens = 10;
            reply.usage.costUsd = 0.002;
            o.reply = reply;
            return o;
        });
    }

    ArenaEnvironment env(bool withChat = true) {
        ArenaEnvironment e;
        e.store = &store;
        e.makeScorer = chessmode::inThreadScorer();
        e.chat = withChat ? &chat : nullptr;
        e.prompts = &prompts;
        e.maxEngineLevel = search::maxLevel();
        e.makeEngine = [](const std::string& id, int level, uint64_t seed, int) -> std::unique_ptr<chessmode::Player> {
            return std::make_unique<chessmode::EnginePlayer>(id, *search::levelSpec(level), seed);
        };
        e.engineName = [](int level) { return search::levelLabel(*search::levelSpec(level)); };
        e.engineRating = [](int level) -> std::optional<double> {
            const auto spec = level < 0 ? search::levelSpec(search::maxLevel()) : search::levelSpec(level);
            if (!spec || spec->ratingElo <= 0) return std::nullopt;
            return double(spec->ratingElo);
        };
        e.apiKey = [] { return kKey; };
        return e;
    }
    // One loop iteration as the page runs it: the chat service is pumped (players never pump
    // it), then the session.
    void tick(ArenaSession& s, double nowMs) {
        chat.poll();
        s.poll(nowMs);
    }
};

// Participants named P1, P2, ... (the same spec may take part twice).
chessmode::TournamentConfig config(const std::vector<std::string>& specs, play::Format format, int games,
                               int concurrency) {
    chessmode::TournamentConfig c;
    for (const auto& s : specs) {
        std::string name = std::to_string(c.participants.size() + 1); // "P" + ... trips g++ 12's -Wrestrict
        name.insert(name.begin(), 'P');
        c.participants.push_back({s, name, -1});
    }
    c.format = format;
    c.games = games;
    c.concurrency = concurrency;
    c.maxPlies = 40;
    c.seed = 3;
    return c;
}

// Polls until the phase leaves Running/Stopping (or a bound), advancing a fake clock.
void runOut(Fixture& f, ArenaSession& s, double& now, int maxPolls = 20000) {
    for (int i = 0; i < maxPolls && (s.phase() == ArenaPhase::Running || s.phase() == ArenaPhase::Stopping); ++i) {
        f.tick(s, now);
        now += 50;
    }
}

size_t movesOf(const chessmode::GameRecord& g) { return g.moves.size(); }

// Starts `c` as a tournament and plays until its latest game has `plies` moves (or a bound).
void playUntil(Fixture& f, ArenaSession& s, const chessmode::TournamentConfig& c, double& now, size_t plies) {
    s.draft() = c;
    REQUIRE_FALSE(s.start(f.settings, now));
    for (int i = 0; i < 400 && (s.games().empty() || s.games().back().moves.size() < plies); ++i) f.tick(s, now += 10);
    REQUIRE(!s.games().empty());
}

// Starts `c` as a tournament and plays it to the end.
void playOut(Fixture& f, ArenaSession& s, const chessmode::TournamentConfig& c, double& now) {
    s.draft() = c;
    REQUIRE_FALSE(s.start(f.settings, now));
    runOut(f, s, now);
    REQUIRE(s.phase() == ArenaPhase::Finished);
}

} // namespace

TEST_CASE("arena session: default drafts are valid, with anchors and the random mover") {
    const auto withKey = ArenaSession::defaultDraft({"a/one", "b/two", "c/three", "d/four", "e/five", "f/six", "g/seven"},
                                                    true, search::maxLevel());
    CHECK_FALSE(chessmode::validateConfig(withKey));
    int llms = 0, engines = 0, randoms = 0;
    for (const auto& p : withKey.participants) {
        llms += p.spec.rfind("llm:", 0) == 0;
        engines += p.spec.rfind("engine:", 0) == 0;
        randoms += p.spec == "random";
    }
    CHECK(llms == 6); // at most six flagships
    CHECK(engines >= 2);
    CHECK(randoms == 1);
    const auto noKey = ArenaSession::defaultDraft({"a/one"}, false, search::maxLevel());
    CHECK_FALSE(chessmode::validateConfig(noKey));
    for (const auto& p : noKey.participants) CHECK(p.spec.rfind("llm:", 0) != 0);
    // Models cost money: their field starts with a spending cap and a per-game token budget.
    CHECK(withKey.budgetUsd == chessmode::kDefaultBudgetUsd);
    CHECK(withKey.gameTokenBudget == chessmode::kDefaultGameTokenBudget);
    CHECK_FALSE(noKey.budgetUsd.has_value());
    CHECK_FALSE(noKey.gameTokenBudget.has_value());
}

TEST_CASE("arena session: LLM participants need a key, an engine-only round robin plays to the end") {
    Fixture f;
    ArenaSession s(f.env(false));
    s.draft() = config({"llm:t/legal", "random"}, play::Format::RoundRobin, 1, 1);
    REQUIRE(s.checkDraft());
    CHECK(s.checkDraft()->find("API key") != std::string::npos);
    CHECK(s.start(f.settings, 0));
    CHECK(s.phase() == ArenaPhase::Setup);

    s.draft() = config({"random", "engine:1", "engine:2"}, play::Format::RoundRobin, 1, 2);
    REQUIRE_FALSE(s.checkDraft());
    REQUIRE_FALSE(s.start(f.settings, 0));
    CHECK(s.phase() == ArenaPhase::Running);
    // Engines are anchored at their calibrated ratings.
    CHECK(s.config().participants[2].anchorElo == doctest::Approx(search::levelSpec(2)->ratingElo));
    double now = 0;
    runOut(f, s, now);
    CHECK(s.phase() == ArenaPhase::Finished);
    CHECK(s.gamesFinished() == 3);
    CHECK(s.totalGames() == 3);
    CHECK(s.leaderboard().rows.size() == 3);
    CHECK(s.leaderboard().gamesRated == 3);
    // The plot starts before the first game (anchors at their ratings, the others at the mean
    // anchor) and ends at the leaderboard's ratings.
    REQUIRE(s.ratingHistory().size() == 4);
    double sum = 0;
    int anchors = 0;
    for (const auto& p : s.config().participants) {
        if (p.anchorElo < 0) continue;
        sum += p.anchorElo;
        ++anchors;
    }
    REQUIRE(anchors > 0);
    CHECK(s.ratingHistory().front()[2] == doctest::Approx(search::levelSpec(2)->ratingElo));
    CHECK(s.ratingHistory().front()[0] == doctest::Approx(sum / anchors)); // the random mover: the centre
    for (const auto& row : s.leaderboard().rows)
        CHECK(s.ratingHistory().back()[size_t(row.participant)] == doctest::Approx(row.rating));
    CHECK(s.slots().size() == 1); // three players: one game at a time
    for (const auto& slot : s.slots()) CHECK_FALSE(slot.live);
    // Stored as finished; a new session shows the same tournament, finished.
    ArenaSession again(f.env(false));
    again.load(f.settings, now);
    CHECK(again.phase() == ArenaPhase::Finished);
    CHECK(again.gamesFinished() == 3);
    CHECK(chessmode::sameLeaderboard(again.leaderboard(), s.leaderboard()));
}

TEST_CASE("arena session: a reload mid-tournament continues every game where it stood") {
    Fixture f;
    double now = 0;
    std::vector<chessmode::GameRecord> before;
    {
        ArenaSession s(f.env());
        s.draft() = config({"llm:t/legal", "llm:t/legal", "random", "random"}, play::Format::RoundRobin, 1, 2);
        REQUIRE_FALSE(s.start(f.settings, now));
        // Play until a game has finished and the running ones have moves, then "close the tab".
        for (int i = 0; i < 5000; ++i) {
            f.tick(s, now);
            now += 50;
            bool moving = false;
            for (const auto& g : s.games()) moving = moving || (!g.finished() && g.moves.size() >= 6);
            if (s.gamesFinished() >= 1 && moving) break;
        }
        REQUIRE(s.gamesFinished() >= 1);
        before = s.games();
        // The running games' moves sit under their own keys, each finished game in its record;
        // no whole bundle is written.
        bool perGame = false;
        for (const auto& [k, v] : f.store.values()) perGame = perGame || k.rfind(chessmode::kArenaRunningPrefix, 0) == 0;
        CHECK(perGame);
        CHECK_FALSE(f.store.get(chessmode::kArenaBundleKey));
    }
    REQUIRE(f.store.get(chessmode::kArenaHeadKey));
    ArenaSession s(f.env());
    s.load(f.settings, now);
    REQUIRE(s.error().empty());
    CHECK(s.phase() == ArenaPhase::Running);
    // Nothing lost: every finished game is there, every running game has at least its moves.
    for (const auto& old : before) {
        const chessmode::GameRecord* now_ = s.game(old.pairing.id);
        REQUIRE(now_);
        if (old.finished()) {
            CHECK(now_->result == old.result);
            CHECK(now_->termination == old.termination);
            REQUIRE(now_->moves.size() == old.moves.size());
            for (size_t i = 0; i < old.moves.size(); ++i) {
                CHECK(now_->moves[i].uci == old.moves[i].uci);
                CHECK(now_->moves[i].costUsd == doctest::Approx(old.moves[i].costUsd));
            }
            continue;
        }
        // Every move is saved as it is played (under the game's own key between full saves).
        REQUIRE(movesOf(*now_) >= movesOf(old));
        for (size_t i = 0; i < movesOf(old); ++i) CHECK(now_->moves[i].uci == old.moves[i].uci);
    }
    runOut(f, s, now);
    CHECK(s.phase() == ArenaPhase::Finished);
    CHECK(s.gamesFinished() == 6);
    // The key never reached the store, though the model put it in its reasoning.
    for (const auto& [k, v] : f.store.values()) CHECK_MESSAGE(v.find(kKey) == std::string::npos, k);
}

TEST_CASE("arena session: stop keeps the games, resume continues them, reset clears everything") {
    Fixture f;
    ArenaSession s(f.env());
    double now = 0;
    playUntil(f, s, config({"llm:t/legal", "random", "random"}, play::Format::RoundRobin, 1, 1), now, 4);
    const chessmode::GameRecord running = s.games().back();
    REQUIRE_FALSE(running.finished());
    s.stop(false);
    CHECK(s.phase() == ArenaPhase::Stopped);
    CHECK(s.runner() == nullptr);
    CHECK(s.game(running.pairing.id)->moves.size() == running.moves.size());
    const size_t requests = f.chat.requests().size();
    f.tick(s, now += 1000);
    CHECK(f.chat.requests().size() == requests); // nothing moves while stopped
    REQUIRE_FALSE(s.resume(f.settings, now));
    CHECK(s.phase() == ArenaPhase::Running);
    runOut(f, s, now);
    CHECK(s.phase() == ArenaPhase::Finished);
    const chessmode::GameRecord* done = s.game(running.pairing.id);
    REQUIRE(done);
    for (size_t i = 0; i < running.moves.size(); ++i) CHECK(done->moves[i].uci == running.moves[i].uci);

    s.reset();
    CHECK(s.phase() == ArenaPhase::Setup);
    CHECK(s.games().empty());
    CHECK_FALSE(f.store.get(chessmode::kArenaHeadKey));
    for (const auto& [k, v] : f.store.values()) CHECK_MESSAGE(k.rfind(chessmode::kArenaGamePrefix, 0) != 0, k);
    CHECK(s.draft().participants.size() == 3); // the same setup, ready to start again
}

TEST_CASE("arena session: a 401 pauses the tournament with a message, Resume continues") {
    Fixture f;
    ArenaSession s(f.env());
    s.draft() = config({"llm:t/401", "random"}, play::Format::RoundRobin, 1, 1);
    REQUIRE_FALSE(s.start(f.settings, 0));
    double now = 0;
    for (int i = 0; i < 100 && s.phase() == ArenaPhase::Running; ++i) f.tick(s, now += 10);
    CHECK(s.phase() == ArenaPhase::Paused);
    CHECK_MESSAGE(s.error().find("401") != std::string::npos, s.error());
    f.refuse = false; // the person fixed the key
    REQUIRE_FALSE(s.resume(f.settings, now));
    CHECK(s.error().empty());
    runOut(f, s, now);
    CHECK(s.phase() == ArenaPhase::Finished);
    CHECK(s.gamesFinished() == 1);
    CHECK(s.games().front().moves.size() > 0);
}

TEST_CASE("arena session: corrupt stored data is kept aside with a clear message") {
    Fixture f;
    f.store.set(chessmode::kArenaBundleKey, "{\"format\": \"chaiba-tournament\", \"version\": 1, \"config\": 7}");
    f.store.set(chessmode::kArenaStateKey, "{\"phase\": \"running\"}");
    ArenaSession s(f.env());
    s.load(f.settings, 0);
    CHECK(s.phase() == ArenaPhase::Setup);
    CHECK(s.error().find("could not be loaded") != std::string::npos);
    CHECK(f.store.get(std::string(chessmode::kArenaBundleKey) + ".corrupt"));
    CHECK_FALSE(f.store.get(chessmode::kArenaBundleKey));
}

TEST_CASE("arena session: an exported bundle imported elsewhere reproduces the leaderboard") {
    Fixture f;
    ArenaSession s(f.env());
    s.draft() = config({"llm:t/legal", "random", "engine:1"}, play::Format::DoubleRoundRobin, 1, 2);
    REQUIRE_FALSE(s.start(f.settings, 0));
    double now = 0;
    runOut(f, s, now);
    REQUIRE(s.phase() == ArenaPhase::Finished);
    const auto json = s.exportJson();
    REQUIRE(json.ok());
    CHECK(json.value->find(kKey) == std::string::npos);
    const auto pgn = s.exportPgn();
    REQUIRE(pgn.ok());
    CHECK(pgn.value->find("[Event ") != std::string::npos);

    Fixture other;
    ArenaSession t(other.env(false));
    CHECK(t.importJson("{not json"));
    CHECK(t.phase() == ArenaPhase::Setup);
    REQUIRE_FALSE(t.importJson(*json.value));
    CHECK(t.phase() == ArenaPhase::Finished);
    REQUIRE(t.importedMatches());
    CHECK(*t.importedMatches());
    CHECK(chessmode::sameLeaderboard(t.leaderboard(), s.leaderboard()));
    CHECK(t.gamesFinished() == 6);
}

TEST_CASE("arena session: while games run the intervals are refined a slice per poll, at rest they are the whole fit") {
    Fixture f;
    ArenaEnvironment env = f.env(false);
    env.refineBudgetMs = 0; // one resample per poll, whatever this machine's speed
    ArenaSession s(env);
    s.draft() = config({"random", "engine:0", "engine:1", "random"}, play::Format::RoundRobin, 2, 2);
    REQUIRE_FALSE(s.checkDraft());
    REQUIRE_FALSE(s.start(f.settings, 0));
    double now = 0;
    int refiningPolls = 0, gameEndsSeen = 0;
    int seen = 0;
    for (int i = 0; i < 20000 && s.phase() == ArenaPhase::Running; ++i) {
        f.tick(s, now);
        now += 50;
        if (s.ratingsRefining()) {
            ++refiningPolls;
            const auto [drawn, wanted] = s.refineProgress();
            CHECK(drawn < wanted);
            CHECK(wanted == 1000);
            // The point estimates are already those of the whole fit of the games shown.
            const chessmode::Leaderboard whole = chessmode::computeLeaderboard(s.config(), s.games(), chessmode::LeaderboardOptions{});
            for (const auto& row : s.leaderboard().rows)
                for (const auto& w : whole.rows)
                    if (w.participant == row.participant) CHECK(row.rating == w.rating);
        }
        if (s.gamesFinished() != seen) {
            seen = s.gamesFinished();
            ++gameEndsSeen;
        }
    }
    runOut(f, s, now);
    REQUIRE(s.phase() == ArenaPhase::Finished);
    CHECK(gameEndsSeen >= 2);
    CHECK(refiningPolls > 0); // at least one game end was refined over several polls
    CHECK_FALSE(s.ratingsRefining());
    const chessmode::Leaderboard whole = chessmode::computeLeaderboard(s.config(), s.games(), chessmode::LeaderboardOptions{});
    CHECK(chessmode::sameLeaderboard(s.leaderboard(), whole));
    for (size_t i = 0; i < whole.rows.size(); ++i) {
        CHECK(s.leaderboard().rows[i].ratingLow == whole.rows[i].ratingLow);
        CHECK(s.leaderboard().rows[i].ratingHigh == whole.rows[i].ratingHigh);
    }
}

TEST_CASE("arena session: a running game's shown record, kept move by move, equals a fresh one after every poll") {
    // The screen and the store take a running game's new turns only (ArenaSession keeps the
    // records); whatever happens (games ending, new ones starting, a stop and a resume), what is
    // shown is what a record made from scratch holds.
    Fixture f;
    double now = 0;
    ArenaSession s(f.env());
    s.draft() = config({"llm:t/legal", "random", "llm:t/legal", "random", "random"}, play::Format::RoundRobin, 1, 2);
    REQUIRE_FALSE(s.start(f.settings, now));
    int compared = 0;
    auto compareAll = [&] {
        for (const chessmode::GameRecord& g : s.games()) {
            chessmode::LiveGame* live = s.liveGame(g.pairing.id);
            if (!live) continue;
            chessmode::GameRecord fresh = live->record();
            fresh.result = chessmode::GameResult::Unfinished;
            fresh.termination = chessmode::Termination::Unfinished;
            fresh.openTurn.reset();
            REQUIRE(g == fresh);
            ++compared;
        }
    };
    for (int i = 0; i < 20000 && s.phase() == ArenaPhase::Running; ++i) {
        f.tick(s, now);
        now += 50;
        compareAll();
        if (i == 300) {
            s.stop(false); // the running games are abandoned, Resume plays them again
            REQUIRE_FALSE(s.resume(f.settings, now));
        }
    }
    CHECK(s.phase() == ArenaPhase::Finished);
    CHECK(compared > 100);
}

namespace {

// A bootstrap runner for the tests: jobs wait in a queue until the test delivers them (as a
// worker's reply comes back a few frames later), through the real runBootstrapJob.
struct QueuedBootstrap {
    struct Pending {
        std::string job;
        play::BootstrapRunner::Callback callback;
    };
    std::vector<Pending> pending;
    std::string failWith; // non-empty: every job fails with this error
    int runs = 0;
    const double* clock = nullptr; // set: the fake clock at each job is noted in sentAt
    std::vector<double> sentAt;
    // Delivers the oldest job's reply (or the failure); false when none waits.
    bool deliverOne() {
        if (pending.empty()) return false;
        Pending p = std::move(pending.front());
        pending.erase(pending.begin());
        if (!failWith.empty()) {
            p.callback("", failWith);
        } else {
            const play::BootstrapJobResult r = play::runBootstrapJob(p.job);
            p.callback(r.reply, r.error);
        }
        return true;
    }
};

class QueuedRunner final : public play::BootstrapRunner {
public:
    explicit QueuedRunner(QueuedBootstrap& q) : q_(q) {}
    void run(const std::string& job, Callback callback) override {
        ++q_.runs;
        if (q_.clock) q_.sentAt.push_back(*q_.clock);
        q_.pending.push_back({job, std::move(callback)});
    }
    bool busy() const override { return !q_.pending.empty(); }

private:
    QueuedBootstrap& q_;
};

} // namespace

TEST_CASE("arena session: intervals drawn elsewhere while games run equal the whole fit, and a failing runner falls back to slices") {
    for (const bool failing : {false, true}) {
        CAPTURE(failing);
        Fixture f;
        QueuedBootstrap queue;
        if (failing) queue.failWith = "the worker could not start";
        ArenaEnvironment env = f.env(false);
        env.refineBudgetMs = 0;
        env.makeBootstrapRunner = [&queue]() { return std::make_unique<QueuedRunner>(queue); };
        ArenaSession s(env);
        s.draft() = config({"random", "engine:0", "engine:1", "random"}, play::Format::RoundRobin, 2, 2);
        REQUIRE_FALSE(s.checkDraft());
        REQUIRE_FALSE(s.start(f.settings, 0));
        double now = 0;
        int settledWhileRunning = 0, polls = 0;
        int seen = 0;
        for (int i = 0; i < 20000 && s.phase() == ArenaPhase::Running; ++i) {
            f.tick(s, now);
            now += 50;
            // A reply comes back every third poll: game ends in between leave stale jobs behind.
            if (++polls % 3 == 0) queue.deliverOne();
            if (s.gamesFinished() != seen) seen = s.gamesFinished();
            if (!failing && s.ratingsRefining()) CHECK(s.refineProgress().first == 0); // nothing drawn here
            if (!s.ratingsRefining() && s.phase() == ArenaPhase::Running && s.gamesFinished() > 0) {
                ++settledWhileRunning;
                const chessmode::Leaderboard whole =
                    chessmode::computeLeaderboard(s.config(), s.games(), chessmode::LeaderboardOptions{});
                REQUIRE(whole.rows.size() == s.leaderboard().rows.size());
                for (size_t r = 0; r < whole.rows.size(); ++r) {
                    CHECK(s.leaderboard().rows[r].rating == whole.rows[r].rating);
                    CHECK(s.leaderboard().rows[r].ratingLow == whole.rows[r].ratingLow);
                    CHECK(s.leaderboard().rows[r].ratingHigh == whole.rows[r].ratingHigh);
                }
            }
        }
        runOut(f, s, now);
        while (queue.deliverOne()) {} // late replies after the rest change nothing
        REQUIRE(s.phase() == ArenaPhase::Finished);
        if (!failing) CHECK(settledWhileRunning > 0); // (in slices of one resample a game end never settles in time)
        CHECK_FALSE(s.ratingsRefining());
        const chessmode::Leaderboard whole = chessmode::computeLeaderboard(s.config(), s.games(), chessmode::LeaderboardOptions{});
        for (size_t r = 0; r < whole.rows.size(); ++r) {
            CHECK(s.leaderboard().rows[r].ratingLow == whole.rows[r].ratingLow);
            CHECK(s.leaderboard().rows[r].ratingHigh == whole.rows[r].ratingHigh);
        }
        const ArenaSession::BootstrapStats& stats = s.bootstrapStats();
        if (failing) {
            CHECK(stats.sent == 1); // the first failure ends the runner's use
            CHECK(stats.adopted == 0);
            CHECK(stats.error.find("the worker could not start") != std::string::npos);
        } else {
            CHECK(stats.sent >= 2);
            CHECK(stats.adopted >= 1);
            CHECK(stats.adopted <= stats.sent);
            CHECK(stats.error.empty());
        }
    }
}

TEST_CASE("arena session: while games end quickly, interval jobs leave at most once a kBootstrapEveryMs, and the latest games' job is never dropped") {
    Fixture f;
    QueuedBootstrap queue;
    ArenaEnvironment env = f.env(false);
    env.refineBudgetMs = 0;
    double now = 100000; // the page has been open a while (its clock does not start with the arena)
    queue.clock = &now;
    const std::vector<double>& sentAt = queue.sentAt;
    env.makeBootstrapRunner = [&queue]() { return std::make_unique<QueuedRunner>(queue); };
    ArenaSession s(env);
    s.draft() = config({"random", "random", "random", "random", "random", "random"}, play::Format::RoundRobin, 2, 4);
    REQUIRE_FALSE(s.checkDraft());
    REQUIRE_FALSE(s.start(f.settings, now));
    size_t gameEnds = 0, seen = 0;
    for (int i = 0; i < 20000 && s.phase() == ArenaPhase::Running; ++i) {
        f.tick(s, now);
        queue.deliverOne(); // a quick worker: the reply is back by the next poll
        if (size_t(s.gamesFinished()) != seen) {
            gameEnds += size_t(s.gamesFinished()) - seen;
            seen = size_t(s.gamesFinished());
        }
        // Intervals still refining with no job out: one leaves within the interval (and a poll).
        if (s.phase() == ArenaPhase::Running && s.ratingsRefining() && queue.pending.empty() && !sentAt.empty())
            CHECK(now - sentAt.back() <= ArenaSession::kBootstrapEveryMs + 20);
        now += 20;
    }
    REQUIRE(s.phase() == ArenaPhase::Finished);
    REQUIRE(sentAt.size() >= 2);
    CHECK(gameEnds > sentAt.size()); // more game ends than jobs: the pacing held some back
    for (size_t k = 1; k < sentAt.size(); ++k) CHECK(sentAt[k] - sentAt[k - 1] >= ArenaSession::kBootstrapEveryMs);
    CHECK(s.bootstrapStats().sent == int(sentAt.size()));
    CHECK(s.bootstrapStats().error.empty());
}

TEST_CASE("arena session: a bootstrap runner that never answers is given up after its patience, and the page refines the intervals") {
    Fixture f;
    QueuedBootstrap queue; // never delivered: a worker that died without a word
    ArenaEnvironment env = f.env(false);
    env.refineBudgetMs = 1000; // once given up, a poll finishes the intervals
    env.makeBootstrapRunner = [&queue]() { return std::make_unique<QueuedRunner>(queue); };
    ArenaSession s(env);
    s.draft() = config({"random", "engine:0", "engine:1", "random"}, play::Format::RoundRobin, 2, 2);
    REQUIRE_FALSE(s.start(f.settings, 0));
    double now = 0;
    while (s.bootstrapStats().sent == 0 && s.phase() == ArenaPhase::Running && now < 1e6) {
        f.tick(s, now);
        now += 50;
    }
    REQUIRE(s.bootstrapStats().sent == 1);
    const double sentAt = now;
    // Patience: still waiting just under 30 s later (the game ends meanwhile queue nothing new);
    // the clock runs in big steps so the tournament is still on.
    while (now - sentAt < ArenaSession::kBootstrapPatienceMs - 2000 && s.phase() == ArenaPhase::Running) {
        f.tick(s, now);
        now += 2000;
        CHECK(s.bootstrapStats().error.empty());
    }
    REQUIRE(s.phase() == ArenaPhase::Running); // (a tournament long enough to see the patience run out)
    for (int i = 0; i < 3; ++i) {
        f.tick(s, now);
        now += 2000;
    }
    CHECK(s.bootstrapStats().error.find("did not answer in 30 s") != std::string::npos);
    CHECK(s.bootstrapStats().sent == 1);
    runOut(f, s, now);
    CHECK_FALSE(s.ratingsRefining());
    const chessmode::Leaderboard whole = chessmode::computeLeaderboard(s.config(), s.games(), chessmode::LeaderboardOptions{});
    for (size_t r = 0; r < whole.rows.size(); ++r) CHECK(s.leaderboard().rows[r].ratingLow == whole.rows[r].ratingLow);

    // No runner at all (the factory gives none): said at once, refined here.
    Fixture g;
    ArenaEnvironment none = g.env(false);
    none.makeBootstrapRunner = []() { return std::unique_ptr<play::BootstrapRunner>(); };
    ArenaSession t(none);
    t.draft() = config({"random", "engine:0", "engine:1", "random"}, play::Format::RoundRobin, 2, 2);
    REQUIRE_FALSE(t.start(g.settings, 0));
    double later = 0;
    while (t.gamesFinished() == 0 && later < 1e6) {
        g.tick(t, later);
        later += 50;
    }
    CHECK(t.bootstrapStats().error.find("no worker") != std::string::npos);
    runOut(g, t, later);
    CHECK_FALSE(t.ratingsRefining());
}

TEST_CASE("arena session: the session spend is what it paid, Reset and Import leave it, a reload starts at nothing") {
    Fixture f;
    ArenaSession s(f.env());
    double now = 0;
    playOut(f, s, config({"llm:t/legal", "random"}, play::Format::DoubleRoundRobin, 1, 1), now);
    const double paid = s.sessionSpentUsd();
    CHECK(paid > 0);
    CHECK(paid == doctest::Approx(s.spentUsd()));
    const auto bundle = s.exportJson();
    REQUIRE(bundle.ok());
    s.reset();
    CHECK(s.spentUsd() == 0);
    CHECK(s.sessionSpentUsd() == doctest::Approx(paid));
    REQUIRE_FALSE(s.importJson(*bundle.value));
    for (int i = 0; i < 5; ++i) f.tick(s, now += 10);
    REQUIRE(s.gamesFinished() == 2);
    CHECK(s.spentUsd() == doctest::Approx(paid));        // the imported tournament's own figure
    CHECK(s.sessionSpentUsd() == doctest::Approx(paid)); // the session's: not twice (it showed 2x)
    // A reload is another session: the stored tournament's spend was paid before it.
    ArenaSession reloaded(f.env());
    reloaded.load(f.settings, now);
    CHECK(reloaded.spentUsd() == doctest::Approx(paid));
    CHECK(reloaded.sessionSpentUsd() == 0);
}

TEST_CASE("arena session: an imported tournament resumed counts only the answers paid after the import") {
    Fixture f;
    ArenaSession s(f.env());
    double now = 0;
    playUntil(f, s, config({"llm:t/legal", "random"}, play::Format::DoubleRoundRobin, 1, 1), now, 6);
    s.stop(false);
    const auto bundle = s.exportJson();
    REQUIRE(bundle.ok());
    Fixture other;
    ArenaSession t(other.env());
    REQUIRE_FALSE(t.importJson(*bundle.value));
    const double recorded = t.spentUsd();
    CHECK(recorded > 0);
    CHECK(t.sessionSpentUsd() == 0);
    REQUIRE_FALSE(t.resume(other.settings, now));
    runOut(other, t, now);
    REQUIRE(t.phase() == ArenaPhase::Finished);
    CHECK(t.spentUsd() > recorded);
    CHECK(t.sessionSpentUsd() == doctest::Approx(t.spentUsd() - recorded));
}

TEST_CASE("arena session: costs measured in a tournament survive Reset and a reload, and the estimate says so") {
    Fixture f;
    ArenaEnvironment env = f.env();
    env.modelInfo = [](const std::string& id) -> std::optional<llm::ModelInfo> {
        llm::ModelInfo m;
        m.id = id;
        m.supportsTools = true;
        m.pricing.promptUsdPerToken = 1e-6;
        m.pricing.completionUsdPerToken = 2e-6;
        return m;
    };
    ArenaSession s(env);
    const chessmode::TournamentConfig c = config({"llm:t/legal", "random", "engine:1"}, play::Format::DoubleRoundRobin, 1, 2);
    s.draft() = c;
    const chessmode::BudgetEstimate fresh = s.estimate(f.settings);
    CHECK_FALSE(fresh.measured);
    CHECK_FALSE(fresh.measuredBefore);
    double now = 0;
    playOut(f, s, c, now);
    const chessmode::LeaderboardRow* row = nullptr;
    for (const auto& r : s.leaderboard().rows)
        if (r.participant == 0) row = &r;
    REQUIRE(row);
    const double perGame = row->avgCostPerGame;
    const int games = row->games;
    REQUIRE(perGame > 0);
    CHECK(s.estimate(f.settings).measured);
    s.reset();
    // The next estimate starts from what the model's games cost, not from the prompt sizes again.
    const chessmode::BudgetEstimate kept = s.estimate(f.settings);
    CHECK_FALSE(kept.measured);
    CHECK(kept.measuredBefore);
    CHECK(kept.perParticipantUsd[0] == doctest::Approx(perGame * kept.gamesPerParticipant[0]));
    CHECK(kept.perParticipantUsd[0] != doctest::Approx(fresh.perParticipantUsd[0]));
    REQUIRE(s.measured().size() == 1);
    const auto& [key, cost] = *s.measured().begin();
    CHECK(key == std::pair<std::string, std::string>{"t/legal", "full"});
    CHECK(cost.games == games);
    CHECK(cost.costUsd == doctest::Approx(perGame * games));
    // Kept in the store, versioned: a reload has them.
    const auto stored = f.store.get(kArenaMeasuredKey);
    REQUIRE(stored);
    CHECK(stored->find("\"version\":1") != std::string::npos);
    ArenaSession reloaded(env);
    reloaded.load(f.settings, now);
    CHECK(reloaded.measured() == s.measured());
    CHECK(reloaded.estimate(f.settings).measuredBefore);
    // Measured under the full conversation: a stateless tournament does not take them.
    reloaded.draft().contextPolicy = chessmode::ContextPolicy::Stateless;
    CHECK_FALSE(reloaded.estimate(f.settings).measuredBefore);
    // Damaged (or a later build's version): kept aside, said, and the estimate starts afresh.
    f.store.set(kArenaMeasuredKey, "{\"version\": 99, \"models\": []}");
    ArenaSession third(env);
    third.load(f.settings, now);
    CHECK(third.measured().empty());
    CHECK(third.error().find("kept aside") != std::string::npos);
    CHECK(f.store.get(std::string(kArenaMeasuredKey) + ".corrupt"));
}

TEST_CASE("arena session: a model that has used its per-game token budget forfeits at its next turn") {
    Fixture f; // t/legal: 50 prompt + 10 completion tokens an answer
    ArenaSession s(f.env());
    chessmode::TournamentConfig c = config({"llm:t/legal", "random"}, play::Format::RoundRobin, 1, 1);
    c.gameTokenBudget = 200; // four answers (240 tokens) pass it, three (180) do not
    double now = 0;
    playOut(f, s, c, now);
    REQUIRE(s.games().size() == 1);
    const chessmode::GameRecord& g = s.games()[0];
    CHECK(g.termination == chessmode::Termination::ForfeitTokenBudget);
    const bool modelWhite = g.pairing.white == 0;
    CHECK(g.result == (modelWhite ? chessmode::GameResult::BlackWins : chessmode::GameResult::WhiteWins));
    int modelMoves = 0;
    for (size_t i = 0; i < g.moves.size(); ++i) modelMoves += g.moverOf(i) == 0 ? 1 : 0;
    CHECK(modelMoves == 4);
    CHECK(f.chat.requests().size() == 4); // the fifth turn asked nothing
    CHECK_MESSAGE(g.detail.find("budget for a game is 200") != std::string::npos, g.detail);
    CHECK(s.leaderboard().rows.size() == 2);
    for (const auto& r : s.leaderboard().rows)
        if (r.participant == 0) CHECK(r.forfeits == 1);
    const auto bundle = s.exportJson();
    REQUIRE(bundle.ok());
    CHECK(bundle.value->find("\"forfeit_token_budget\"") != std::string::npos);
    CHECK(bundle.value->find("\"gameTokenBudget\": 200") != std::string::npos);
}

TEST_CASE("arena session: a tournament asks its models as it began, over a resume and a reload, and its bundle says how") {
    Fixture f;
    f.settings.temperature = 0.7;
    f.settings.retryAttempts = 5;
    f.settings.promptBase = "You play chess in a study tournament.";
    double now = 0;
    {
        ArenaSession s(f.env());
        playUntil(f, s, config({"llm:t/legal", "random"}, play::Format::RoundRobin, 2, 1), now, 4);
        REQUIRE(s.config().calls);
        CHECK(s.config().calls->temperature == 0.7);
        CHECK(s.config().calls->retryAttempts == 5);
        CHECK(s.config().calls->promptBase == "You play chess in a study tournament.");
        REQUIRE_FALSE(f.chat.requests().empty());
        CHECK(f.chat.requests().back().temperature == 0.7);
        s.stop(false);
    }
    // Settings changed meanwhile; the page reloads and the tournament resumes: its own calls still.
    f.settings.temperature = 1.5;
    f.settings.retryAttempts = 0;
    f.settings.promptBase.clear();
    ArenaSession s(f.env());
    s.load(f.settings, now);
    REQUIRE(s.config().calls);
    CHECK(s.config().calls->temperature == 0.7);
    const size_t before = f.chat.requests().size();
    REQUIRE_FALSE(s.resume(f.settings, now));
    runOut(f, s, now);
    REQUIRE(f.chat.requests().size() > before);
    for (size_t i = before; i < f.chat.requests().size(); ++i) {
        const llm::ChatRequest& r = f.chat.requests()[i];
        CHECK(r.temperature == 0.7);
        REQUIRE_FALSE(r.messages.empty());
        CHECK(r.messages.front().content.find("study tournament") != std::string::npos);
    }
    // The bundle: the calls in the config and the harness, the prompts as sent, the games' times.
    const chessmode::Parsed<std::string> text = s.exportJson();
    REQUIRE_MESSAGE(text.ok(), text.error);
    const nlohmann::json doc = nlohmann::json::parse(*text.value);
    CHECK(doc["config"]["calls"]["temperature"] == 0.7);
    CHECK(doc["harness"]["calls"] == doc["config"]["calls"]);
    CHECK(doc["harness"]["prompts"]["system_base"] == "You play chess in a study tournament.");
    CHECK(doc["harness"]["prompts"]["system_white"] == f.prompts.systemWhite);
    for (const auto& g : doc["games"]) CHECK(g.contains("startedAt"));
    CHECK(text.value->find(kKey) == std::string::npos);
}
