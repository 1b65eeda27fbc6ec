// Tests of the tournament runner: schedules played to the end with random/engine players and a
// fake chat, concurrency, budget cap, failure rules (401 pause, 429 forfeit, illegal forfeit),
// ticker tempo, and stop/resume through a bundle.
#include "src/arena/engine_player.h"
#include "src/arena/players.h"
#include "src/arena/tournament_runner.h"
#include "tests/fakes/fake_chat.h"

#include "engine/chess/movegen.h"
#include "engine/chess/notation.h"
#include "engine/search/levels.h"

#include "tests/fakes/chess_model_helpers.h"

#include <doctest/doctest.h>

#include <set>

using namespace chaiba;
using namespace chaiba::arena;
using chaiba::fakes::FakeChat;
using chaiba::fakes::latestFen;

namespace {

// The fake chat's models: "test/legal" plays a legal move; "test/illegal" names an impossible one;
// "test/401", "test/402" and "test/429" fail with that HTTP status. Every answer costs $0.001.
agent::ChatOutcome respond(const agent::ChatRequest& r) {
    agent::ChatOutcome o;
    if (r.model == "test/401" || r.model == "test/402" || r.model == "test/429") {
        const int status = std::stoi(r.model.substr(5));
        const agent::ChatErrorKind kind = status == 401   ? agent::ChatErrorKind::Unauthorized
                                          : status == 402 ? agent::ChatErrorKind::InsufficientCredits
                                                          : agent::ChatErrorKind::RateLimited;
        o.error = agent::ChatError{kind, status, "HTTP " + std::to_string(status), std::nullopt};
        return o;
    }
    const auto fen = chess::Position::fromFen(latestFen(r));
    REQUIRE_MESSAGE(fen.ok(), fen.error);
    chess::MoveList moves;
    chess::generateLegal(*fen.position, moves);
    REQUIRE(!moves.empty());
    const std::string san = r.model == "test/illegal" ? "Ke9" : chess::toSan(*fen.position, moves[0]);
    agent::ChatReply reply;
    reply.toolCalls.push_back({"c", "make_move", "{\"move\":\"" + san + "\",\"reasoning\":\"r\"}"});
    reply.usage.promptTokens = 100;
    reply.usage.completionTokens = 20;
    reply.usage.totalTokens = 120;
    reply.usage.costUsd = 0.001;
    o.reply = reply;
    return o;
}

// Players for specs: random and engine as such, LLMs through the fake chat.
struct Harness {
    agent::AgentPrompts prompts = fakes::loadTestPrompts();
    FakeChat chat;
    int created = 0;
    Harness() { chat.setResponder(respond); }

    PlayerFactory factory() {
        return [this](const PlayerSlot& slot, std::string& error) -> std::unique_ptr<Player> {
            ++created;
            Parsed<PlayerSpec> spec = parsePlayerSpec(slot.spec->spec);
            if (!spec.ok()) {
                error = spec.error;
                return nullptr;
            }
            switch (spec.value->kind) {
            case PlayerSpec::Kind::Random: return std::make_unique<RandomPlayer>(slot.id, slot.seed);
            case PlayerSpec::Kind::Engine:
                return std::make_unique<EnginePlayer>(slot.id, *search::levelSpec(spec.value->level),
                                                      slot.seed);
            case PlayerSpec::Kind::Llm: break;
            }
            agent::AgentConfig c;
            c.id = slot.id;
            c.name = spec.value->modelId;
            c.model = spec.value->modelId;
            c.side = slot.side == chess::Color::White ? agent::Side::White : agent::Side::Black;
            c.retryAttempts = 2;
            return std::make_unique<LlmPlayer>(c, prompts, chat, slot.opponentName);
        };
    }
};

TournamentConfig makeConfig(const std::vector<std::string>& specs, Format format, int games,
                            int concurrency) {
    TournamentConfig c;
    for (const std::string& s : specs) { // distinct names: the same spec may take part twice
        std::string name = std::to_string(c.participants.size() + 1);
        name.insert(name.begin(), 'P');
        c.participants.push_back({s, name, -1});
    }
    c.format = format;
    c.games = games;
    c.concurrency = concurrency;
    c.maxPlies = 80;
    c.seed = 7;
    return c;
}

std::unique_ptr<TournamentRunner> makeRunner(const TournamentConfig& config, Harness& h,
                                             std::vector<GameRecord> resumed = {}) {
    RunnerOptions options;
    options.backoffMs = 10;
    auto created = TournamentRunner::create(config, h.factory(), std::move(resumed), options);
    REQUIRE_MESSAGE(created.ok(), created.error);
    return std::move(*created.value);
}

// Polls until done (or a safety bound), checking the concurrency invariants on every step.
void runChecked(TournamentRunner& runner, double& nowMs, int maxPolls = 200000) {
    for (int i = 0; i < maxPolls && !runner.done() && runner.state() != RunnerState::Paused; ++i) {
        runner.poll(nowMs);
        nowMs += 100;
        REQUIRE(int(runner.liveGames().size()) <= runner.config().concurrency);
        std::set<int> busy;
        for (const auto& g : runner.liveGames()) {
            CHECK(busy.insert(g->pairing.white).second);
            CHECK(busy.insert(g->pairing.black).second);
        }
    }
}

const LeaderboardRow& rowOf(const Leaderboard& board, int participant) {
    for (const LeaderboardRow& r : board.rows)
        if (r.participant == participant) return r;
    FAIL("no row");
    return board.rows.front();
}

} // namespace

TEST_CASE("tournament runner: a round robin plays every pair once and the leaderboard adds up") {
    Harness h;
    const TournamentConfig config =
        makeConfig({"random", "random", "random", "random"}, Format::RoundRobin, 1, 2);
    auto runner = makeRunner(config, h);
    double now = 0;
    runner->start(now);
    runChecked(*runner, now);
    REQUIRE(runner->done());
    REQUIRE(runner->games().size() == 6);
    std::set<std::pair<int, int>> pairs;
    for (const GameRecord& g : runner->games()) {
        CHECK(g.finished());
        CHECK(g.termination != Termination::Unfinished);
        pairs.insert(
            {std::min(g.pairing.white, g.pairing.black), std::max(g.pairing.white, g.pairing.black)});
    }
    CHECK(pairs.size() == 6);
    const TournamentBundle bundle = runner->bundle();
    const Leaderboard& board = *bundle.leaderboard;
    int games = 0, wins = 0, losses = 0, draws = 0;
    for (const LeaderboardRow& r : board.rows) {
        CHECK(r.games == 3);
        CHECK(r.wins + r.draws + r.losses == r.games);
        games += r.games;
        wins += r.wins;
        losses += r.losses;
        draws += r.draws;
    }
    CHECK(games == 12);
    CHECK(wins == losses);
    CHECK(draws % 2 == 0);
    CHECK(board.gamesRated == 6);
    // The bundle round-trips and reproduces the leaderboard.
    Parsed<std::string> json = exportBundle(bundle);
    REQUIRE_MESSAGE(json.ok(), json.error);
    Parsed<TournamentBundle> back = importBundle(*json.value);
    REQUIRE_MESSAGE(back.ok(), back.error);
    CHECK(back.value->games == runner->games());
    CHECK(sameLeaderboard(computeLeaderboard(back.value->config, back.value->games), board));
    Parsed<std::string> pgn = bundlePgn(bundle);
    REQUIRE_MESSAGE(pgn.ok(), pgn.error);
}

TEST_CASE("tournament runner: the continuous arena respects concurrency and plays its total") {
    Harness h;
    TournamentConfig config = makeConfig(
        {"random", "random", "random", "random", "random", "random", "random"}, Format::Arena, 15, 3);
    auto runner = makeRunner(config, h);
    double now = 0;
    runner->start(now);
    size_t maxLive = 0;
    for (int i = 0; i < 100000 && !runner->done(); ++i) {
        runner->poll(now);
        maxLive = std::max(maxLive, runner->liveGames().size());
        REQUIRE(runner->liveGames().size() <= 3);
        std::set<int> busy;
        for (const auto& g : runner->liveGames()) {
            CHECK(busy.insert(g->pairing.white).second);
            CHECK(busy.insert(g->pairing.black).second);
        }
    }
    REQUIRE(runner->done());
    CHECK(runner->games().size() == 15);
    CHECK(maxLive == 3);
}

TEST_CASE("tournament runner: an engine level plays LLMs through the fake chat, costs and tokens recorded") {
    Harness h;
    const TournamentConfig config =
        makeConfig({"llm:test/legal", "engine:0"}, Format::DoubleRoundRobin, 1, 1);
    auto runner = makeRunner(config, h);
    double now = 0;
    runner->start(now);
    runChecked(*runner, now);
    REQUIRE(runner->done());
    REQUIRE(runner->games().size() == 2);
    const Leaderboard board = computeLeaderboard(config, runner->games());
    const LeaderboardRow& llm = rowOf(board, 0);
    CHECK(llm.moves > 0);
    CHECK(llm.costUsd == doctest::Approx(0.001 * llm.turns));
    CHECK(llm.avgTokensPerMove == doctest::Approx(120));
    CHECK(rowOf(board, 1).costUsd == 0);
    CHECK(runner->budget().spentUsd() == doctest::Approx(llm.costUsd));
}

TEST_CASE("tournament runner: a model that only plays illegal moves forfeits, attempts counted") {
    Harness h;
    const TournamentConfig config =
        makeConfig({"llm:test/illegal", "random"}, Format::DoubleRoundRobin, 1, 2);
    auto runner = makeRunner(config, h);
    double now = 0;
    runner->start(now);
    runChecked(*runner, now);
    REQUIRE(runner->done());
    REQUIRE(runner->games().size() == 2);
    for (const GameRecord& g : runner->games()) {
        CHECK(g.termination == Termination::ForfeitIllegalMove);
        CHECK(g.result == (g.pairing.white == 0 ? GameResult::BlackWins : GameResult::WhiteWins));
        REQUIRE(g.openTurn.has_value());
        CHECK(g.openTurnPlayer() == 0);
        CHECK(g.openTurn->attempts == 3); // the first answer and retryAttempts = 2
        CHECK(g.openTurn->illegalAttempts == 3);
        CHECK(g.openTurn->costUsd == doctest::Approx(0.003));
    }
    const Leaderboard board = computeLeaderboard(config, runner->games());
    CHECK(rowOf(board, 0).forfeits == 2);
    CHECK(rowOf(board, 0).losses == 2);
    CHECK(rowOf(board, 1).forfeits == 0);
}

TEST_CASE("tournament runner: rate limits back off per the failure rules, then forfeit") {
    Harness h;
    const TournamentConfig config = makeConfig({"llm:test/429", "random"}, Format::RoundRobin, 1, 1);
    auto runner = makeRunner(config, h);
    double now = 0;
    runner->start(now);
    int retries = 0;
    for (int i = 0; i < 10000 && !runner->done(); ++i) {
        runner->poll(now);
        now += 1000;
        for (const RunnerEvent& e : runner->takeEvents()) retries += e.kind == RunnerEvent::Kind::Retrying;
    }
    REQUIRE(runner->done());
    REQUIRE(runner->games().size() == 1);
    CHECK(runner->games()[0].termination == Termination::ForfeitRateLimited);
    CHECK(retries == failureRule(FailureKind::RateLimited).maxRetries);
    CHECK(int(h.chat.requests().size()) == failureRule(FailureKind::RateLimited).maxRetries + 1);
}

TEST_CASE("tournament runner: 401 and 402 pause the whole tournament with a clear message") {
    for (const char* model : {"llm:test/401", "llm:test/402"}) {
        CAPTURE(model);
        Harness h;
        const TournamentConfig config =
            makeConfig({model, "random", "random", "random"}, Format::RoundRobin, 1, 2);
        auto runner = makeRunner(config, h);
        double now = 0;
        runner->start(now);
        for (int i = 0; i < 100000 && runner->state() != RunnerState::Paused && !runner->done(); ++i) {
            runner->poll(now);
            now += 100;
        }
        REQUIRE(runner->state() == RunnerState::Paused);
        CHECK(runner->pauseMessage().find(std::string(model).substr(4)) != std::string::npos);
        CHECK(runner->pauseMessage().find(std::string(model).substr(9)) != std::string::npos);
        // Nothing moves or starts while paused.
        const size_t finished = runner->games().size();
        const int created = h.created;
        const std::vector<GameRecord> before = runner->snapshot();
        for (int i = 0; i < 50; ++i) runner->poll(now += 1000);
        CHECK(runner->games().size() == finished);
        CHECK(h.created == created);
        CHECK(runner->snapshot() == before);
        CHECK(runner->state() == RunnerState::Paused);
        runner->stop(StopMode::AbandonRunning);
        CHECK(runner->done());
        CHECK(runner->liveGames().empty());
    }
}

TEST_CASE("tournament runner: the budget cap stops new games, running ones finish") {
    Harness h;
    TournamentConfig config =
        makeConfig({"llm:test/legal", "llm:test/legal", "random"}, Format::DoubleRoundRobin, 2, 1);
    config.budgetUsd = 0.02; // $0.001 per answer: gone within the first game
    auto runner = makeRunner(config, h);
    double now = 0;
    runner->start(now);
    bool capSeen = false;
    int startedAfterCap = 0;
    for (int i = 0; i < 100000 && !runner->done(); ++i) {
        runner->poll(now);
        for (const RunnerEvent& e : runner->takeEvents()) {
            if (e.kind == RunnerEvent::Kind::BudgetReached) capSeen = true;
            if (capSeen && e.kind == RunnerEvent::Kind::GameStarted) ++startedAfterCap;
        }
    }
    REQUIRE(runner->done());
    CHECK(capSeen);
    CHECK(startedAfterCap == 0);
    CHECK(runner->budgetReached());
    CHECK(runner->games().size() >= 1);
    CHECK(int(runner->games().size()) < runner->scheduler().totalGames());
    for (const GameRecord& g : runner->games()) CHECK(g.finished());
}

TEST_CASE("tournament runner: ticker tempo advances each game one move per tick") {
    Harness h;
    TournamentConfig config = makeConfig({"random", "random", "random", "random"}, Format::RoundRobin, 1, 2);
    config.tempo = Tempo::Ticker;
    config.tickerSeconds = 60;
    auto runner = makeRunner(config, h);
    runner->start(0);
    REQUIRE(runner->liveGames().size() == 2);
    for (int i = 0; i < 20; ++i) runner->poll(10);
    for (const auto& g : runner->liveGames()) CHECK(g->match->moves().size() == 1);
    CHECK(runner->ticks() == 1);
    CHECK(runner->msUntilNextTimer(10) == doctest::Approx(59990));
    for (int i = 0; i < 20; ++i) runner->poll(60000);
    for (const auto& g : runner->liveGames()) CHECK(g->match->moves().size() == 2);
    CHECK(runner->ticks() == 2);
}

TEST_CASE("tournament runner: stop and resume from the bundle reproduce the uninterrupted tournament") {
    const TournamentConfig config =
        makeConfig({"random", "random", "random", "random"}, Format::DoubleRoundRobin, 1, 2);
    Harness whole;
    auto reference = makeRunner(config, whole);
    double now = 0;
    reference->start(now);
    runChecked(*reference, now);
    REQUIRE(reference->done());
    REQUIRE(reference->games().size() == 12);

    Harness first;
    auto interrupted = makeRunner(config, first);
    now = 0;
    interrupted->start(now);
    while (interrupted->games().size() < 5) interrupted->poll(now += 100);
    REQUIRE(!interrupted->liveGames().empty());
    const size_t kept = interrupted->games().size();
    // A bundle mid-run carries the running games unfinished; the resumed runner plays them again.
    Parsed<std::string> json = exportBundle(interrupted->bundle());
    REQUIRE_MESSAGE(json.ok(), json.error);
    interrupted->stop(StopMode::AbandonRunning);
    CHECK(interrupted->done());
    Parsed<TournamentBundle> stored = importBundle(*json.value);
    REQUIRE_MESSAGE(stored.ok(), stored.error);
    CHECK(stored.value->games.size() > kept);

    Harness second;
    auto resumed = makeRunner(stored.value->config, second, stored.value->games);
    CHECK(resumed->games().size() == kept);
    resumed->start(now);
    runChecked(*resumed, now);
    REQUIRE(resumed->done());
    REQUIRE(resumed->games().size() == 12);
    // Same games (each pairing's seed is fixed), so the same ratings and results.
    auto byId = [](std::vector<GameRecord> games) {
        std::sort(games.begin(), games.end(),
                  [](const GameRecord& a, const GameRecord& b) { return a.pairing.id < b.pairing.id; });
        return games;
    };
    CHECK(byId(resumed->games()) == byId(reference->games()));
    const Leaderboard a = computeLeaderboard(config, resumed->games());
    const Leaderboard b = computeLeaderboard(config, reference->games());
    for (const LeaderboardRow& r : a.rows) {
        const LeaderboardRow& s = rowOf(b, r.participant);
        CHECK(r.rating == doctest::Approx(s.rating));
        CHECK(r.wins == s.wins);
        CHECK(r.draws == s.draws);
        CHECK(r.losses == s.losses);
    }
    // And the final bundle reproduces its own leaderboard exactly.
    const TournamentBundle done = resumed->bundle();
    Parsed<TournamentBundle> back = importBundle(*exportBundle(done).value);
    REQUIRE(back.ok());
    CHECK(sameLeaderboard(computeLeaderboard(back.value->config, back.value->games), *done.leaderboard));
}

TEST_CASE("tournament runner: invalid configs and mismatched resumes are errors") {
    Harness h;
    TournamentConfig config = makeConfig({"random"}, Format::RoundRobin, 1, 1);
    CHECK(!TournamentRunner::create(config, h.factory()).ok());
    config = makeConfig({"random", "random"}, Format::RoundRobin, 1, 1);
    GameRecord alien;
    alien.pairing.id = 99;
    alien.pairing.white = 0;
    alien.pairing.black = 1;
    alien.startFen = chess::Position::startPosition().fen();
    alien.result = GameResult::Draw;
    alien.termination = Termination::MoveLimit;
    auto created = TournamentRunner::create(config, h.factory(), {alien});
    CHECK(!created.ok());
    CHECK(created.error.find("resume") != std::string::npos);
}
