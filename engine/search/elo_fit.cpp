// Maximum-likelihood Elo from results against anchors; see elo_fit.h.
#include "engine/search/elo_fit.h"

#include <cmath>
#include <cstdio>

namespace chaiba::search {

namespace {

constexpr double kSearchLow = -2000;
constexpr double kSearchHigh = 6000;
constexpr double kHalfChiSquare95 = 1.920729; // chi-square(1 dof) 95% quantile / 2

double logLikelihood(std::span<const AnchorResult> results, double elo) {
    double sum = 0;
    for (const auto& r : results) {
        const double p = expectedScore(elo, r.anchorElo);
        const double score = r.wins + 0.5 * r.draws;
        const double games = r.wins + r.draws + r.losses;
        if (score > 0) sum += score * std::log(p);
        if (games - score > 0) sum += (games - score) * std::log(1 - p);
    }
    return sum;
}

// d(logLikelihood)/d(elo) up to a positive factor: decreasing in elo.
double gradient(std::span<const AnchorResult> results, double elo) {
    double sum = 0;
    for (const auto& r : results) {
        const double games = r.wins + r.draws + r.losses;
        sum += r.wins + 0.5 * r.draws - games * expectedScore(elo, r.anchorElo);
    }
    return sum;
}

// Bisection for the elo where f changes sign; f(lo) and f(hi) must differ in sign.
template <class F> double bisect(F f, double lo, double hi) {
    const bool lowPositive = f(lo) > 0;
    for (int i = 0; i < 100; ++i) {
        const double mid = 0.5 * (lo + hi);
        if ((f(mid) > 0) == lowPositive)
            lo = mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}

} // namespace

double expectedScore(double elo, double opponentElo) {
    return 1.0 / (1.0 + std::pow(10.0, (opponentElo - elo) / 400.0));
}

std::optional<EloEstimate> fitElo(std::span<const AnchorResult> results) {
    EloEstimate e;
    for (const auto& r : results) {
        e.games += r.wins + r.draws + r.losses;
        e.score += r.wins + 0.5 * r.draws;
    }
    if (e.games == 0) return std::nullopt;
    const auto g = [&](double elo) { return gradient(results, elo); };
    const bool allWon = e.score >= e.games;
    const bool allLost = e.score <= 0;
    double best = 0;
    double bestLikelihood = 0; // the supremum when the maximum is at infinity
    if (!allWon && !allLost) {
        best = bisect(g, kSearchLow, kSearchHigh);
        bestLikelihood = logLikelihood(results, best);
    }
    const auto drop = [&](double elo) {
        return logLikelihood(results, elo) - bestLikelihood + kHalfChiSquare95;
    };
    if (allWon) {
        e.unboundedAbove = true;
        e.low95 = bisect(drop, kSearchLow, kSearchHigh);
        e.high95 = e.low95;
        e.elo = e.low95;
    } else if (allLost) {
        e.unboundedBelow = true;
        e.high95 = bisect(drop, kSearchLow, kSearchHigh);
        e.low95 = e.high95;
        e.elo = e.high95;
    } else {
        e.elo = best;
        e.low95 = bisect(drop, kSearchLow, best);
        e.high95 = bisect(drop, best, kSearchHigh);
    }
    return e;
}

std::string eloEstimateText(const EloEstimate& estimate) {
    char buffer[96];
    if (estimate.unboundedAbove)
        std::snprintf(buffer, sizeof buffer, "> %.0f", estimate.low95);
    else if (estimate.unboundedBelow)
        std::snprintf(buffer, sizeof buffer, "< %.0f", estimate.high95);
    else
        std::snprintf(buffer, sizeof buffer, "%.0f [%.0f, %.0f]", estimate.elo, estimate.low95,
                      estimate.high95);
    return buffer;
}

} // namespace chaiba::search
