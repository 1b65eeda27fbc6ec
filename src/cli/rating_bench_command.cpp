// `chaiba rating-bench`: times the Bradley-Terry fit with bootstrap intervals on a synthetic
// tournament (default 50 players, 10,000 games, 1000 samples: the arena's figure of merit).
#include "src/play/rating.h"
#include "src/cli/args.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace chaiba::cli {

int runRatingBenchCommand(const std::vector<std::string>& argv) {
    Args args(argv, {"players", "games", "samples", "seed", "repeat"}, {});
    const long long players = args.integer("players", 50, 2, 1000);
    const long long games = args.integer("games", 10000, 1, 10000000);
    const long long samples = args.integer("samples", 1000, 0, 100000);
    const long long seed = args.integer("seed", 1, 0, (1LL << 62));
    const long long repeat = args.integer("repeat", 3, 1, 100);
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
    list.reserve(size_t(games));
    for (long long g = 0; g < games; ++g) {
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
    return 0;
}

} // namespace chaiba::cli
