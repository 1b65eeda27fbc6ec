// Tests of the tournament runner: schedules played to the end with random/engine players and a
// fake chat, concurrency, budget cap, failure rules (401 pause, 429 forfeit, illegal forfeit),
// ticker tempo, and stop/resume through a bundle (unfinished games continued in place).
#include "src/llm/openrouter_client.h"
#include "src/modes/chess/engine_player.h"
#include "src/modes/chess/players.h"
#include "src/modes/chess/tournament_runner.h"
#include "tests/fakes/fake_chat.h"
#include "tests/fakes/fake_transport.h"

#include "engine/chess/movegen.h"
#include "engine/chess/notation.h"
#include "engine/search/levels.h"

#include "tests/fakes/chess_model_helpers.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <functional>
#include <optional>
#include <set>

using namespace chaiba;
using namespace chaiba::chessmode;
using chaiba::fakes::FakeChat;
using chaiba::fakes::latestFen;

namespace {

// The fake chat's models: "test/legal" plays a legal move; "test/illegal" names an impossible one;
// "test/401", "test/402" and "test/429" fail with that HTTP status. Every answer costs $0.001.
llm::ChatOutcome respond(const llm::ChatRequest& r) {
    llm::ChatOutcome o;
    if (r.model == "test/500-says-402") { // a server error whose text holds "402": not a payment error
        o.error = llm::ChatError{llm::ChatErrorKind::ServerError, 500, "upstream error 402 from provider", std::nullopt};
        return o;
    }
    if (r.model == "test/timeout-4") { // what the page's client reports after its own 3 retries
        o.error = llm::ChatError{llm::ChatErrorKind::Timeout, 0, "no answer in 1 s", std::nullopt, 4};
        return o;
    }
    if (r.model == "test/401" || r.model == "test/402" || r.model == "test/429") {
        const int status = std::stoi(r.model.substr(5));
        const llm::ChatErrorKind kind = status == 401   ? llm::ChatErrorKind::Unauthorized
                                          : status == 402 ? llm::ChatErrorKind::InsufficientCredits
                                                          : llm::ChatErrorKind::RateLimited;
        o.error = llm::ChatError{kind, status, "HTTP " + std::to_string(status), std::nullopt};
        return o;
    }
    const auto fen = chess::Position::fromFen(latestFen(r));
    REQUIRE_MESSAGE(fen.ok(), fen.error);
    chess::MoveList moves;
    chess::generateLegal(*fen.position, moves);
    REQUIRE(!moves.empty());
    const std::string san = r.model == "test/illegal" ? "Ke9" : chess::toSan(*fen.position, moves[0]);
    llm::ChatReply reply;
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
    chessmode::AgentPrompts prompts = fakes::loadTestPrompts();
    FakeChat chat;
    llm::ChatService* models = nullptr; // the models' chat service; null: the fake chat
    int created = 0;
    Harness() { chat.setResponder(respond); }
    // One loop iteration as the page or the command runs it: the chat service is pumped (players
    // never pump it), then the tournament.
    void tick(TournamentRunner& runner, double nowMs) {
        chat.poll();
        runner.poll(nowMs);
    }

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
            case PlayerSpec::Kind::Model: break;
            case PlayerSpec::Kind::Bot:
            case PlayerSpec::Kind::Person: error = "not a chess player"; return nullptr;
            }
            chessmode::AgentConfig c;
            c.id = slot.id;
            c.name = spec.value->modelId;
            c.model = spec.value->modelId;
            c.side = slot.side == chess::Color::White ? chessmode::Side::White : chessmode::Side::Black;
            c.retryAttempts = 2;
            return std::make_unique<LlmPlayer>(c, prompts, models ? *models : chat, slot.opponentName);
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
void runChecked(Harness& h, TournamentRunner& runner, double& nowMs, int maxPolls = 200000) {
    for (int i = 0; i < maxPolls && !runner.done() && runner.state() != RunnerState::Paused; ++i) {
        h.tick(runner, nowMs);
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

// Plays the tournament to its end, a second a tick; the number of retries it announced.
int playToEnd(Harness& h, TournamentRunner& runner) {
    double now = 0;
    runner.start(now);
    int retries = 0;
    for (int i = 0; i < 10000 && !runner.done(); ++i) {
        h.tick(runner, now);
        now += 1000;
        for (const RunnerEvent& e : runner.takeEvents()) retries += e.kind == RunnerEvent::Kind::Retrying;
    }
    return retries;
}

// One game of a model whose requests the transport fails, through the real chat client against a
// random mover: how it ended and the requests the transport saw.
struct FailingGame {
    Termination termination{};
    int requests = 0;
};
FailingGame playFailingGame(fakes::FakeTransport& transport, fakes::FakeClock& clock,
                            const llm::OpenRouterConfig& clientConfig) {
    llm::OpenRouterClient client(transport, clock, clientConfig);
    Harness h;
    h.models = &client;
    auto runner = makeRunner(makeConfig({"llm:test/failing", "random"}, Format::RoundRobin, 1, 1), h);
    double now = 0;
    runner->start(now);
    for (int i = 0; i < 100000 && !runner->done(); ++i) {
        client.poll();
        runner->poll(now);
        clock.advance(100);
        now += 100;
    }
    REQUIRE(runner->done());
    REQUIRE(runner->games().size() == 1);
    return {runner->games()[0].termination, int(transport.requests().size())};
}

} // namespace

TEST_CASE("tournament runner: a round robin plays every pair once and the leaderboard adds up") {
    Harness h;
    const TournamentConfig config =
        makeConfig({"random", "random", "random", "random"}, Format::RoundRobin, 1, 2);
    auto runner = makeRunner(config, h);
    double now = 0;
    runner->start(now);
    runChecked(h, *runner, now);
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
        h.tick(*runner, now);
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
    runChecked(h, *runner, now);
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
    runChecked(h, *runner, now);
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
    const int retries = playToEnd(h, *runner);
    REQUIRE(runner->done());
    REQUIRE(runner->games().size() == 1);
    CHECK(runner->games()[0].termination == Termination::ForfeitRateLimited);
    CHECK(retries == failureRule(FailureKind::RateLimited).maxRetries);
    CHECK(int(h.chat.requests().size()) == failureRule(FailureKind::RateLimited).maxRetries + 1);
}

TEST_CASE("tournament runner: each request the chat client already retried counts against the rules") {
    // The client retried a timeout 3 times within the call (4 requests): that is the timeout
    // rule's 4 tries, so the seat forfeits at once instead of asking for 4 more calls of 4.
    Harness h;
    const TournamentConfig config = makeConfig({"llm:test/timeout-4", "random"}, Format::RoundRobin, 1, 1);
    auto runner = makeRunner(config, h);
    const int retries = playToEnd(h, *runner);
    REQUIRE(runner->done());
    REQUIRE(runner->games().size() == 1);
    const GameRecord& g = runner->games()[0];
    CHECK(g.termination == Termination::ForfeitTimeout);
    CHECK(retries == 0);
    CHECK(h.chat.requests().size() == 1);
    CHECK(failureRule(FailureKind::Timeout).maxRetries + 1 == 4);
}

TEST_CASE("tournament runner: a model whose every request fails is asked exactly the rule's requests") {
    // The real chat client over a transport that answers every request with the same failure: its
    // own retries count, and a retried turn's calls are capped to the tries the rule has left, so
    // always 429 is the rule's 6 requests (the client's 5, then 1), not 5 and then 5 more.
    struct Row {
        int status;
        FailureKind kind;
        Termination termination;
    };
    for (const Row& row : {Row{429, FailureKind::RateLimited, Termination::ForfeitRateLimited},
                           Row{408, FailureKind::Timeout, Termination::ForfeitTimeout},
                           Row{500, FailureKind::ServerError, Termination::ForfeitServerError}}) {
        CAPTURE(row.status);
        fakes::FakeTransport transport;
        fakes::FakeClock clock;
        transport.setResponder([&row](const net::HttpRequest&) {
            return fakes::FakeReply::json(row.status, R"({"error":{"code":)" + std::to_string(row.status) +
                                                          R"(,"message":"scripted"}})");
        });
        llm::OpenRouterConfig clientConfig;
        clientConfig.baseUrl = "http://127.0.0.1:9/api/v1";
        clientConfig.apiKey = "sk-test";
        const FailingGame game = playFailingGame(transport, clock, clientConfig);
        CHECK(game.termination == row.termination);
        CHECK(game.requests == failureRule(row.kind).maxRetries + 1);
    }
}

TEST_CASE("tournament runner: a turn's first call keeps to each kind's rule, whatever the client's policy") {
    // The first call of a turn has no cap of tries left, but it carries the rules per kind: an
    // undecodable answer every time is "retry once" (2 requests, not the client's 4), and a client
    // that would retry 10 times stops at the rule's requests for 5xx and 429 too.
    struct Row {
        int status;
        bool generous; // the client's policy retries 10 times
        FailureKind kind;
        Termination termination;
    };
    for (const Row& row : {Row{200, false, FailureKind::MalformedAnswer, Termination::ForfeitMalformedAnswer},
                           Row{200, true, FailureKind::MalformedAnswer, Termination::ForfeitMalformedAnswer},
                           Row{503, true, FailureKind::ServerError, Termination::ForfeitServerError},
                           Row{429, true, FailureKind::RateLimited, Termination::ForfeitRateLimited}}) {
        CAPTURE(row.status);
        CAPTURE(row.generous);
        fakes::FakeTransport transport;
        fakes::FakeClock clock;
        transport.setResponder([&row](const net::HttpRequest&) {
            if (row.status == 200) return fakes::FakeReply::json(200, "not json");
            return fakes::FakeReply::json(row.status, R"({"error":{"code":)" + std::to_string(row.status) +
                                                          R"(,"message":"scripted"}})");
        });
        llm::OpenRouterConfig clientConfig;
        clientConfig.baseUrl = "http://127.0.0.1:9/api/v1";
        clientConfig.apiKey = "sk-test";
        if (row.generous) clientConfig.maxRetries = clientConfig.maxRateLimitTries = 10;
        const FailingGame game = playFailingGame(transport, clock, clientConfig);
        CHECK(game.termination == row.termination);
        CHECK(game.requests == failureRule(row.kind).maxRetries + 1);
    }
}

TEST_CASE("tournament runner: a server error whose message holds 402 backs off and never pauses") {
    Harness h;
    const TournamentConfig config = makeConfig({"llm:test/500-says-402", "random"}, Format::RoundRobin, 1, 1);
    auto runner = makeRunner(config, h);
    double now = 0;
    runner->start(now);
    int retries = 0;
    for (int i = 0; i < 10000 && !runner->done(); ++i) {
        h.tick(*runner, now);
        CHECK(runner->state() != RunnerState::Paused);
        now += 1000;
        for (const RunnerEvent& e : runner->takeEvents()) {
            retries += e.kind == RunnerEvent::Kind::Retrying;
            CHECK(e.kind != RunnerEvent::Kind::Paused);
        }
    }
    REQUIRE(runner->done());
    REQUIRE(runner->games().size() == 1);
    CHECK(runner->games()[0].termination == Termination::ForfeitServerError);
    CHECK(retries == failureRule(FailureKind::ServerError).maxRetries);
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
            h.tick(*runner, now);
            now += 100;
        }
        REQUIRE(runner->state() == RunnerState::Paused);
        CHECK(runner->pauseMessage().find(std::string(model).substr(4)) != std::string::npos);
        CHECK(runner->pauseMessage().find(std::string(model).substr(9)) != std::string::npos);
        // Nothing moves or starts while paused.
        const size_t finished = runner->games().size();
        const int created = h.created;
        const std::vector<GameRecord> before = runner->snapshot();
        for (int i = 0; i < 50; ++i) h.tick(*runner, now += 1000);
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
        h.tick(*runner, now);
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
    for (int i = 0; i < 20; ++i) h.tick(*runner, 10);
    for (const auto& g : runner->liveGames()) CHECK(g->match->moves().size() == 1);
    CHECK(runner->ticks() == 1);
    CHECK(runner->msUntilNextTimer(10) == doctest::Approx(59990));
    for (int i = 0; i < 20; ++i) h.tick(*runner, 60000);
    for (const auto& g : runner->liveGames()) CHECK(g->match->moves().size() == 2);
    CHECK(runner->ticks() == 2);
}

namespace {

double recordedCostUsd(const std::vector<GameRecord>& games) {
    double usd = 0;
    for (const GameRecord& g : games) {
        for (const TurnRecord& t : g.moves) usd += t.costUsd;
        if (g.openTurn) usd += g.openTurn->costUsd;
    }
    return usd;
}

std::vector<GameRecord> byId(std::vector<GameRecord> games) {
    std::sort(games.begin(), games.end(),
              [](const GameRecord& a, const GameRecord& b) { return a.pairing.id < b.pairing.id; });
    return games;
}

const GameRecord* findGame(const std::vector<GameRecord>& games, int id) {
    for (const GameRecord& g : games)
        if (g.pairing.id == id) return &g;
    return nullptr;
}

const LiveGame* findLive(const TournamentRunner& runner, int id) {
    for (const auto& g : runner.liveGames())
        if (g->pairing.id == id) return g;
    return nullptr;
}

// A deterministic tournament: the fake LLM plays the first legal move and level 0 a move seeded
// per game and ply, so a game continued after a reload is the game played without one.
TournamentConfig deterministicConfig() {
    return makeConfig({"llm:test/legal", "engine:0", "engine:0", "engine:0"}, Format::DoubleRoundRobin, 1, 2);
}

// Plays `config` until `ready` holds between two polls, then returns the bundle taken there (the
// running games unfinished, as a page saves it) after a round trip through its JSON.
TournamentBundle bundleMidRun(const TournamentConfig& config, Harness& h,
                              const std::function<bool(const TournamentRunner&)>& ready) {
    auto runner = makeRunner(config, h);
    double now = 0;
    runner->start(now);
    for (int i = 0; i < 100000 && !runner->done() && !ready(*runner); ++i) h.tick(*runner, now += 100);
    REQUIRE(!runner->done());
    Parsed<std::string> json = exportBundle(runner->bundle());
    REQUIRE_MESSAGE(json.ok(), json.error);
    const std::vector<GameRecord> snapshot = runner->snapshot();
    runner->stop(StopMode::AbandonRunning);
    Parsed<TournamentBundle> stored = importBundle(*json.value);
    REQUIRE_MESSAGE(stored.ok(), stored.error);
    CHECK(stored.value->games == snapshot);
    return std::move(*stored.value);
}

// A running game of `participant` with at least `plies` plies, if any.
bool runningWith(const TournamentRunner& runner, int participant, size_t plies) {
    for (const auto& g : runner.liveGames())
        if ((g->pairing.white == participant || g->pairing.black == participant) &&
            g->match->moves().size() >= plies && !g->match->finished())
            return true;
    return false;
}

// The unfinished game of `games` in which `participant` plays, with the most moves.
const GameRecord* longestUnfinished(const std::vector<GameRecord>& games, int participant) {
    const GameRecord* best = nullptr;
    for (const GameRecord& g : games)
        if (!g.finished() && (g.pairing.white == participant || g.pairing.black == participant) &&
            (!best || g.moves.size() > best->moves.size()))
            best = &g;
    return best;
}

// The tournament played through without interruption: what a resumed run must reproduce.
std::unique_ptr<TournamentRunner> referenceRun(const TournamentConfig& config, Harness& h) {
    auto runner = makeRunner(config, h);
    double now = 0;
    runner->start(now);
    runChecked(h, *runner, now);
    REQUIRE(runner->done());
    return runner;
}

} // namespace

TEST_CASE("tournament runner: a resumed unfinished game continues from its recorded moves") {
    const TournamentConfig config = deterministicConfig();
    Harness whole;
    auto reference = referenceRun(config, whole);
    double now = 0; // the resumed runs' own clock
    REQUIRE(reference->games().size() == 12);

    // Cut mid-run: at least 5 games over, and the LLM (participant 0) 6 plies into a running game.
    Harness first;
    const TournamentBundle stored = bundleMidRun(config, first, [](const TournamentRunner& r) {
        return r.games().size() >= 5 && runningWith(r, 0, 6);
    });
    const std::vector<GameRecord>& games = stored.games;
    const GameRecord* cutPtr = longestUnfinished(games, 0);
    REQUIRE(cutPtr != nullptr);
    const GameRecord cut = *cutPtr;
    REQUIRE(cut.moves.size() >= 6);
    const size_t kept =
        size_t(std::count_if(games.begin(), games.end(), [](const GameRecord& g) { return g.finished(); }));
    const int unfinished = int(games.size() - kept);
    double cutCostUsd = 0;
    for (const TurnRecord& t : cut.moves) cutCostUsd += t.costUsd;
    CHECK(cutCostUsd > 0);

    Harness second;
    auto resumed = makeRunner(stored.config, second, games);
    CHECK(resumed->games().size() == kept);
    CHECK(resumed->pendingResumes() == unfinished);
    const double before = recordedCostUsd(games); // the unfinished games' turns count too
    CHECK(resumed->budget().spentUsd() == doctest::Approx(before));
    CHECK(resumed->snapshot() == games); // nothing is lost before the games start again
    CHECK(resumed->takeEvents().empty());

    resumed->start(now);
    CHECK(resumed->pendingResumes() == 0);
    const LiveGame* live = findLive(*resumed, cut.pairing.id);
    REQUIRE(live != nullptr);
    CHECK(live->match->game().startPosition().fen() == cut.startFen);
    REQUIRE(live->match->moves().size() >= cut.moves.size());
    for (size_t i = 0; i < cut.moves.size(); ++i) CHECK(live->match->moves()[i].uci == cut.moves[i].uci);
    bool announced = false;
    for (const RunnerEvent& e : resumed->takeEvents())
        if (e.kind == RunnerEvent::Kind::GameStarted && e.gameId == cut.pairing.id)
            announced = e.message.find("continued after " + std::to_string(cut.moves.size()) + " plies") !=
                        std::string::npos;
    CHECK(announced);

    runChecked(second, *resumed, now);
    REQUIRE(resumed->done());
    REQUIRE(resumed->games().size() == 12);
    const GameRecord* done = findGame(resumed->games(), cut.pairing.id);
    REQUIRE(done != nullptr);
    REQUIRE(done->moves.size() >= cut.moves.size());
    // The record keeps the restored turns as they were (costs, tokens, attempts), then the new ones.
    CHECK(std::vector<TurnRecord>(done->moves.begin(),
                                  done->moves.begin() + std::ptrdiff_t(cut.moves.size())) == cut.moves);
    // Each LLM move was asked for once over both runs: the snapshot's LLM turns and the resumed
    // run's requests make the uninterrupted run's requests.
    int llmTurns = 0;
    for (const GameRecord& g : games)
        for (size_t i = 0; i < g.moves.size(); ++i) llmTurns += g.moverOf(i) == 0;
    CHECK(llmTurns + int(second.chat.requests().size()) == int(whole.chat.requests().size()));
    CHECK(resumed->budget().spentUsd() ==
          doctest::Approx(before + 0.001 * double(second.chat.requests().size())));
    CHECK(resumed->budget().spentUsd() == doctest::Approx(reference->budget().spentUsd()));
    // So the tournament is the uninterrupted one, game for game, and so is the leaderboard.
    CHECK(byId(resumed->games()) == byId(reference->games()));
    const Leaderboard a = computeLeaderboard(config, resumed->games());
    const Leaderboard b = computeLeaderboard(config, reference->games());
    for (const LeaderboardRow& r : a.rows) {
        const LeaderboardRow& s = rowOf(b, r.participant);
        CHECK(r.rating == doctest::Approx(s.rating));
        CHECK(r.wins == s.wins);
        CHECK(r.draws == s.draws);
        CHECK(r.losses == s.losses);
        CHECK(r.turns == s.turns);
        CHECK(r.costUsd == doctest::Approx(s.costUsd));
    }
    CHECK(rowOf(a, 0).costUsd == doctest::Approx(resumed->budget().spentUsd()));
    // And the final bundle reproduces its own leaderboard exactly.
    const TournamentBundle finalBundle = resumed->bundle();
    Parsed<TournamentBundle> back = importBundle(*exportBundle(finalBundle).value);
    REQUIRE(back.ok());
    CHECK(
        sameLeaderboard(computeLeaderboard(back.value->config, back.value->games), *finalBundle.leaderboard));
}

TEST_CASE("tournament runner: a resumed game under the ticker continues held, one move per tick") {
    TournamentConfig config =
        makeConfig({"engine:0", "engine:0", "engine:0", "engine:0"}, Format::RoundRobin, 1, 2);
    config.tempo = Tempo::Ticker;
    config.tickerSeconds = 60;
    Harness h;
    auto runner = makeRunner(config, h);
    runner->start(0);
    for (int tick = 1; tick <= 5; ++tick) h.tick(*runner, 60000.0 * tick);
    const std::vector<GameRecord> snapshot = runner->snapshot();
    REQUIRE(snapshot.size() == 2);
    for (const GameRecord& g : snapshot) REQUIRE(g.moves.size() == 6); // the start's tick and five more

    Harness again;
    auto resumed = makeRunner(config, again, snapshot);
    resumed->start(1e6); // the first tick fires at the start
    REQUIRE(resumed->liveGames().size() == 2);
    for (int i = 0; i < 5; ++i) again.tick(*resumed, 1e6 + 10);
    for (const auto& g : resumed->liveGames()) {
        const GameRecord* before = findGame(snapshot, g->pairing.id);
        REQUIRE(before != nullptr);
        CHECK(g->match->held());
        REQUIRE(g->match->moves().size() == 7);
        for (size_t i = 0; i < 6; ++i) CHECK(g->match->moves()[i].uci == before->moves[i].uci);
    }
    again.tick(*resumed, 1e6 + 60000);
    for (const auto& g : resumed->liveGames()) CHECK(g->match->moves().size() == 8);
}

TEST_CASE("tournament runner: an unfinished record that cannot be replayed is played again, with an event") {
    const TournamentConfig config = deterministicConfig();
    Harness whole;
    auto reference = referenceRun(config, whole);
    double now = 0; // the resumed runs' own clock

    Harness first;
    const TournamentBundle stored = bundleMidRun(config, first, [](const TournamentRunner& r) {
        return r.games().size() >= 3 && runningWith(r, 0, 4);
    });
    std::vector<GameRecord> games = stored.games;
    const GameRecord* cutPtr = longestUnfinished(games, 0);
    REQUIRE(cutPtr != nullptr);
    REQUIRE(cutPtr->moves.size() >= 4);
    const int id = cutPtr->pairing.id;
    GameRecord& cut = games[size_t(cutPtr - games.data())];
    const double cutCostUsd = recordedCostUsd({cut});
    const int unfinished =
        int(std::count_if(games.begin(), games.end(), [](const GameRecord& g) { return !g.finished(); }));
    std::string why;
    SUBCASE("an illegal move") {
        cut.moves[2].uci = "a1a8";
        why = "move 3 'a1a8' is not a legal move";
    }
    SUBCASE("a SAN that names another move") {
        cut.moves[1].san = "Qh4";
        why = "move 2 '" + cut.moves[1].uci + "' is ";
    }
    SUBCASE("another start position") {
        cut.startFen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
        why = "start position";
    }
    CAPTURE(why);

    Harness second;
    auto resumed = makeRunner(config, second, games);
    const std::vector<RunnerEvent> events = resumed->takeEvents();
    REQUIRE(events.size() == 1);
    CHECK(events[0].kind == RunnerEvent::Kind::GameAbandoned);
    CHECK(events[0].gameId == id);
    CHECK(events[0].message.find("cannot continue") != std::string::npos);
    CHECK(events[0].message.find(why) != std::string::npos);
    CHECK(events[0].message.find("played again from the start") != std::string::npos);
    CHECK(resumed->pendingResumes() == unfinished - 1);
    CHECK(resumed->budget().spentUsd() == doctest::Approx(recordedCostUsd(games) - cutCostUsd));

    resumed->start(now);
    runChecked(second, *resumed, now);
    REQUIRE(resumed->done());
    // Played from its first move: the same game as without the interruption.
    const GameRecord* done = findGame(resumed->games(), id);
    const GameRecord* expected = findGame(reference->games(), id);
    REQUIRE(done != nullptr);
    REQUIRE(expected != nullptr);
    CHECK(*done == *expected);
    CHECK(byId(resumed->games()) == byId(reference->games()));
}

TEST_CASE("tournament runner: a resumed Chess960 game replays castling written as king takes rook") {
    TournamentConfig config = makeConfig({"engine:0", "engine:0"}, Format::RoundRobin, 1, 1);
    config.chess960 = true;
    // A seed whose first game starts from position 518 (the standard array), for a known castling.
    std::optional<Pairing> pairing;
    for (config.seed = 1; config.seed < 100000; ++config.seed) {
        Scheduler scheduler(schedulerConfig(config));
        pairing = scheduler.next();
        REQUIRE(pairing.has_value());
        if (pairing->seededStart == 518) break;
    }
    REQUIRE(pairing->seededStart == 518);
    GameRecord record;
    record.pairing = *pairing;
    chess::Position pos = chess::Position::chess960(518);
    record.startFen = pos.fen();
    for (const char* san : {"e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "O-O"}) {
        const chess::MoveResult m = chess::parseSan(pos, san);
        REQUIRE_MESSAGE(m.ok(), m.error);
        TurnRecord t;
        t.san = san;
        t.uci = chess::toUci(pos, m.move);
        t.costUsd = 0.5;
        t.reasoning = std::string("plays ") + san;
        t.attempts = 3; // kept as recorded: one answer illegal, one malformed
        t.illegalAttempts = 1;
        t.promptTokens = 10;
        t.completionTokens = 5;
        record.moves.push_back(t);
        pos.makeMove(m.move);
    }
    REQUIRE(record.moves.back().uci == "e1h1");

    SUBCASE("king takes rook: the game continues after the castling") {
        Harness h;
        auto runner = makeRunner(config, h, {record});
        CHECK(runner->takeEvents().empty());
        CHECK(runner->budget().spentUsd() == doctest::Approx(3.5));
        runner->start(0);
        REQUIRE(runner->liveGames().size() == 1);
        const MatchRunner& match = *runner->liveGames()[0]->match;
        REQUIRE(match.moves().size() >= 7);
        CHECK(match.moves()[6].move.isCastling());
        CHECK(match.moves()[6].uci == "e1h1");
        double now = 0;
        runChecked(h, *runner, now);
        REQUIRE(runner->games().size() == 1);
        const GameRecord& done = runner->games()[0];
        REQUIRE(done.moves.size() >= 7);
        CHECK(std::vector<TurnRecord>(done.moves.begin(), done.moves.begin() + 7) == record.moves);
    }
    SUBCASE("the king's two-square step is not Chess960 UCI") {
        record.moves.back().uci = "e1g1";
        Harness h;
        auto runner = makeRunner(config, h, {record});
        const std::vector<RunnerEvent> events = runner->takeEvents();
        REQUIRE(events.size() == 1);
        CHECK(events[0].message.find("move 7 'e1g1' is not a legal move") != std::string::npos);
        CHECK(runner->pendingResumes() == 0);
        CHECK(runner->budget().spentUsd() == 0);
    }
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

TEST_CASE("tournament runner: each game records when it started and ended, a resumed one keeps its start") {
    const TournamentConfig config =
        makeConfig({"engine:0", "engine:0", "engine:0", "engine:0"}, Format::RoundRobin, 1, 2);
    int64_t clock = 1740830400; // 2025-03-01T12:00:00Z, a minute more at each reading
    RunnerOptions options;
    options.backoffMs = 10;
    options.clock = [&clock] { return clock += 60; };
    Harness h;
    auto created = TournamentRunner::create(config, h.factory(), {}, options);
    REQUIRE_MESSAGE(created.ok(), created.error);
    TournamentRunner& runner = **created.value;
    double now = 0;
    runner.start(now);
    for (int i = 0; i < 3; ++i) h.tick(runner, now += 100);
    const std::vector<GameRecord> running = runner.snapshot();
    REQUIRE_FALSE(running.empty());
    for (const GameRecord& g : running) {
        CHECK(g.startedAt > 1740830400);
        CHECK(g.finishedAt == 0); // still running
    }
    runChecked(h, runner, now);
    REQUIRE(runner.done());
    for (const GameRecord& g : runner.games()) {
        CHECK(g.startedAt > 1740830400);
        CHECK(g.finishedAt > g.startedAt);
    }
    // Stopped midway and resumed: the unfinished game keeps the time it first started.
    Harness again;
    options.clock = [&clock] { return clock += 60; };
    auto resumed = TournamentRunner::create(config, again.factory(), running, options);
    REQUIRE_MESSAGE(resumed.ok(), resumed.error);
    (*resumed.value)->start(0);
    double later = 0;
    runChecked(again, **resumed.value, later);
    for (const GameRecord& g : (*resumed.value)->games()) {
        const GameRecord* before = findGame(running, g.pairing.id);
        if (before && !before->moves.empty()) CHECK(g.startedAt == before->startedAt);
    }
}
