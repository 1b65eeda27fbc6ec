// `chaiba pairing-bench`: how many arena games separate a known ladder of engine levels (the
// calibrated ratings of levels 1-7) with each pairing rule, on the same seeds. Games are simulated
// from the Elo model (a third of the decisive mass drawn); after every 10 games the Bradley-Terry
// fit with bootstrap intervals (as the leaderboard computes them, 200 samples) is checked: the ladder
// is separated when every pair of neighbouring levels has disjoint 95% intervals in the true order.
#include "engine/search/levels.h"
#include "src/cli/args.h"
#include "src/play/rating.h"
#include "src/play/scheduler.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace chaiba::cli {

namespace {

// Games until separated (or maxGames + 1 when never).
int gamesToSeparate(const std::vector<double>& truth, play::ArenaPairing rule, uint64_t seed, int maxGames) {
    play::SchedulerConfig config;
    config.format = play::Format::Arena;
    config.players = int(truth.size());
    config.games = maxGames;
    config.maxConcurrent = 1;
    config.seed = seed;
    config.pairing = rule;
    play::Scheduler scheduler(config);
    play::SplitMix64 rng(seed * 7919 + 17);
    std::vector<play::Encounter> games;
    while (auto p = scheduler.next()) {
        const double e = play::eloExpected(truth[size_t(p->white)], truth[size_t(p->black)]);
        const double u = double(rng.next() >> 11) / double(1ULL << 53);
        // Decisive with probability 1 - d, d = 2/3 * min(e, 1-e): a third of the decisive mass drawn.
        const double draw = (2.0 / 3.0) * std::min(e, 1 - e);
        const double win = e - draw / 2;
        const play::Outcome o = u < win ? play::Outcome::FirstWins
                                : u < win + draw ? play::Outcome::Draw
                                                 : play::Outcome::SecondWins;
        scheduler.onGameFinished(p->id, o);
        games.push_back(play::encounterOf(p->white, p->black, o));
        if (games.size() % 10 != 0) continue;
        play::BradleyTerryOptions options;
        options.bootstrapSamples = 200;
        options.seed = seed;
        const play::BradleyTerryFit fit = play::fitBradleyTerry(config.players, games, options);
        bool separated = true;
        for (size_t i = 0; i + 1 < truth.size() && separated; ++i) // truth is sorted ascending
            separated = fit.high[i] < fit.low[i + 1];
        if (separated) return int(games.size());
    }
    return maxGames + 1;
}

} // namespace

const Usage& pairingBenchUsage() {
    const std::string top = std::to_string(search::maxLevel());
    static const Usage usage{
        "pairing-bench",
        "[--seeds N] [--max-games G] [--first-level L] [--last-level L]",
        "games to separate the engine ladder: nearest-rating vs most-informative arena pairing",
        {{"seeds", "N", "seeds per pairing rule, 1-10000 (default 20)"},
         {"max-games", "G", "games before a seed counts as never separated, 10-1000000 (default 3000)"},
         {"first-level", "L", "lowest engine level of the ladder, 1-" + top + " (default 1)"},
         {"last-level", "L", "highest engine level of the ladder, 1-" + top + " (default " + top + ")"}},
        ""};
    return usage;
}

int runPairingBenchCommand(const std::vector<std::string>& argv) {
    Args args(argv, pairingBenchUsage());
    const long long seeds = args.integer("seeds", 20, 1, 10000);
    const long long maxGames = args.integer("max-games", 3000, 10, 1000000);
    const long long first = args.integer("first-level", 1, 1, search::maxLevel());
    const long long last = args.integer("last-level", search::maxLevel(), 1, search::maxLevel());
    if (args.error() || first >= last) {
        std::fprintf(stderr, "error: %s\n", args.error() ? args.error()->c_str() : "--first-level must be below --last-level");
        return 2;
    }
    std::vector<double> truth;
    for (long long l = first; l <= last; ++l) truth.push_back(search::levelSpec(int(l))->ratingElo);
    std::printf("ladder: engine levels %lld-%lld (calibrated", first, last);
    for (double r : truth) std::printf(" %.0f", r);
    std::printf("), %lld seeds, at most %lld games, one board\n", seeds, maxGames);
    for (const play::ArenaPairing rule : {play::ArenaPairing::NearestRating, play::ArenaPairing::MostInformative}) {
        std::vector<int> needed;
        int failed = 0;
        for (long long s = 1; s <= seeds; ++s) {
            needed.push_back(gamesToSeparate(truth, rule, uint64_t(s), int(maxGames)));
            failed += needed.back() > maxGames ? 1 : 0;
        }
        std::sort(needed.begin(), needed.end());
        double mean = 0;
        for (int n : needed) mean += n;
        mean /= double(needed.size());
        std::printf("%-12s games to separate: median %d, mean %.0f, min %d, max %d%s\n",
                    std::string(play::arenaPairingName(rule)).c_str(), needed[needed.size() / 2], mean, needed.front(),
                    needed.back(), failed ? (" (" + std::to_string(failed) + " seeds never separated)").c_str() : "");
    }
    return 0;
}

} // namespace chaiba::cli
