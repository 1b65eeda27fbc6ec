// Arena pairing rules (play/scheduler.h): most-informative pairing prefers even, little-known and
// cheap pairs; the leaderboard's games to ±50 follows the interval's 1/sqrt(games) shrinkage.
#include "src/modes/chess/leaderboard.h"
#include "src/play/scheduler.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

using namespace chaiba;

namespace {
play::SchedulerConfig arena(std::vector<double> ratings) {
    play::SchedulerConfig c;
    c.format = play::Format::Arena;
    c.players = int(ratings.size());
    c.games = 10;
    c.maxConcurrent = 1;
    c.initialRatings = std::move(ratings);
    c.pairing = play::ArenaPairing::MostInformative;
    return c;
}
} // namespace

TEST_CASE("pairing: most informative picks the even pair, then the cheap one") {
    CHECK(play::parseArenaPairing("informative") == play::ArenaPairing::MostInformative);
    CHECK(play::arenaPairingName(play::ArenaPairing::NearestRating) == "nearest");
    CHECK_FALSE(play::parseArenaPairing("random").has_value());
    {
        // Player 3 is far stronger: a game with it tells little; 0-1, 0-2 and 1-2 are even.
        play::Scheduler s(arena({1500, 1500, 1500, 2600}));
        const auto p = s.next();
        REQUIRE(p);
        CHECK(p->white != 3);
        CHECK(p->black != 3);
        const double before = s.information()[size_t(p->white)];
        s.onGameFinished(p->id, play::Outcome::Draw);
        CHECK(s.information()[size_t(p->white)] == doctest::Approx(before + 0.25));
        // The next game involves the player not yet rated among the even three.
        const auto q = s.next();
        REQUIRE(q);
        const int fresh = 3 - p->white - p->black; // 0 + 1 + 2 = 3
        CHECK((q->white == fresh || q->black == fresh));
    }
    {
        // Players 0 and 1 cost a dollar a game, 2 and 3 a cent: the cheap pair first.
        play::SchedulerConfig c = arena({1500, 1500, 1500, 1500});
        c.costPerGameUsd = {1.0, 1.0, 0.01, 0.01};
        play::Scheduler s(c);
        const auto p = s.next();
        REQUIRE(p);
        CHECK(std::min(p->white, p->black) == 2);
        CHECK(std::max(p->white, p->black) == 3);
    }
}

TEST_CASE("leaderboard: games to ±50 from the interval width") {
    chessmode::TournamentConfig config;
    config.participants = {{"random", "", -1}, {"engine:1", "", 1020}, {"engine:2", "", -1}};
    std::vector<chessmode::GameRecord> games;
    for (int i = 0; i < 6; ++i) {
        chessmode::GameRecord g;
        g.pairing = {i, i % 2 == 0 ? 0 : 1, i % 2 == 0 ? 1 : 0, i + 1, -1, -1};
        g.startFen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        g.result = i % 2 == 0 ? chessmode::GameResult::BlackWins : chessmode::GameResult::WhiteWins;
        g.termination = chessmode::Termination::Checkmate;
        games.push_back(g);
    }
    const chessmode::Leaderboard board = chessmode::computeLeaderboard(config, games);
    for (const chessmode::LeaderboardRow& r : board.rows) {
        CAPTURE(r.participant);
        if (r.participant == 1) CHECK(r.gamesToPlusMinus50 == 0); // anchored
        if (r.participant == 2) CHECK(r.gamesToPlusMinus50 == -1); // no game yet
        if (r.participant == 0) {
            const double half = (r.ratingHigh - r.ratingLow) / 2;
            REQUIRE(half > 50);
            CHECK(r.gamesToPlusMinus50 == int(std::ceil(6 * (half / 50) * (half / 50))) - 6);
        }
    }
}
