// Leaderboard: W/D/L, forfeits, illegal attempts per 100 moves, costs and tokens from hand-built
// game records; ratings and ranks consistent with the rating code; forfeit exclusion; the rating
// history for the plot.
#include "src/modes/chess/leaderboard.h"

#include <doctest/doctest.h>

using namespace chaiba::chessmode;

namespace {

const char* kStart = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

TurnRecord turn(std::string uci, double cost, long long prompt, long long completion, int illegal = 0) {
    TurnRecord t;
    t.uci = std::move(uci);
    t.costUsd = cost;
    t.promptTokens = prompt;
    t.completionTokens = completion;
    t.illegalAttempts = illegal;
    t.attempts = 1 + illegal;
    return t;
}

GameRecord record(int id, int white, int black, GameResult result, Termination termination) {
    GameRecord g;
    g.pairing.id = id;
    g.pairing.white = white;
    g.pairing.black = black;
    g.startFen = kStart;
    g.result = result;
    g.termination = termination;
    return g;
}

// A = llm (0), B = engine anchored at 1400 (1), C = random (2).
TournamentConfig config() {
    TournamentConfig c;
    c.participants = {{"llm:a/model", "A", -1}, {"engine:3", "B", 1400}, {"random", "C", -1}};
    c.format = Format::Arena;
    c.games = 10;
    return c;
}

std::vector<GameRecord> games() {
    std::vector<GameRecord> list;
    GameRecord g1 = record(0, 0, 1, GameResult::WhiteWins, Termination::Checkmate);
    g1.moves = {turn("e2e4", 0.01, 100, 50, 1), turn("e7e5", 0, 0, 0), turn("d1h5", 0.01, 100, 50),
                turn("b8c6", 0, 0, 0), turn("f1c4", 0.01, 100, 50)};
    list.push_back(g1);
    GameRecord g2 = record(1, 1, 0, GameResult::WhiteWins, Termination::ForfeitIllegalMove);
    g2.moves = {turn("e2e4", 0, 0, 0)};
    TurnRecord open = turn("", 0.02, 200, 100, 4);
    g2.openTurn = open;
    list.push_back(g2);
    list.push_back(record(2, 2, 1, GameResult::Draw, Termination::Threefold));
    GameRecord g4 = record(3, 0, 2, GameResult::Unfinished, Termination::Unfinished);
    g4.moves = {turn("d2d4", 0.01, 100, 50)};
    list.push_back(g4);
    return list;
}

const LeaderboardRow& rowOf(const Leaderboard& board, int participant) {
    for (const LeaderboardRow& r : board.rows)
        if (r.participant == participant) return r;
    FAIL("participant missing from the leaderboard");
    return board.rows.front();
}

} // namespace

TEST_CASE("leaderboard: counts, forfeits, illegal attempts, costs and tokens") {
    LeaderboardOptions options;
    options.bootstrapSamples = 50;
    const Leaderboard board = computeLeaderboard(config(), games(), options);
    REQUIRE(board.rows.size() == 3);
    CHECK(board.gamesRated == 3);
    CHECK(board.gamesUnfinished == 1);
    const LeaderboardRow& a = rowOf(board, 0);
    CHECK(a.games == 2);
    CHECK(a.wins == 1);
    CHECK(a.draws == 0);
    CHECK(a.losses == 1);
    CHECK(a.forfeits == 1);
    CHECK(a.moves == 4);
    CHECK(a.turns == 5);
    CHECK(a.illegalAttempts == 5);
    CHECK(a.illegalPer100Moves == doctest::Approx(100.0));
    CHECK(a.costUsd == doctest::Approx(0.06));
    CHECK(a.avgCostPerGame == doctest::Approx(0.03));
    CHECK(a.tokens == 4 * 150 + 300);
    CHECK(a.avgTokensPerMove == doctest::Approx(180.0));
    const LeaderboardRow& b = rowOf(board, 1);
    CHECK(b.anchored);
    CHECK(b.rating == 1400.0);
    CHECK(b.ratingLow == 1400.0);
    CHECK(b.ratingHigh == 1400.0);
    CHECK(b.games == 3);
    CHECK(b.wins == 1);
    CHECK(b.draws == 1);
    CHECK(b.losses == 1);
    CHECK(b.forfeits == 0);
    CHECK(b.moves == 3);
    CHECK(b.costUsd == 0.0);
    const LeaderboardRow& c = rowOf(board, 2);
    CHECK(c.games == 1);
    CHECK(c.draws == 1);
    CHECK(c.turns == 0);
    CHECK(c.avgTokensPerMove == 0.0);
    CHECK(c.illegalPer100Moves == 0.0);
}

TEST_CASE("leaderboard: ratings and ranks agree with the rating code") {
    LeaderboardOptions options;
    options.bootstrapSamples = 100;
    options.seed = 5;
    const Leaderboard tied = computeLeaderboard(config(), games(), options);
    for (const LeaderboardRow& r : tied.rows) CHECK(r.rank == 1); // all even: one shared rank
    std::vector<GameRecord> list = games();
    list.push_back(record(4, 0, 2, GameResult::WhiteWins, Termination::Checkmate));
    const Leaderboard board = computeLeaderboard(config(), list, options);
    BradleyTerryOptions bt;
    bt.anchors = {-1, 1400, -1};
    bt.bootstrapSamples = 100;
    bt.seed = 5;
    const BradleyTerryFit fit = fitBradleyTerry(3, ratedGames(list), bt);
    const EloRun elo = liveElo(3, ratedGames(list));
    for (int i = 0; i < 3; ++i) {
        CHECK(rowOf(board, i).rating == fit.ratings[size_t(i)]);
        CHECK(rowOf(board, i).ratingLow == fit.low[size_t(i)]);
        CHECK(rowOf(board, i).elo == elo.ratings[size_t(i)]);
    }
    for (size_t i = 0; i < board.rows.size(); ++i) {
        CHECK(board.rows[i].rank == int(i) + 1);
        if (i > 0) CHECK(board.rows[i - 1].rating > board.rows[i].rating);
    }
    CHECK(board.rows[0].participant == 0);
    CHECK(board.rows[2].participant == 2);
    CHECK(ratedGames(games()).size() == 3);
    CHECK(ratedGames(games())[1].forfeit);
}

TEST_CASE("leaderboard: excluding forfeits removes them from W/D/L and ratings, not from forfeits") {
    LeaderboardOptions options;
    options.bootstrapSamples = 0;
    options.excludeForfeits = true;
    const Leaderboard board = computeLeaderboard(config(), games(), options);
    const LeaderboardRow& a = rowOf(board, 0);
    CHECK(board.gamesRated == 2);
    CHECK(a.games == 1);
    CHECK(a.wins == 1);
    CHECK(a.losses == 0);
    CHECK(a.forfeits == 1);
    CHECK(a.illegalAttempts == 5); // still attempts the model made
    options.excludeForfeits = false;
    CHECK(computeLeaderboard(config(), games(), options).rows != board.rows);
}

TEST_CASE("leaderboard: no games at all") {
    const Leaderboard board = computeLeaderboard(config(), {}, LeaderboardOptions{});
    REQUIRE(board.rows.size() == 3);
    CHECK(rowOf(board, 1).rating == 1400.0);
    CHECK(rowOf(board, 0).rating == 1400.0); // unanchored players sit at the anchors' centre
    CHECK(rowOf(board, 0).games == 0);
    CHECK(rowOf(board, 0).avgCostPerGame == 0.0);
}

namespace {

// `count` finished games among the three participants of config(), results cycling so that A
// does best and C worst; every seventh game a forfeit.
std::vector<GameRecord> manyGames(int count) {
    std::vector<GameRecord> list;
    for (int id = 0; id < count; ++id) {
        const int white = id % 3;
        const int black = (id + 1 + id / 3 % 2) % 3;
        const GameResult result = id % 5 == 0                        ? GameResult::Draw
                                  : (white < black) == (id % 4 != 0) ? GameResult::WhiteWins
                                                                     : GameResult::BlackWins;
        const bool forfeit = id % 7 == 3 && result != GameResult::Draw;
        list.push_back(record(id, white, black, result,
                              forfeit                      ? Termination::ForfeitTimeout
                              : result == GameResult::Draw ? Termination::Stalemate
                                                           : Termination::Checkmate));
    }
    return list;
}

} // namespace

TEST_CASE("rating history: a point per rated game, anchors fixed, the last point is the leaderboard") {
    for (bool excludeForfeits : {false, true}) {
        CAPTURE(excludeForfeits);
        LeaderboardOptions options;
        options.excludeForfeits = excludeForfeits;
        options.bootstrapSamples = 20;
        const std::vector<GameRecord> list = games(); // 3 finished (one a forfeit), 1 unfinished
        const std::vector<std::vector<double>> history = ratingHistory(config(), list, options);
        REQUIRE(history.size() == (excludeForfeits ? 2u : 3u));
        for (const std::vector<double>& point : history) {
            REQUIRE(point.size() == 3);
            CHECK(point[1] == 1400.0); // the anchored engine
        }
        // The first point is the fit after the first game alone (A beat the anchor).
        BradleyTerryOptions bt;
        bt.anchors = anchorRatings(config());
        bt.bootstrapSamples = 0;
        const BradleyTerryFit first = fitBradleyTerry(3, {Encounter{0, 1, 1.0, false}}, bt);
        CHECK(history.front() == first.ratings);
        CHECK(history.front()[0] > 1400.0);
        const Leaderboard board = computeLeaderboard(config(), list, options);
        for (int i = 0; i < 3; ++i) CHECK(history.back()[size_t(i)] == rowOf(board, i).rating);
    }
    CHECK(ratingHistory(config(), {}, LeaderboardOptions{}).empty());
    CHECK(ratingHistory(config(), games(), LeaderboardOptions{}, 0).empty());
}

TEST_CASE("rating history: a long run is on a stable grid of at most maxPoints, ending with the last game") {
    const std::vector<GameRecord> list = manyGames(500);
    LeaderboardOptions options;
    options.bootstrapSamples = 0;
    const Leaderboard board = computeLeaderboard(config(), list, options);
    // 500 games, 200 points at most: every 4th game (the smallest power of two that fits), 125 points.
    const std::vector<std::vector<double>> history = ratingHistory(config(), list, options);
    REQUIRE(history.size() == 125);
    for (int i = 0; i < 3; ++i) CHECK(history.back()[size_t(i)] == rowOf(board, i).rating);
    for (const std::vector<double>& point : history) CHECK(point[1] == 1400.0);

    // 7 points at most over 500 games: stride 128, so after games 128, 256, 384 and 500.
    const std::vector<std::vector<double>> seven = ratingHistory(config(), list, options, 7);
    REQUIRE(seven.size() == 4);
    BradleyTerryOptions bt;
    bt.anchors = anchorRatings(config());
    bt.bootstrapSamples = 0;
    const std::vector<Encounter> rated = ratedGames(list);
    const std::vector<Encounter> first128(rated.begin(), rated.begin() + 128);
    CHECK(seven[0] == fitBradleyTerry(3, first128, bt).ratings);
    const std::vector<Encounter> first384(rated.begin(), rated.begin() + 384);
    CHECK(seven[2] == fitBradleyTerry(3, first384, bt).ratings);
    CHECK(seven.back() == history.back());
    CHECK(seven[0] == history[31]); // the grids agree where they meet (game 128)

    SUBCASE("games added one by one: the points already drawn never move, and a tally changes nothing") {
        LeaderboardTally tally;
        tally.historyPoints = 7;
        std::vector<std::vector<double>> before;
        for (size_t count : {100u, 101u, 250u, 251u, 256u, 400u, 500u}) {
            const std::vector<GameRecord> prefix(list.begin(), list.begin() + std::ptrdiff_t(count));
            const std::vector<std::vector<double>> fresh = ratingHistory(config(), prefix, options, 7);
            // The tally keeps the first count - 3 games (the last three summed again each time).
            const std::vector<std::vector<double>> cached = ratingHistory(config(), prefix, options, 7, &tally, count - 3);
            CHECK(cached == fresh);
            CHECK(tally.size() == count - 3);
            CHECK(tally.fits.size() <= 7);
            CHECK(fresh.size() <= 7);
            // One more game at the same stride: the grid points drawn so far stay as they were (only
            // the last, off-grid point moves).
            if (fresh.size() >= before.size() && !before.empty() && before.size() > 1 && count != 250u && count != 400u)
                for (size_t k = 0; k + 1 < before.size(); ++k) CHECK(fresh[k] == before[k]);
            before = fresh;
        }
        // Other games whose last kept one is not where the tally left it (a reset, an import not
        // reported) are summed from the start instead of reusing it.
        const std::vector<GameRecord> other(list.begin() + 1, list.begin() + 301);
        CHECK(ratingHistory(config(), other, options, 7, &tally, 300) == ratingHistory(config(), other, options, 7));
        CHECK(tally.size() == 300);
        // A tally made for another grid is not used (its fits lie elsewhere) and stays as it was.
        CHECK(ratingHistory(config(), other, options, 5, &tally, 300) == ratingHistory(config(), other, options, 5));
        // A tally whose grid began after its first games (its plot turned on late) draws the
        // points it lacks from the games again.
        LeaderboardTally late;
        sumGames(config(), other, options, &late, 200);
        late.historyPoints = 7;
        CHECK(ratingHistory(config(), other, options, 7, &late, 300) == ratingHistory(config(), other, options, 7));
    }

    SUBCASE("excluded forfeits are no points, and the last point still matches") {
        options.excludeForfeits = true;
        const Leaderboard without = computeLeaderboard(config(), list, options);
        const std::vector<std::vector<double>> all = ratingHistory(config(), list, options, 1000);
        CHECK(int(all.size()) == without.gamesRated);
        CHECK(int(all.size()) < 500);
        for (int i = 0; i < 3; ++i) CHECK(all.back()[size_t(i)] == rowOf(without, i).rating);
    }
}

TEST_CASE("leaderboard tally: a list growing at its end gives the board summed afresh to the bit, from the sums kept") {
    const TournamentConfig c = config();
    const LeaderboardOptions options;
    // Costs whose sum depends on the order (0.1 + 0.2 + 0.3 != 0.3 + 0.2 + 0.1 in doubles).
    const double costs[] = {0.1, 0.2, 0.3, 1e-9, 0.7, 1e-17, 3.3};
    std::vector<GameRecord> finished;
    for (int i = 0; i < 12; ++i) {
        const int white = i % 3, black = (i + 1) % 3;
        GameRecord g = record(i, white, black, i % 4 == 0 ? GameResult::Draw : GameResult::WhiteWins, Termination::Checkmate);
        for (int m = 0; m < 3 + i % 4; ++m) g.moves.push_back(turn(m % 2 ? "e7e5" : "e2e4", costs[(i + m) % 7], 10 + m, 5, m % 3 == 0 ? 1 : 0));
        if (i % 5 == 4) g.openTurn = turn("", costs[i % 7], 7, 3, 2);
        finished.push_back(g);
    }
    auto running = [&](int id, int plies) {
        GameRecord g = record(id, 2, 0, GameResult::Unfinished, Termination::Unfinished);
        for (int m = 0; m < plies; ++m) g.moves.push_back(turn("g1f3", costs[m % 7], 3, 1));
        return g;
    };
    auto analyse = [](GameRecord& g) {
        for (size_t m = 0; m < g.moves.size(); ++m) {
            g.moves[m].cpLoss = int(17 * m % 400);
            g.moves[m].judgement = int(m % 4);
        }
    };
    // The board kept by a tally over the first `stable` games equals the board summed afresh, to
    // the bit; so do its pairs (the same fit) and its move quality.
    auto check = [&](const std::vector<GameRecord>& list, LeaderboardTally& tally, size_t stable) {
        const chaiba::play::BradleyTerryFit fit = chaiba::play::fitBradleyTerry(3, ratedGames(list), fitOptions(c, options));
        const Leaderboard cached = leaderboardWithFit(c, list, options, fit, &tally, stable);
        const Leaderboard plain = leaderboardWithFit(c, list, options, fit);
        CHECK(cached == plain);
        const LeaderboardSums sums = sumGames(c, list, options, &tally, stable);
        CHECK(chaiba::play::BradleyTerryRun(3, sums.pairs.pairs(), fitOptions(c, options)).fit().ratings == fit.ratings);
        Leaderboard quality = plain;
        for (LeaderboardRow& r : quality.rows) r.analysedMoves = r.blunders = 0, r.avgCpLoss = 0;
        fillMoveQuality(quality, sums);
        CHECK(quality == plain);
    };

    LeaderboardTally tally;
    std::vector<GameRecord> list;
    for (size_t k = 0; k < finished.size(); ++k) {
        CAPTURE(k);
        // The finished games so far, then two running games that grow.
        list.assign(finished.begin(), finished.begin() + std::ptrdiff_t(k + 1));
        list.push_back(running(100, int(k % 5)));
        list.push_back(running(101, int(k % 3) + 1));
        // A game analysed after it was summed, as the owner reports it (the move-quality sums
        // follow, the turn sums stay).
        if (k >= 3) {
            analyse(finished[k - 3]);
            list[k - 3] = finished[k - 3];
            tally.analysed(k - 3, list[k - 3]);
        }
        // The kept run: every finished game but the newest (kept from the next call on).
        check(list, tally, k);
        CHECK(tally.size() == k); // the running games are never kept
    }
    // Not reported, an analysis of a kept game is not in the sums: the owner's promise matters.
    {
        std::vector<GameRecord> fresh = finished;
        LeaderboardTally unreported;
        const chaiba::play::BradleyTerryFit fit = chaiba::play::fitBradleyTerry(3, ratedGames(fresh), fitOptions(c, options));
        for (GameRecord& g : fresh)
            for (TurnRecord& t : g.moves) t.cpLoss = -1;
        leaderboardWithFit(c, fresh, options, fit, &unreported, fresh.size());
        analyse(fresh[2]);
        CHECK_FALSE(leaderboardWithFit(c, fresh, options, fit, &unreported, fresh.size()) == leaderboardWithFit(c, fresh, options, fit));
        unreported.analysed(2, fresh[2]);
        CHECK(leaderboardWithFit(c, fresh, options, fit, &unreported, fresh.size()) == leaderboardWithFit(c, fresh, options, fit));
        unreported.analysed(2, fresh[2]); // reported twice: counted once
        CHECK(leaderboardWithFit(c, fresh, options, fit, &unreported, fresh.size()) == leaderboardWithFit(c, fresh, options, fit));
    }
    // A finished game held back (shown unfinished, its open turn hidden) ends the kept run there.
    list.assign(finished.begin(), finished.end());
    REQUIRE(list[9].openTurn);
    list[9].result = GameResult::Unfinished;
    list[9].openTurn.reset();
    tally.clear();
    check(list, tally, list.size());
    CHECK(tally.size() == 9);
    list[9] = finished[9];
    check(list, tally, list.size());
    CHECK(tally.size() == finished.size());
    // A shorter kept run than the tally's (the owner's list changed before its end): from the start.
    check(list, tally, 5);
    CHECK(tally.size() == 5);
    // Another list (other games under the same ids) after clear(), as the arena does on an import.
    std::vector<GameRecord> other = finished;
    for (GameRecord& g : other) g.moves.back().costUsd += 0.05;
    tally.clear();
    check(other, tally, other.size());
    // A list whose last kept game is another one is summed from the start.
    std::swap(other[other.size() - 1], other[other.size() - 2]);
    check(other, tally, other.size());
    // Other options or players: from the start too.
    LeaderboardOptions without = options;
    without.excludeForfeits = true;
    CHECK(sumGames(c, other, without, &tally, other.size()).options == without);
    CHECK(tally.sums->options == without);
}

TEST_CASE("folded records: the same leaderboard to the bit as whole ones, costs of open turns and analysis included") {
    std::vector<GameRecord> whole = games();
    // Analysis on the first game (cpLoss and a blunder), a Black start on a third one.
    for (size_t m = 0; m < whole[0].moves.size(); ++m) {
        whole[0].moves[m].cpLoss = int(10 * m + 5);
        whole[0].moves[m].judgement = m == 3 ? 3 : 0;
    }
    GameRecord blackStarts = record(4, 2, 0, GameResult::BlackWins, Termination::Checkmate);
    blackStarts.startFen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    blackStarts.moves = {turn("e7e5", 0.003, 30, 10), turn("d2d4", 0, 0, 0, 1), turn("e5d4", 0.007, 70, 20, 2)};
    whole.push_back(blackStarts);
    std::vector<GameRecord> folded = whole;
    for (GameRecord& g : folded) foldRecord(g);
    // Finished ones only, and their moves are gone.
    CHECK(folded[0].isFolded());
    CHECK(folded[1].isFolded());
    CHECK_FALSE(folded[3].isFolded()); // still running
    CHECK(folded[1].moves.empty());
    CHECK_FALSE(folded[1].openTurn);
    CHECK(folded[1].hasOpenTurn());
    CHECK(folded[4].plies() == 3);
    CHECK(folded[4].moverOf(0) == blackStarts.moverOf(0));
    CHECK(folded[4].moverOf(1) == blackStarts.moverOf(1));
    CHECK(folded[0].analysed());
    CHECK_FALSE(folded[1].analysed());
    const Leaderboard a = computeLeaderboard(config(), whole);
    const Leaderboard b = computeLeaderboard(config(), folded);
    CHECK(a == b);
    // (Not trivially: the costs, illegal attempts and the analysis are all there.)
    double cost = 0;
    int illegal = 0, analysed = 0;
    for (const LeaderboardRow& r : b.rows) {
        cost += r.costUsd;
        illegal += r.illegalAttempts;
        analysed += r.analysedMoves;
    }
    CHECK(cost == doctest::Approx(0.01 * 4 + 0.02 + 0.003 + 0.007));
    CHECK(illegal == 1 + 4 + 1 + 2);
    CHECK(analysed == 5);
    // Folding twice changes nothing; a folded copy equals its fold.
    GameRecord again = folded[0];
    foldRecord(again);
    CHECK(again == folded[0]);
}
