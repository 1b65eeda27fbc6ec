// `chaiba rating-bench`: times the Bradley-Terry fit with bootstrap intervals on a synthetic
// tournament (default 50 players, 10,000 games, 1000 samples: the arena's figure of merit). With
// --game-ends N, also the arena's work at each of N more game ends (the leaderboard's sums, its
// point fit, the board and the rating plot), summed afresh and kept by increments (a tally).
#include "src/play/rating.h"
#include "src/cli/args.h"
#include "src/modes/chess/leaderboard.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace chaiba::cli {

namespace {

double msSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}

// The arena's work at a game end over `games` (folded records, as the page holds them): the
// leaderboard's sums and point fit, then the board; with a tally as the page keeps it, without
// one a pass over every game.
chessmode::Leaderboard board(const chessmode::TournamentConfig& config, const std::vector<chessmode::GameRecord>& games,
                             chessmode::LeaderboardTally* tally) {
    const chessmode::LeaderboardOptions options;
    play::BradleyTerryOptions bt = chessmode::fitOptions(config, options);
    bt.bootstrapSamples = 0; // the intervals are drawn in a worker
    const chessmode::LeaderboardSums sums = chessmode::sumGames(config, games, options, tally, games.size());
    const play::BradleyTerryRun run(int(config.participants.size()), sums.pairs.pairs(), bt);
    return chessmode::leaderboardWithFit(config, games, options, run.fit(), tally, games.size());
}

void benchGameEnds(const std::vector<play::Encounter>& list, size_t players, size_t before, size_t ends) {
    chessmode::TournamentConfig config;
    for (size_t i = 0; i < players; ++i) config.participants.push_back({"random", "P" + std::to_string(i + 1), -1});
    std::vector<chessmode::GameRecord> all;
    for (size_t g = 0; g < list.size(); ++g) {
        chessmode::GameRecord r;
        r.pairing.id = int(g);
        r.pairing.white = list[g].a;
        r.pairing.black = list[g].b;
        r.startFen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        chessmode::TurnRecord t;
        t.costUsd = 0.0004;
        t.promptTokens = 900;
        t.completionTokens = 30;
        r.moves.assign(40, t);
        r.result = list[g].scoreA > 0.75   ? chessmode::GameResult::WhiteWins
                   : list[g].scoreA < 0.25 ? chessmode::GameResult::BlackWins
                                           : chessmode::GameResult::Draw;
        r.termination = r.result == chessmode::GameResult::Draw ? chessmode::Termination::MoveLimit : chessmode::Termination::Checkmate;
        chessmode::foldRecord(r);
        all.push_back(std::move(r));
    }
    std::vector<double> boardAfresh, boardKept, plotAfresh, plotKept;
    chessmode::LeaderboardTally tally;
    tally.historyPoints = 200;
    const chessmode::LeaderboardOptions options;
    std::vector<chessmode::GameRecord> games(all.begin(), all.begin() + std::ptrdiff_t(before));
    auto start = std::chrono::steady_clock::now();
    board(config, games, &tally); // the tally's first pass (a reload's), the plot's grid fits included
    const double firstMs = msSince(start);
    bool same = true;
    for (size_t e = 0; e < ends; ++e) {
        games.push_back(all[before + e]);
        start = std::chrono::steady_clock::now();
        const chessmode::Leaderboard a = board(config, games, nullptr);
        boardAfresh.push_back(msSince(start));
        start = std::chrono::steady_clock::now();
        const chessmode::Leaderboard b = board(config, games, &tally);
        boardKept.push_back(msSince(start));
        start = std::chrono::steady_clock::now();
        const auto plotA = chessmode::ratingHistory(config, games, options, 200);
        plotAfresh.push_back(msSince(start));
        start = std::chrono::steady_clock::now();
        const auto plotB = chessmode::ratingHistory(config, games, options, 200, &tally, games.size());
        plotKept.push_back(msSince(start));
        same = same && a == b && !a.rows.empty() && plotA == plotB;
    }
    std::printf("arena game ends %zu..%zu, %zu players, median a game end: leaderboard (sums, point fit, board) "
                "%.3f ms summed afresh, %.3f ms kept; rating plot (200 points) %.3f ms afresh, %.3f ms kept; "
                "first pass of the kept sums %.1f ms; boards and plots %s\n",
                before + 1, before + ends, players, median(boardAfresh), median(boardKept), median(plotAfresh),
                median(plotKept), firstMs, same ? "identical" : "DIFFER");
}

} // namespace

const Usage& ratingBenchUsage() {
    static const Usage usage{
        "rating-bench",
        "[--players N] [--games N] [--samples N] [--seed S] [--repeat N] [--game-ends N]",
        "time the Bradley-Terry fit with bootstrap intervals on a synthetic tournament",
        {{"players", "N", "players, 2-1000 (default 50)"},
         {"games", "N", "games, 1-10000000 (default 10000)"},
         {"samples", "N", "bootstrap samples, 0-100000 (default 1000)"},
         {"seed", "S", "seed of the synthetic tournament (default 1)"},
         {"repeat", "N", "fits timed (the best is reported), 1-100 (default 3)"},
         {"game-ends", "N", "also time the arena's work at N more game ends, 0-100000 (default 0)"}},
        ""};
    return usage;
}

int runRatingBenchCommand(const std::vector<std::string>& argv) {
    Args args(argv, ratingBenchUsage());
    const long long players = args.integer("players", 50, 2, 1000);
    const long long games = args.integer("games", 10000, 1, 10000000);
    const long long samples = args.integer("samples", 1000, 0, 100000);
    const long long seed = args.integer("seed", 1, 0, (1LL << 62));
    const long long repeat = args.integer("repeat", 3, 1, 100);
    const long long gameEnds = args.integer("game-ends", 0, 0, 100000);
    if (args.error()) {
        std::fprintf(stderr, "error: %s\n", args.error()->c_str());
        return 2;
    }

    // Synthetic tournament: true ratings spread over 1000..2200, random pairs, outcomes drawn
    // from the Bradley-Terry model with a third of the decisive mass turned into draws.
    play::SplitMix64 rng(static_cast<uint64_t>(seed));
    std::vector<double> truth(static_cast<size_t>(players));
    double truthMean = 0;
    for (double& r : truth) {
        r = 1000.0 + 1200.0 * rng.uniform();
        truthMean += r / double(players);
    }
    std::vector<play::Encounter> list;
    list.reserve(size_t(games + gameEnds));
    for (long long g = 0; g < games + gameEnds; ++g) {
        const int white = int(rng.below(uint64_t(players)));
        int black = int(rng.below(uint64_t(players - 1)));
        if (black >= white) ++black;
        const double p = play::eloExpected(truth[size_t(white)], truth[size_t(black)]);
        const double drawShare = 0.3 * (1.0 - std::abs(2.0 * p - 1.0));
        const double u = rng.uniform();
        const play::Outcome o = u < p - drawShare / 2   ? play::Outcome::FirstWins
                                 : u < p + drawShare / 2 ? play::Outcome::Draw
                                                         : play::Outcome::SecondWins;
        list.push_back(play::encounterOf(white, black, o));
    }

    std::vector<play::Encounter> more(list.begin() + std::ptrdiff_t(games), list.end());
    list.resize(size_t(games));

    play::BradleyTerryOptions options;
    options.bootstrapSamples = int(samples);
    options.seed = uint64_t(seed);
    double best = 1e300;
    play::BradleyTerryFit fit;
    for (long long r = 0; r < repeat; ++r) {
        const auto start = std::chrono::steady_clock::now();
        fit = play::fitBradleyTerry(int(players), list, options);
        const double ms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        best = std::min(best, ms);
        std::printf("run %lld: %.1f ms\n", r + 1, ms);
    }
    const size_t pairs = play::tallyPairs(int(players), list, false).size();
    double width = 0;
    double error = 0;
    for (size_t i = 0; i < size_t(players); ++i) {
        width += fit.high[i] - fit.low[i];
        error += std::abs((fit.ratings[i] - 1500) - (truth[i] - truthMean));
    }
    std::printf("Bradley-Terry + %lld bootstrap samples, %lld players, %lld games (%zu pairs): "
                "best %.1f ms; Newton iterations: %d (point fit), %.2f per bootstrap sample\n",
                samples, players, games, pairs, best, fit.iterations,
                samples > 0 ? double(fit.bootstrapIterations) / double(samples) : 0.0);
    std::printf("mean 95%% interval width %.2f Elo; mean |fit - truth| after centring %.1f Elo\n",
                width / double(players), error / double(players));
    if (gameEnds > 0) {
        list.insert(list.end(), more.begin(), more.end());
        benchGameEnds(list, size_t(players), size_t(games), size_t(gameEnds));
    }
    return 0;
}

} // namespace chaiba::cli
