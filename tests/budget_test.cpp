// Budget: the estimate from catalog prices and the schedule, the hard cap while running.
#include "src/modes/chess/cost_estimate.h"

#include <doctest/doctest.h>

#include <cmath>

using namespace chaiba::chessmode;

namespace {

std::optional<ModelPrice> catalog(const std::string& model) {
    if (model == "a/cheap") return ModelPrice{1e-6, 2e-6};
    if (model == "b/dear") return ModelPrice{1e-5, 3e-5};
    return std::nullopt;
}

} // namespace

TEST_CASE("budget estimate: prices x expected tokens x scheduled games") {
    TournamentConfig c;
    c.participants = {
        {"llm:a/cheap", "", -1}, {"llm:b/dear", "", -1}, {"engine:2", "", -1}, {"llm:c/unknown", "", -1}};
    c.format = Format::DoubleRoundRobin;
    c.games = 1;
    TokenExpectation t;
    t.movesPerGame = 40;
    t.promptTokensPerMove = 1000;
    t.completionTokensPerMove = 500;
    t.attemptsPerMove = 1.0;
    const BudgetEstimate e = estimateBudget(c, catalog, t);
    CHECK(e.games == 12);
    CHECK(e.gamesPerParticipant == std::vector<double>{6, 6, 6, 6});
    // cheap: (1000*1e-6 + 500*2e-6) = 0.002 per move, x40 moves x6 games = 0.48
    CHECK(e.perParticipantUsd[0] == doctest::Approx(0.48));
    // dear: (1000*1e-5 + 500*3e-5) = 0.025 per move -> 6.0
    CHECK(e.perParticipantUsd[1] == doctest::Approx(6.0));
    CHECK(e.perParticipantUsd[2] == 0.0);
    CHECK(e.perParticipantUsd[3] == 0.0);
    CHECK(e.unpricedModels == std::vector<std::string>{"c/unknown"});
    CHECK(e.totalUsd == doctest::Approx(6.48));
    CHECK(!e.exceedsCap);
    c.budgetUsd = 5.0;
    CHECK(estimateBudget(c, catalog, t).exceedsCap);
}

TEST_CASE("budget estimate: games per participant in each format") {
    TournamentConfig c;
    c.participants = {{"random", "a", -1}, {"random", "b", -1}, {"random", "c", -1}, {"random", "d", -1}};
    c.games = 10;
    c.format = Format::Arena;
    CHECK(expectedGamesPerParticipant(c) == std::vector<double>{5, 5, 5, 5});
    c.format = Format::RoundRobin;
    c.games = 1;
    CHECK(expectedGamesPerParticipant(c) == std::vector<double>{3, 3, 3, 3});
    c.format = Format::Gauntlet;
    c.games = 2;
    c.gauntletPlayer = 1;
    CHECK(expectedGamesPerParticipant(c) == std::vector<double>{2, 6, 2, 2});
    CHECK(estimateBudget(c, nullptr).games == 6);
}

TEST_CASE("budget tracker: the hard cap stops new requests once reached") {
    BudgetTracker t(1.0, 2);
    CHECK(!t.capReached());
    CHECK(t.allows(0.6));
    t.add(0, 0.6);
    CHECK(!t.allows(0.5));
    CHECK(t.allows(0.4));
    t.add(1, 0.3);
    CHECK(t.spentUsd() == doctest::Approx(0.9));
    CHECK(t.spentUsd(0) == doctest::Approx(0.6));
    CHECK(t.spentUsd(1) == doctest::Approx(0.3));
    CHECK(*t.remainingUsd() == doctest::Approx(0.1));
    t.add(0, -5);           // ignored
    t.add(0, std::nan("")); // ignored
    CHECK(!t.capReached());
    t.add(1, 0.1);
    CHECK(t.capReached());
    CHECK(*t.remainingUsd() == 0.0);
    CHECK(t.spentUsd(7) == 0.0); // unknown participant: nothing

    BudgetTracker unlimited(std::nullopt, 1);
    unlimited.add(0, 1e6);
    CHECK(!unlimited.capReached());
    CHECK(unlimited.allows(1e9));
    CHECK(!unlimited.remainingUsd());
}

// The 14x-low estimate: one figure for 80-ply games with a flat prompt, where weak players' games ran
// 336-473 plies with a prompt growing every ply. The range: the prompts alone of typical games up to
// every game at the ply limit with the grown prompt; a short limit shortens the typical game.
TEST_CASE("budget estimate: a range from typical games to every game at the ply limit, the prompt growing") {
    TournamentConfig c;
    c.participants = {{"llm:a/cheap", "", -1}, {"random", "", -1}};
    c.format = Format::RoundRobin;
    c.games = 1;
    c.maxPlies = 400;
    TokenExpectation t;
    t.movesPerGame = 40;
    t.promptTokensPerMove = 3000; // the flat average over the measured 80-ply game
    t.promptBaseTokens = 1000;    // ... of a prompt growing 50 tokens a ply
    t.promptGrowthPerPly = 50;
    t.completionTokensPerMove = 400;
    t.attemptsPerMove = 1.0;
    const BudgetEstimate e = estimateBudget(c, catalog, t);
    REQUIRE(e.gamesPerParticipant[0] == 1);
    CHECK(e.typicalPlies == 80);
    CHECK(e.longestPlies == 400);
    // Typical: 40 moves x (3000 x 1e-6 + 400 x 2e-6) = 0.152.
    CHECK(e.totalUsd == doctest::Approx(0.152));
    // Lower end: the typical game's prompts alone: sum over 40 moves of (1000 + 50 x 2m) tokens.
    double prompts = 0;
    for (int m = 0; m < 40; ++m) prompts += 1000 + 50 * 2 * m;
    CHECK(e.fromUsd == doctest::Approx(prompts * 1e-6));
    // Upper end: 200 moves at the limit, the prompt grown to ~21 000 tokens: about 15 times the
    // typical figure, not 5 times as a flat prompt would say.
    double grown = 0;
    for (int m = 0; m < 200; ++m) grown += (1000 + 50 * 2 * m) * 1e-6 + 400 * 2e-6;
    CHECK(e.upToUsd == doctest::Approx(grown));
    CHECK(e.upToUsd > 10 * e.totalUsd);
    // A 24-ply limit: the typical game is 24 plies, and both ends describe such games.
    c.maxPlies = 24;
    const BudgetEstimate shortGames = estimateBudget(c, catalog, t);
    CHECK(shortGames.typicalPlies == 24);
    CHECK(shortGames.longestPlies == 24);
    CHECK(shortGames.fromUsd < shortGames.totalUsd);
    CHECK(shortGames.upToUsd >= shortGames.totalUsd);
}

TEST_CASE("budget estimate: a change of format says the new number of games and the estimate") {
    TournamentConfig arena;
    arena.participants = {{"llm:a/cheap", "", -1}, {"llm:b/dear", "", -1}, {"engine:1", "", -1},
                          {"engine:3", "", -1}, {"random", "", -1}, {"engine:5", "", -1}};
    arena.format = Format::Arena;
    arena.games = 60;
    const BudgetEstimate before = estimateBudget(arena, catalog);
    TournamentConfig robin = arena;
    robin.format = Format::RoundRobin;
    const BudgetEstimate after = estimateBudget(robin, catalog);
    REQUIRE(before.games == 60);
    REQUIRE(after.games == 15 * 60); // 15 pairs of 6, 60 meetings each
    const std::string note = formatChangeNote(before, robin, after);
    CHECK(note.rfind("Round robin: 60 meetings per pair make 900 games (it was 60); the estimate is now $", 0) == 0);
    CHECK(note.find("(it was $") != std::string::npos);
    CHECK(after.upToUsd > before.upToUsd * 10);
    // Back to the arena: 60 games in total again.
    CHECK(formatChangeNote(after, arena, before).rfind("Continuous arena: 60 games in total make 60 games (it was 900)", 0) == 0);
    // Nothing to say when the number of games stays.
    CHECK(formatChangeNote(after, robin, after).empty());
}
