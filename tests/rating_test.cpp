// Ratings: live Elo against hand-computed values, Bradley-Terry against closed forms and an
// independent slow gradient-ascent fit, anchors, degenerate data, bootstrap intervals (sanity,
// perfect records, shrinking with games, the normal approximation for large samples).
#include "src/play/rating.h"
#include "src/play/rating_job.h"
#include "src/play/rating_refiner.h"

#include "engine/search/elo_fit.h"

#include <doctest/doctest.h>

#include <cmath>
#include <utility>
#include <vector>

using namespace chaiba::play;

namespace {

Encounter game(int white, int black, Outcome outcome, bool forfeit = false) {
    return encounterOf(white, black, outcome, forfeit);
}

// `wins` wins, `draws` draws and `losses` losses of a against b, colours alternating.
void addResults(std::vector<Encounter>& games, int a, int b, int wins, int draws, int losses) {
    int k = 0;
    auto add = [&](double scoreOfA) {
        const bool aWhite = k++ % 2 == 0;
        const Outcome o = scoreOfA == 0.5               ? Outcome::Draw
                          : (scoreOfA == 1.0) == aWhite ? Outcome::FirstWins
                                                        : Outcome::SecondWins;
        games.push_back(aWhite ? game(a, b, o) : game(b, a, o));
    };
    for (int i = 0; i < wins; ++i) add(1.0);
    for (int i = 0; i < draws; ++i) add(0.5);
    for (int i = 0; i < losses; ++i) add(0.0);
}

BradleyTerryOptions noBootstrap(double virtualDraws = 1.0) {
    BradleyTerryOptions o;
    o.bootstrapSamples = 0;
    o.virtualDraws = virtualDraws;
    return o;
}

// Independent reference: plain gradient ascent on the same penalised log-likelihood (natural
// units, virtual draws against 0), then the mean shifted to 1500. Slow but obviously right.
std::vector<double> slowFit(int n, const std::vector<Encounter>& games, double virtualDraws) {
    std::vector<double> y(static_cast<size_t>(n), 0.0);
    for (int it = 0; it < 200000; ++it) {
        std::vector<double> grad(size_t(n), 0.0);
        for (const Encounter& g : games) {
            const double p = 1.0 / (1.0 + std::exp(-(y[size_t(g.a)] - y[size_t(g.b)])));
            const double s = g.scoreA;
            grad[size_t(g.a)] += s - p;
            grad[size_t(g.b)] -= s - p;
        }
        for (int i = 0; i < n; ++i) {
            const double p = 1.0 / (1.0 + std::exp(-y[size_t(i)]));
            grad[size_t(i)] += virtualDraws * (0.5 - p);
        }
        for (int i = 0; i < n; ++i) y[size_t(i)] += 0.02 * grad[size_t(i)];
    }
    std::vector<double> r(static_cast<size_t>(n));
    double mean = 0;
    for (int i = 0; i < n; ++i) {
        r[size_t(i)] = y[size_t(i)] * 400.0 / std::log(10.0);
        mean += r[size_t(i)];
    }
    for (double& x : r) x += 1500.0 - mean / n;
    return r;
}

} // namespace

TEST_CASE("Elo: expected score and K=32 updates match hand-computed values") {
    CHECK(eloExpected(1500, 1500) == doctest::Approx(0.5));
    CHECK(eloExpected(1900, 1500) == doctest::Approx(10.0 / 11.0)); // 400 points: odds 10:1
    std::vector<Encounter> games = {game(0, 1, Outcome::FirstWins), game(0, 1, Outcome::SecondWins),
                                    game(1, 0, Outcome::Draw)};
    const EloRun run = liveElo(2, games);
    REQUIRE(run.history.size() == 3);
    CHECK(run.history[0][0] == doctest::Approx(1516.0));
    CHECK(run.history[0][1] == doctest::Approx(1484.0));
    CHECK(run.history[1][0] == doctest::Approx(1498.5304984710244));
    CHECK(run.history[1][1] == doctest::Approx(1501.4695015289756));
    CHECK(run.ratings[0] == doctest::Approx(1498.6658413353916));
    CHECK(run.ratings[1] == doctest::Approx(1501.3341586646084));
}

TEST_CASE("Elo: forfeits can be excluded, the history still has one row per game") {
    std::vector<Encounter> games = {game(0, 1, Outcome::FirstWins, true), game(2, 1, Outcome::Draw)};
    EloOptions options;
    options.excludeForfeits = true;
    const EloRun run = liveElo(3, games, options);
    REQUIRE(run.history.size() == 2);
    CHECK(run.history[0] == std::vector<double>{1500, 1500, 1500});
    CHECK(run.ratings == std::vector<double>{1500, 1500, 1500}); // a draw between equals
    CHECK(liveElo(3, games).ratings[0] == doctest::Approx(1516.0));
}

TEST_CASE("Bradley-Terry: two players, 3 of 4 points, is 400*log10(3) apart around 1500") {
    std::vector<Encounter> games;
    addResults(games, 0, 1, 3, 0, 1);
    const BradleyTerryFit fit = fitBradleyTerry(2, games, noBootstrap(0.0));
    CHECK(fit.ratings[0] - fit.ratings[1] == doctest::Approx(190.84850188786498).epsilon(1e-6));
    CHECK(fit.ratings[0] + fit.ratings[1] == doctest::Approx(3000.0));
    CHECK(fit.games == std::vector<int>{4, 4});

    SUBCASE("draws count as half points: 2 wins + 2 draws is the same score") {
        std::vector<Encounter> withDraws;
        addResults(withDraws, 0, 1, 2, 2, 0);
        const BradleyTerryFit f2 = fitBradleyTerry(2, withDraws, noBootstrap(0.0));
        CHECK(f2.ratings[0] == doctest::Approx(fit.ratings[0]).epsilon(1e-9));
    }
}

TEST_CASE("Bradley-Terry: matches an independent gradient-ascent fit") {
    // Five players, uneven schedule, draws, one pair that never met.
    std::vector<Encounter> games;
    addResults(games, 0, 1, 5, 3, 2);
    addResults(games, 0, 2, 6, 1, 1);
    addResults(games, 1, 2, 4, 2, 4);
    addResults(games, 1, 3, 7, 2, 1);
    addResults(games, 2, 3, 3, 4, 1);
    addResults(games, 3, 4, 2, 1, 5);
    addResults(games, 0, 4, 1, 2, 1);
    for (double virtualDraws : {1.0, 0.0}) {
        CAPTURE(virtualDraws);
        const std::vector<double> reference = slowFit(5, games, std::max(virtualDraws, 1e-6));
        const BradleyTerryFit fit = fitBradleyTerry(5, games, noBootstrap(virtualDraws));
        for (int i = 0; i < 5; ++i)
            CHECK(fit.ratings[size_t(i)] == doctest::Approx(reference[size_t(i)]).epsilon(1e-6));
    }
}

TEST_CASE("Bradley-Terry: anchors fix engine levels and the rest is fitted around them") {
    std::vector<Encounter> games;
    addResults(games, 1, 0, 3, 0, 1); // player 1 scores 3/4 against the anchor
    addResults(games, 2, 1, 1, 0, 3); // player 2 scores 1/4 against player 1
    BradleyTerryOptions options = noBootstrap(0.0);
    options.anchors = {2000, -1, -1};
    const BradleyTerryFit fit = fitBradleyTerry(3, games, options);
    CHECK(fit.ratings[0] == 2000.0);
    CHECK(fit.ratings[1] == doctest::Approx(2190.848501887865).epsilon(1e-6));
    CHECK(fit.ratings[2] == doctest::Approx(2000.0).epsilon(1e-6));

    SUBCASE("two anchors: both stay exactly where they are") {
        std::vector<Encounter> more = games;
        addResults(more, 3, 2, 2, 0, 2);
        options.anchors = {2000, -1, -1, 1200};
        options.bootstrapSamples = 200;
        const BradleyTerryFit f = fitBradleyTerry(4, more, options);
        CHECK(f.ratings[0] == 2000.0);
        CHECK(f.ratings[3] == 1200.0);
        CHECK(f.low[3] == 1200.0);
        CHECK(f.high[3] == 1200.0);
        CHECK(f.ratings[1] > f.ratings[2]);
    }
}

TEST_CASE("Bradley-Terry: degenerate data stays finite and documented") {
    SUBCASE("zero games: everyone at 1500") {
        const BradleyTerryFit fit = fitBradleyTerry(3, {}, BradleyTerryOptions{});
        CHECK(fit.ratings == std::vector<double>{1500, 1500, 1500});
        CHECK(fit.low == fit.ratings);
        CHECK(fit.high == fit.ratings);
    }
    SUBCASE("a perfect record: finite, with the virtual draws as the only brake") {
        std::vector<Encounter> games;
        addResults(games, 0, 1, 10, 0, 0);
        addResults(games, 0, 2, 10, 0, 0);
        addResults(games, 1, 2, 5, 0, 5);
        for (double v : {1.0, 0.0}) {
            BradleyTerryOptions options;
            options.virtualDraws = v;
            options.bootstrapSamples = 100;
            const BradleyTerryFit fit = fitBradleyTerry(3, games, options);
            for (int i = 0; i < 3; ++i) {
                CHECK(std::isfinite(fit.ratings[size_t(i)]));
                CHECK(std::isfinite(fit.low[size_t(i)]));
                CHECK(std::isfinite(fit.high[size_t(i)]));
            }
            CHECK(fit.ratings[0] > fit.ratings[1] + 300);
            CHECK(fit.ratings[1] == doctest::Approx(fit.ratings[2]));
        }
    }
    SUBCASE("a player with no games and two groups that never met") {
        std::vector<Encounter> games;
        addResults(games, 0, 1, 3, 0, 1);
        addResults(games, 2, 3, 3, 0, 1);
        const BradleyTerryFit fit = fitBradleyTerry(5, games, noBootstrap());
        CHECK(fit.games[4] == 0);
        CHECK(fit.ratings[4] == doctest::Approx(1500.0)); // symmetric groups: the centre stays
        CHECK(fit.ratings[0] == doctest::Approx(fit.ratings[2]));
        CHECK(fit.ratings[1] == doctest::Approx(fit.ratings[3]));
        CHECK(fit.ratings[0] > fit.ratings[1]);
    }
    SUBCASE("a virtual draw pulls a 3/4 score a little toward the centre") {
        std::vector<Encounter> games;
        addResults(games, 0, 1, 3, 0, 1);
        const double gap = fitBradleyTerry(2, games, noBootstrap(1.0)).ratings[0] - 1500;
        CHECK(gap > 0);
        CHECK(gap < 190.848501887865 / 2);
    }
}

TEST_CASE("Bradley-Terry: forfeit games can be excluded") {
    std::vector<Encounter> games;
    addResults(games, 0, 1, 3, 0, 1);
    games.push_back(game(1, 0, Outcome::FirstWins, true));
    games.push_back(game(0, 1, Outcome::SecondWins, true));
    BradleyTerryOptions options = noBootstrap(0.0);
    options.excludeForfeits = true;
    const BradleyTerryFit without = fitBradleyTerry(2, games, options);
    CHECK(without.ratings[0] - without.ratings[1] == doctest::Approx(190.84850188786498).epsilon(1e-6));
    CHECK(without.games[0] == 4);
    options.excludeForfeits = false;
    const BradleyTerryFit with = fitBradleyTerry(2, games, options);
    CHECK(with.ratings[0] == doctest::Approx(1500.0).epsilon(1e-6)); // 3 of 6: equal
    CHECK(with.games[0] == 6);
}

namespace {
// Four players, four pairs with wins, draws and losses, each count times `scale`.
std::vector<Encounter> fourPlayerTournament(int scale) {
    std::vector<Encounter> games;
    addResults(games, 0, 1, 5 * scale, 3 * scale, 2 * scale);
    addResults(games, 1, 2, 4 * scale, 4 * scale, 2 * scale);
    addResults(games, 0, 2, 6 * scale, 2 * scale, 2 * scale);
    addResults(games, 2, 3, 5 * scale, 2 * scale, 3 * scale);
    return games;
}
} // namespace

TEST_CASE("Bradley-Terry bootstrap: contains the estimate, narrows with more games, seeded") {
    const auto tournament = fourPlayerTournament;
    BradleyTerryOptions options;
    options.bootstrapSamples = 400;
    options.seed = 7;
    const BradleyTerryFit small = fitBradleyTerry(4, tournament(1), options);
    const BradleyTerryFit large = fitBradleyTerry(4, tournament(4), options);
    for (int i = 0; i < 4; ++i) {
        CAPTURE(i);
        CHECK(small.low[size_t(i)] < small.ratings[size_t(i)]);
        CHECK(small.ratings[size_t(i)] < small.high[size_t(i)]);
        CHECK(large.low[size_t(i)] < large.ratings[size_t(i)]);
        CHECK(large.ratings[size_t(i)] < large.high[size_t(i)]);
        const double wSmall = small.high[size_t(i)] - small.low[size_t(i)];
        const double wLarge = large.high[size_t(i)] - large.low[size_t(i)];
        CHECK(wLarge < 0.75 * wSmall); // ~1/2 expected with 4x the games
    }
    const BradleyTerryFit again = fitBradleyTerry(4, tournament(1), options);
    CHECK(again.low == small.low);
    CHECK(again.high == small.high);
    options.seed = 8;
    const BradleyTerryFit other = fitBradleyTerry(4, tournament(1), options);
    CHECK(other.low != small.low);
    CHECK(other.ratings == small.ratings);
}

TEST_CASE("Bradley-Terry bootstrap: a pair with one kind of result still gets an interval around it") {
    BradleyTerryOptions options;
    options.bootstrapSamples = 1000;
    options.seed = 3;
    for (double virtualDraws : {1.0, 0.0}) {
        CAPTURE(virtualDraws);
        options.virtualDraws = virtualDraws;
        SUBCASE("five wins out of five") {
            std::vector<Encounter> games;
            addResults(games, 0, 1, 5, 0, 0);
            const BradleyTerryFit fit = fitBradleyTerry(2, games, options);
            for (int i = 0; i < 2; ++i) {
                CAPTURE(i);
                CHECK(fit.low[size_t(i)] < fit.ratings[size_t(i)]);
                CHECK(fit.ratings[size_t(i)] < fit.high[size_t(i)]);
                CHECK(std::isfinite(fit.low[size_t(i)]));
                CHECK(std::isfinite(fit.high[size_t(i)]));
            }
        }
        SUBCASE("five draws out of five") {
            std::vector<Encounter> games;
            addResults(games, 0, 1, 0, 5, 0);
            const BradleyTerryFit fit = fitBradleyTerry(2, games, options);
            for (int i = 0; i < 2; ++i) {
                CHECK(fit.ratings[size_t(i)] == doctest::Approx(1500.0));
                if (virtualDraws == 0) { // documented: without pseudo-games draws resample to draws
                    CHECK(fit.low[size_t(i)] == doctest::Approx(1500.0));
                    CHECK(fit.high[size_t(i)] == doctest::Approx(1500.0));
                } else {
                    CHECK(fit.low[size_t(i)] < 1500.0);
                    CHECK(fit.high[size_t(i)] > 1500.0);
                }
            }
        }
        SUBCASE("five wins against an anchor, which stays fixed") {
            std::vector<Encounter> games;
            addResults(games, 1, 0, 5, 0, 0);
            options.anchors = {2000, -1};
            const BradleyTerryFit fit = fitBradleyTerry(2, games, options);
            CHECK(fit.ratings[1] > 2000);
            CHECK(fit.low[1] < fit.ratings[1]);
            CHECK(fit.ratings[1] < fit.high[1]);
            CHECK(fit.low[0] == 2000.0);
            CHECK(fit.high[0] == 2000.0);
        }
    }
    SUBCASE("seeded: the same seed gives the same interval") {
        std::vector<Encounter> games;
        addResults(games, 0, 1, 5, 0, 0);
        addResults(games, 1, 2, 0, 4, 0);
        const BradleyTerryFit a = fitBradleyTerry(3, games, options);
        const BradleyTerryFit b = fitBradleyTerry(3, games, options);
        CHECK(a.low == b.low);
        CHECK(a.high == b.high);
        options.seed = 4;
        const BradleyTerryFit c = fitBradleyTerry(3, games, options);
        CHECK(c.ratings == a.ratings);
        CHECK((c.low != a.low || c.high != a.high));
    }
}

TEST_CASE("Bradley-Terry bootstrap: intervals shrink as a pair's games grow, perfect records included") {
    BradleyTerryOptions options;
    options.bootstrapSamples = 1000;
    options.seed = 11;
    for (const auto& [wins, losses] : {std::pair{3, 1}, std::pair{5, 0}}) {
        CAPTURE(wins);
        CAPTURE(losses);
        double lastWidth = 1e9;
        for (int scale : {1, 4, 16}) {
            CAPTURE(scale);
            std::vector<Encounter> games;
            addResults(games, 0, 1, wins * scale, 0, losses * scale);
            const BradleyTerryFit fit = fitBradleyTerry(2, games, options);
            CHECK(fit.low[0] < fit.ratings[0]);
            CHECK(fit.ratings[0] < fit.high[0]);
            const double width = fit.high[0] - fit.low[0];
            CHECK(width < 0.75 * lastWidth); // about half with four times the games
            lastWidth = width;
        }
    }
}

TEST_CASE("Bradley-Terry bootstrap: with many games the interval is the normal approximation's") {
    // 600 wins and 400 losses: the rating gap's logit has a standard error of 1/sqrt(n p (1-p)),
    // each player carries half the gap, so the 95% width is 2 * 1.96 * (400/ln 10) / 2 * that.
    std::vector<Encounter> games;
    addResults(games, 0, 1, 600, 0, 400);
    BradleyTerryOptions options;
    options.bootstrapSamples = 2000;
    const BradleyTerryFit fit = fitBradleyTerry(2, games, options);
    const double expected = 1.959964 * 400.0 / std::log(10.0) / std::sqrt(1000 * 0.6 * 0.4);
    for (int i = 0; i < 2; ++i) {
        CAPTURE(i);
        CHECK(fit.high[size_t(i)] - fit.low[size_t(i)] == doctest::Approx(expected).epsilon(0.1));
        // Centred on the estimate: the pseudo-games follow the fit, they do not pull to 1500.
        const double middle = (fit.high[size_t(i)] + fit.low[size_t(i)]) / 2;
        CHECK(middle == doctest::Approx(fit.ratings[size_t(i)]).epsilon(0.001));
    }
}

TEST_CASE("SplitMix64: reference sequence and unbiased bounds") {
    SplitMix64 rng(1234567);
    // Reference values of splitmix64 seeded with 1234567 (Vigna's reference implementation).
    CHECK(rng.next() == 6457827717110365317ULL);
    CHECK(rng.next() == 3203168211198807973ULL);
    SplitMix64 r2(1);
    for (int i = 0; i < 1000; ++i) CHECK(r2.below(7) < 7);
}

TEST_CASE("rating: a team game breaks into team-vs-team encounters, teammates never meet") {
    const std::vector<Encounter> pairs = encountersOfTeamGame({0, 1}, {2, 3}, 1.0);
    REQUIRE(pairs.size() == 4);
    CHECK(pairs[0] == Encounter{0, 2, 1.0, false});
    CHECK(pairs[3] == Encounter{1, 3, 1.0, false});
    for (const Encounter& e : pairs) CHECK((e.a <= 1 && e.b >= 2));
    CHECK(encountersOfTeamGame({0, 1, 2}, {3, 4}, 0.5, true).size() == 6);
    CHECK(encountersOfTeamGame({0, 1, 2}, {3, 4}, 0.5, true)[5].forfeit);
    // The winning team ends above the losing one; teammates stay equal.
    const EloRun run = liveElo(4, pairs);
    CHECK(run.ratings[1] > 1500); // applied one by one: teammates gain about, not exactly, alike
    CHECK(run.ratings[0] > 1500);
    CHECK(run.ratings[2] < 1500);
    CHECK(run.ratings[3] < 1500);
    CHECK(run.ratings[0] + run.ratings[1] + run.ratings[2] + run.ratings[3] == doctest::Approx(6000));
    const BradleyTerryFit fit = fitBradleyTerry(4, pairs, noBootstrap());
    CHECK(fit.games == std::vector<int>{2, 2, 2, 2});
    CHECK(fit.ratings[0] == doctest::Approx(fit.ratings[1]));
    CHECK(fit.ratings[0] > fit.ratings[2]);
}

TEST_CASE("rating: a two-seat game is one encounter with the first seat's score") {
    CHECK(encounterOf(3, 1, Outcome::FirstWins) == Encounter{3, 1, 1.0, false});
    CHECK(encounterOf(3, 1, Outcome::Draw, true) == Encounter{3, 1, 0.5, true});
    CHECK(encounterOf(3, 1, Outcome::SecondWins).scoreA == 0.0);
}

TEST_CASE("rating: the engine's expected score is the same formula as play's") {
    for (double d : {-800.0, -400.0, -1.0, 0.0, 35.5, 400.0, 1200.0})
        CHECK(chaiba::search::expectedScore(1500 + d, 1500) == doctest::Approx(eloExpected(1500 + d, 1500)).epsilon(1e-15));
}

TEST_CASE("Bradley-Terry in slices: the point estimate at once, the intervals equal to the whole fit's") {
    const std::vector<Encounter> games = fourPlayerTournament(1);
    BradleyTerryOptions options;
    options.bootstrapSamples = 300;
    options.seed = 11;
    options.anchors = {-1, -1, 1600, -1};
    const BradleyTerryFit whole = fitBradleyTerry(4, games, options);
    for (int slice : {1, 7, 100, 299, 300, 5000}) {
        CAPTURE(slice);
        BradleyTerryRun run(4, games, options);
        CHECK_FALSE(run.done());
        CHECK(run.fit().ratings == whole.ratings); // before any resample
        CHECK(run.fit().low == whole.ratings);
        int steps = 0;
        while (!run.step(slice)) {
            ++steps;
            CHECK(run.samplesDrawn() == steps * slice);
        }
        CHECK(run.samplesDrawn() == 300);
        CHECK(run.samplesWanted() == 300);
        CHECK(run.fit().low == whole.low);
        CHECK(run.fit().high == whole.high);
        CHECK(run.fit().bootstrapIterations == whole.bootstrapIterations);
        CHECK(run.step(slice)); // done stays done
    }
    options.bootstrapSamples = 0;
    BradleyTerryRun none(4, games, options);
    CHECK(none.done()); // nothing to refine
}

TEST_CASE("Bradley-Terry in another thread: the job's intervals equal the whole fit's to the last bit") {
    std::vector<Encounter> games = fourPlayerTournament(3);
    games.push_back(game(0, 3, Outcome::FirstWins, true)); // a forfeit, left out below
    games.push_back(game(2, 1, Outcome::Draw, true));
    for (bool exclude : {true, false})
        for (const std::vector<double>& anchors : {std::vector<double>{}, std::vector<double>{-1, -1, 1612.25, -1}}) {
            CAPTURE(exclude);
            CAPTURE(anchors.size());
            BradleyTerryOptions options;
            options.bootstrapSamples = 250;
            options.seed = 0xfeedfacecafebeefULL; // a seed past 2^63 survives the text
            options.virtualDraws = 0.7;
            options.confidence = 0.9;
            options.excludeForfeits = exclude;
            options.anchors = anchors;
            const BradleyTerryFit whole = fitBradleyTerry(4, games, options);
            BradleyTerryRun run(4, games, options);
            REQUIRE_FALSE(run.done());
            const BootstrapJobResult result = runBootstrapJob(encodeBootstrapJob(run));
            REQUIRE(result.error == "");
            CHECK(adoptBootstrapReply(result.reply, run) == std::nullopt);
            CHECK(run.done());
            CHECK(run.fit().ratings == whole.ratings);
            CHECK(run.fit().low == whole.low);
            CHECK(run.fit().high == whole.high);
            CHECK(run.fit().bootstrapIterations == whole.bootstrapIterations);
        }
}

TEST_CASE("Bradley-Terry job: a malformed job or reply is refused with a reason, the run unchanged") {
    const std::vector<Encounter> games = fourPlayerTournament(1);
    BradleyTerryOptions options;
    options.bootstrapSamples = 20;
    BradleyTerryRun run(4, games, options);
    const std::string job = encodeBootstrapJob(run);
    CHECK(runBootstrapJob("").error.find("not a bootstrap job") != std::string::npos);
    CHECK(runBootstrapJob("chaiba-bootstrap 1\n5000 20 1 1 0.95\n").error.find("5000 players") != std::string::npos);
    CHECK(runBootstrapJob("chaiba-bootstrap 1\n2 999999 1 1 0.95\n-1 -1\n").error.find("999999 samples") != std::string::npos);
    CHECK(runBootstrapJob("chaiba-bootstrap 1\n2 20 1 1 0.95\n-1\n").error.find("fewer anchors") != std::string::npos);
    CHECK(runBootstrapJob("chaiba-bootstrap 1\n2 20 1 1 0.95\n-1 -1\n0 2 1 0 0\n").error.find("out of range") != std::string::npos);
    CHECK(runBootstrapJob("chaiba-bootstrap 1\n2 20 1 1 0.95\n-1 -1\n1 0 1 0 0\n").error.find("out of range") != std::string::npos);
    CHECK(runBootstrapJob("chaiba-bootstrap 1\n2 20 1 1 0.95\n-1 -1\n0 1 1 0 0\n0 1 1 0 0\n").error.find("twice") != std::string::npos);
    CHECK(runBootstrapJob("chaiba-bootstrap 1\n2 20 1 1 0.95\n-1 -1\n0 1 1 x 0\n").error.find("not five integers") != std::string::npos);
    CHECK(runBootstrapJob(job.substr(0, job.size() - 3)).error.find("not five integers") != std::string::npos); // cut mid-pair
    const std::string reply = runBootstrapJob(job).reply;
    const std::vector<double> low = run.fit().low;
    CHECK(adoptBootstrapReply("", run).has_value());
    CHECK(adoptBootstrapReply(reply.substr(0, reply.rfind('\n', reply.size() - 2) + 1), run).has_value()); // a player short
    CHECK(adoptBootstrapReply(reply + "1 2\n", run).has_value());                   // a player too many
    CHECK(adoptBootstrapReply("3\nnan nan\n1 2\n1 2\n1 2\n", run).has_value());   // not finite
    CHECK_FALSE(run.done());
    CHECK(run.fit().low == low);
    CHECK(adoptBootstrapReply(reply, run) == std::nullopt);
    CHECK(run.done());
}

TEST_CASE("Elo: the history can be left out, the ratings are the same") {
    std::vector<Encounter> games;
    addResults(games, 0, 1, 3, 1, 2);
    EloOptions options;
    const EloRun with = liveElo(2, games, options);
    options.keepHistory = false;
    const EloRun without = liveElo(2, games, options);
    CHECK(with.history.size() == games.size());
    CHECK(without.history.empty());
    CHECK(without.ratings == with.ratings);
}

// RatingRefiner (every arena's intervals): the point estimate at once while games run, the
// bootstrap elsewhere, a newer fit's job replacing an older one's, slices here without a runner,
// the whole fit at rest; the intervals equal fitBradleyTerry's whichever way they were drawn.
namespace {
struct HeldRunner final : BootstrapRunner {
    std::vector<std::pair<std::string, Callback>>* jobs;
    explicit HeldRunner(std::vector<std::pair<std::string, Callback>>* held) : jobs(held) {}
    void run(const std::string& job, Callback callback) override { jobs->emplace_back(job, std::move(callback)); }
    bool busy() const override { return !jobs->empty(); }
};

std::vector<Encounter> someGames(int games) {
    std::vector<Encounter> out;
    for (int g = 0; g < games; ++g) out.push_back(encounterOf(g % 4, (g + 1 + g / 4) % 4, Outcome(g % 3)));
    return out;
}
} // namespace

TEST_CASE("rating refiner: while games run the point estimate shows at once and the intervals come from the runner") {
    std::vector<std::pair<std::string, BootstrapRunner::Callback>> jobs;
    std::vector<std::pair<BradleyTerryFit, bool>> shown;
    RatingRefiner refiner([&] { return std::make_unique<HeldRunner>(&jobs); },
                          [&](const BradleyTerryFit& fit, bool settled) { shown.emplace_back(fit, settled); });
    const std::vector<Encounter> first = someGames(30), second = someGames(31);
    refiner.start(std::make_unique<BradleyTerryRun>(4, first), true);
    REQUIRE(shown.size() == 1);
    CHECK_FALSE(shown[0].second);
    CHECK(shown[0].first.ratings == fitBradleyTerry(4, first).ratings);
    REQUIRE(jobs.size() == 1);
    CHECK(refiner.refining());
    CHECK(refiner.progress().first == 0); // nothing drawn here
    refiner.poll(0, 1000);
    CHECK(refiner.progress().first == 0);
    // A game ends before the reply: the older games' reply is dropped, the newer's job leaves
    // once kEveryMs has passed.
    refiner.start(std::make_unique<BradleyTerryRun>(4, second), true);
    const BootstrapJobResult old = runBootstrapJob(jobs[0].first);
    auto callback = std::move(jobs[0].second);
    jobs.clear();
    callback(old.reply, old.error);
    CHECK(refiner.stats().adopted == 0);
    CHECK(jobs.empty()); // held back: the last job left less than kEveryMs ago
    refiner.poll(500, 1000);
    CHECK(jobs.empty());
    refiner.poll(1500, 1000);
    REQUIRE(jobs.size() == 1);
    const BootstrapJobResult latest = runBootstrapJob(jobs[0].first);
    callback = std::move(jobs[0].second);
    jobs.clear();
    callback(latest.reply, latest.error);
    CHECK(refiner.stats().adopted == 1);
    CHECK(refiner.stats().sent == 2);
    CHECK_FALSE(refiner.refining());
    REQUIRE(shown.back().second);
    const BradleyTerryFit whole = fitBradleyTerry(4, second);
    CHECK(shown.back().first.low == whole.low);
    CHECK(shown.back().first.high == whole.high);
}

TEST_CASE("rating refiner: without a runner slices are drawn here, a silent runner is given up, at rest all at once") {
    const std::vector<Encounter> games = someGames(40);
    const BradleyTerryFit whole = fitBradleyTerry(4, games);
    std::optional<BradleyTerryFit> settled;
    auto keep = [&](const BradleyTerryFit& fit, bool done) {
        if (done) settled = fit;
    };
    {
        RatingRefiner here({}, keep);
        here.start(std::make_unique<BradleyTerryRun>(4, games), true);
        CHECK(here.refining());
        int polls = 0;
        while (here.refining() && polls < 100000) here.poll(++polls, 0); // one resample a poll
        CHECK(polls >= 1000);
        REQUIRE(settled);
        CHECK(settled->low == whole.low);
    }
    settled.reset();
    {
        std::vector<std::pair<std::string, BootstrapRunner::Callback>> jobs;
        RatingRefiner silent([&] { return std::make_unique<HeldRunner>(&jobs); }, keep);
        silent.start(std::make_unique<BradleyTerryRun>(4, games), true);
        silent.poll(0, 0);
        REQUIRE(jobs.size() == 1);
        silent.poll(RatingRefiner::kPatienceMs + 1, 0);
        CHECK(silent.stats().error.find("did not answer in 30 s") != std::string::npos);
        CHECK_FALSE(silent.elsewhere());
        silent.finish();
        REQUIRE(settled);
        CHECK(settled->high == whole.high);
    }
    settled.reset();
    RatingRefiner atRest({}, keep);
    atRest.start(std::make_unique<BradleyTerryRun>(4, games), false);
    CHECK_FALSE(atRest.refining());
    REQUIRE(settled);
    CHECK(settled->low == whole.low);
    // The widths of the last whole fit frame the next point estimate.
    BradleyTerryFit next = fitBradleyTerry(4, someGames(41), BradleyTerryOptions{{}, 1.0, false, 0});
    const BradleyTerryFit framed = withSettledWidths(next, whole);
    for (size_t i = 0; i < 4; ++i) {
        CHECK(framed.high[i] - framed.ratings[i] == doctest::Approx(whole.high[i] - whole.ratings[i]));
        CHECK(framed.ratings[i] - framed.low[i] == doctest::Approx(whole.ratings[i] - whole.low[i]));
    }
}
