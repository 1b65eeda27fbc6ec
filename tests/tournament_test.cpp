// Tournament model: config validation, openings (FENs checked with chess.js),
// termination/result names, GameRecord movers, failure rules, API-key detection.
#include "src/modes/chess/tournament.h"

#include "engine/search/levels.h"

#include <doctest/doctest.h>

#include <cmath>

using namespace chaiba::chessmode;

namespace {

TournamentConfig threePlayers() {
    TournamentConfig c;
    c.participants = {{"llm:openai/gpt-4o", "", -1}, {"engine:3", "", 1400}, {"random", "", -1}};
    c.format = Format::RoundRobin;
    c.games = 2;
    return c;
}

} // namespace

TEST_CASE("config validation: one clear message per problem") {
    CHECK(!validateConfig(threePlayers()));
    TournamentConfig c = threePlayers();
    c.participants.resize(1);
    CHECK(validateConfig(c) == "a tournament needs at least 2 participants");
    c = threePlayers();
    c.participants[1].spec = "engine:x";
    CHECK(validateConfig(c) == "participant 2: engine level must be a number from 0 to 30 in 'engine:x'");
    c = threePlayers();
    c.participants.push_back({"random", "", -1});
    CHECK(validateConfig(c) == "participant 4: 'random' appears twice; give one of them another name");
    c.participants[3].name = "random 2";
    CHECK(!validateConfig(c));
    c = threePlayers();
    c.chess960 = true;
    c.openings = {{"e4", "", {"e2e4"}}};
    CHECK(validateConfig(c) == "Chess960 and an opening suite cannot be combined");
    c.chess960 = false;
    c.openings.push_back({"bad", "", {"e2e5"}});
    CHECK(validateConfig(c) == "opening 2: move 1 'e2e5' is not a legal UCI move");
    c = threePlayers();
    c.concurrency = 0;
    CHECK(validateConfig(c) == "concurrency must be from 1 to 64");
    c = threePlayers();
    c.budgetUsd = -1;
    CHECK(validateConfig(c) == "the budget must be a non-negative number of dollars");
    c = threePlayers();
    c.games = 0;
    CHECK(validateConfig(c) == "the number of games must be at least 1");
    c = threePlayers();
    c.format = Format::Gauntlet;
    c.gauntletPlayer = 3;
    CHECK(validateConfig(c) == "the gauntlet player must be one of the participants");
    c = threePlayers();
    c.participants[0].anchorElo = std::nan("");
    CHECK(validateConfig(c).has_value());
    c = threePlayers();
    c.contextWindowMoves = 0;
    CHECK(validateConfig(c) == "the context window must be from 1 to 500 moves");
    c = threePlayers();
    c.gameTokenBudget = 0;
    CHECK(validateConfig(c) == "the per-game token budget must be from 1 to 1000000000000 tokens");
    c.gameTokenBudget = 5000;
    CHECK(!validateConfig(c));
}

TEST_CASE("config: a key-like string is refused wherever it hides") {
    TournamentConfig c = threePlayers();
    c.participants[0].name = "sk-or-" "v1-0123456789abcdef0123456789abcdef";
    CHECK(validateConfig(c) == "participant 1: looks like an API key; keys never go into a tournament");
    c = threePlayers();
    c.name = "my run Bearer abc";
    CHECK(validateConfig(c).has_value());
    CHECK(looksLikeApiKey("sk-or-" "v1-0123456789abcdef0123456789abcdef"));
    CHECK(looksLikeApiKey("key=sk-proj-ABCDEFGHIJKLMNOPQRSTUV"));
    CHECK(!looksLikeApiKey("llm:openai/gpt-4o"));
    CHECK(!looksLikeApiKey("risk-taking engine"));
    CHECK(!looksLikeApiKey("sk-short"));
}

TEST_CASE("scheduler config and anchors follow the participants") {
    const TournamentConfig c = threePlayers();
    const SchedulerConfig s = schedulerConfig(c);
    CHECK(s.players == 3);
    CHECK(s.format == Format::RoundRobin);
    CHECK(s.games == 2);
    CHECK(s.initialRatings == std::vector<double>{1500, 1400, 1500});
    CHECK(anchorRatings(c) == std::vector<double>{-1, 1400, -1});
}

TEST_CASE("openings: start FENs after UCI moves match chess.js") {
    const Parsed<std::string> italian =
        openingStartFen({"Italian", "", {"e2e4", "e7e5", "g1f3", "b8c6", "f1c4"}});
    REQUIRE(italian.ok());
    CHECK(*italian.value == "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3");
    const Parsed<std::string> castle = openingStartFen(
        {"", "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4", {"e1g1"}});
    REQUIRE(castle.ok());
    CHECK(*castle.value == "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 5 4");
    CHECK(openingStartFen({"", "not a fen", {}}).error.rfind("bad FEN: ", 0) == 0);
    CHECK(openingStartFen({"", "", {"e2e4", "e2e4"}}).error == "move 2 'e2e4' is not a legal UCI move");
}

TEST_CASE("names round-trip: terminations, results, tempo") {
    for (int t = 0; t <= int(Termination::ForfeitTokenBudget); ++t) {
        const Termination term = Termination(t);
        CHECK(parseTermination(terminationName(term)) == term);
    }
    CHECK(isForfeit(Termination::ForfeitTimeout));
    CHECK(isForfeit(Termination::ForfeitTokenBudget));
    CHECK(terminationName(Termination::ForfeitTokenBudget) == "forfeit_token_budget"); // stable: bundles keep it
    CHECK(!isForfeit(Termination::Checkmate));
    CHECK(!isForfeit(Termination::MoveLimit));
    CHECK(parseTermination("resigned") == std::nullopt);
    for (GameResult r :
         {GameResult::Unfinished, GameResult::WhiteWins, GameResult::Draw, GameResult::BlackWins})
        CHECK(parseResultText(resultText(r)) == r);
    CHECK(parseTempo(tempoName(Tempo::Ticker)) == Tempo::Ticker);
    CHECK(parseTempo("slow") == std::nullopt);
}

TEST_CASE("GameRecord: the mover of each move follows the start's side to move") {
    GameRecord g;
    g.pairing.white = 4;
    g.pairing.black = 7;
    g.startFen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    CHECK(g.moverOf(0) == 4);
    CHECK(g.moverOf(1) == 7);
    g.startFen = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3";
    CHECK(g.moverOf(0) == 7);
    CHECK(g.moverOf(3) == 4);
    g.moves.resize(1);
    CHECK(g.openTurnPlayer() == 4);
}

TEST_CASE("failure rules: retries, backoffs, forfeits and pauses as in the issue") {
    CHECK(actionAfterFailure(FailureKind::IllegalMove, 1) == FailureAction::Retry);
    CHECK(actionAfterFailure(FailureKind::IllegalMove, 3) == FailureAction::Retry);
    CHECK(actionAfterFailure(FailureKind::IllegalMove, 4) == FailureAction::Forfeit);
    CHECK(actionAfterFailure(FailureKind::MalformedAnswer, 1) == FailureAction::Retry);
    CHECK(actionAfterFailure(FailureKind::MalformedAnswer, 2) == FailureAction::Forfeit);
    CHECK(actionAfterFailure(FailureKind::Timeout, 3) == FailureAction::Retry);
    CHECK(actionAfterFailure(FailureKind::Timeout, 4) == FailureAction::Forfeit);
    CHECK(actionAfterFailure(FailureKind::RateLimited, 5) == FailureAction::Backoff);
    CHECK(actionAfterFailure(FailureKind::RateLimited, 6) == FailureAction::Forfeit);
    CHECK(actionAfterFailure(FailureKind::ServerError, 3) == FailureAction::Backoff);
    CHECK(actionAfterFailure(FailureKind::ServerError, 4) == FailureAction::Forfeit);
    CHECK(actionAfterFailure(FailureKind::Unauthorized, 1) == FailureAction::PauseTournament);
    CHECK(actionAfterFailure(FailureKind::PaymentRequired, 9) == FailureAction::PauseTournament);
    CHECK(forfeitTermination(FailureKind::Timeout) == Termination::ForfeitTimeout);
    CHECK(forfeitTermination(FailureKind::RateLimited) == Termination::ForfeitRateLimited);
    CHECK(failureRules().size() == 7);
    for (const FailureRule& r : failureRules()) {
        CHECK(&failureRule(r.kind) == &r);
        CHECK(!failureKindName(r.kind).empty());
        if (r.action != FailureAction::PauseTournament) CHECK(isForfeit(forfeitTermination(r.kind)));
    }
    CHECK(failureFromHttpStatus(401) == FailureKind::Unauthorized);
    CHECK(failureFromHttpStatus(402) == FailureKind::PaymentRequired);
    CHECK(failureFromHttpStatus(408) == FailureKind::Timeout);
    CHECK(failureFromHttpStatus(429) == FailureKind::RateLimited);
    CHECK(failureFromHttpStatus(503) == FailureKind::ServerError);
    CHECK(failureFromHttpStatus(200) == std::nullopt);
    // Failure kinds come from the typed error, never from a number in its message.
    CHECK(failureKindOf(chaiba::llm::ChatError{chaiba::llm::ChatErrorKind::ServerError, 500, "upstream said 402", std::nullopt}) ==
          FailureKind::ServerError);
    CHECK(failureKindOf(chaiba::llm::ChatError{chaiba::llm::ChatErrorKind::Transport, 0, "HTTP 401 at the proxy", std::nullopt}) ==
          FailureKind::ServerError);
    CHECK(failureKindOf(chaiba::llm::ChatError{chaiba::llm::ChatErrorKind::InsufficientCredits, 402, "no credits", std::nullopt}) ==
          FailureKind::PaymentRequired);
    CHECK(failureKindOf(chaiba::llm::ChatError{chaiba::llm::ChatErrorKind::BadRequest, 429, "slow down", std::nullopt}) ==
          FailureKind::RateLimited);
    CHECK(seatFailureOf(chaiba::llm::ChatError{chaiba::llm::ChatErrorKind::Unauthorized, 401, "bad key", std::nullopt}) ==
          SeatFailure{FailureKind::Unauthorized, "bad key", 401});
    CHECK(failureFromHttpStatus(404) == std::nullopt);
}

TEST_CASE("failure rules: as a chat call's caps per error kind, each rule's requests") {
    using chaiba::llm::ChatErrorKind;
    const chaiba::llm::RequestCaps caps = chaiba::play::requestCapsOfRules();
    const auto capOf = [&caps](ChatErrorKind kind) { return caps[static_cast<std::size_t>(kind)]; };
    CHECK(capOf(ChatErrorKind::MalformedResponse) == 2);
    CHECK(capOf(ChatErrorKind::Timeout) == 4);
    CHECK(capOf(ChatErrorKind::ServerError) == 4);
    CHECK(capOf(ChatErrorKind::Transport) == 4);
    CHECK(capOf(ChatErrorKind::RateLimited) == 6);
    CHECK(capOf(ChatErrorKind::Unauthorized) == 1);
    CHECK(capOf(ChatErrorKind::InsufficientCredits) == 1);
}

TEST_CASE("engine anchors: filled from the calibration table, explicit anchors kept") {
    TournamentConfig c;
    c.participants = {{"engine", "", -1}, {"engine:4", "", 1234}, {"random", "", -1}, {"llm:x/y", "", -1}};
    fillEngineAnchors(c,
                      [](int level) -> std::optional<double> { return level < 0 ? 2500.0 : 300.0 + level; });
    CHECK(anchorRatings(c) == std::vector<double>{2500, 1234, 300, -1});
    fillEngineAnchors(c, nullptr); // no table: nothing changes
    CHECK(anchorRatings(c) == std::vector<double>{2500, 1234, 300, -1});
}

TEST_CASE("ticker: one tick at start, then one per period, missed ticks caught up") {
    Ticker t(60);
    CHECK(t.msUntilNextTick(0) == 0);
    CHECK(t.advance(1000) == 1);
    CHECK(t.ticks() == 1);
    CHECK(t.msUntilNextTick(1000) == doctest::Approx(60000));
    CHECK(t.advance(30000) == 0);
    CHECK(t.advance(61000) == 1);
    CHECK(t.ticks() == 2);
    CHECK(t.advance(61500) == 0);
    CHECK(t.advance(1000 + 5 * 60000) == 4); // the ticks at 2, 3, 4 and 5 periods were due
    CHECK(t.ticks() == 6);
    CHECK(t.advance(500) == 0); // a clock going backwards fires nothing
    t.reset();
    CHECK(t.ticks() == 0);
    CHECK(t.advance(7) == 1);
}

TEST_CASE("restoreSchedule: finished games count, unfinished ones are running again") {
    TournamentConfig c;
    c.participants = {{"random", "a", -1}, {"random", "b", -1}, {"random", "c", -1}, {"random", "d", -1}};
    c.format = Format::DoubleRoundRobin;
    c.games = 1;
    c.concurrency = 2;
    Scheduler original(schedulerConfig(c));
    std::vector<GameRecord> records;
    for (int i = 0; i < 5; ++i) {
        auto p = original.next();
        REQUIRE(p);
        GameRecord g;
        g.pairing = *p;
        g.result = i == 4 ? GameResult::Unfinished : GameResult::Draw;
        g.termination = i == 4 ? Termination::Unfinished : Termination::Stalemate;
        if (i < 4) original.onGameFinished(p->id, Outcome::Draw);
        records.push_back(g);
    }
    Scheduler resumed(schedulerConfig(c));
    CHECK(!restoreSchedule(resumed, records));
    CHECK(resumed.gamesFinished() == 4);
    CHECK(resumed.inFlight() == 1);
    CHECK(resumed.busy(records[4].pairing.white));
    const auto a = original.next();
    const auto b = resumed.next();
    REQUIRE(a);
    REQUIRE(b);
    CHECK(*a == *b);

    Scheduler other(schedulerConfig(c));
    records[1].pairing.white = records[1].pairing.black; // not a game of this schedule
    CHECK(restoreSchedule(other, records) == "game 2 (id 1) does not fit the tournament's schedule");
}
