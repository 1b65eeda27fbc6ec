// Rating estimate of one player from its results against anchors of known rating (logistic Elo
// model, draws counted as half a point): maximum likelihood and a 95% likelihood-ratio interval.
#pragma once

#include <optional>
#include <span>
#include <string>

namespace chaiba::search {

// What one opponent of known rating scored against the player being rated.
struct AnchorResult {
    double anchorElo = 0;
    int wins = 0; // wins of the rated player
    int draws = 0;
    int losses = 0;
};

// The estimate. When the player won (or lost) every game the likelihood has no interior maximum:
// then `elo` is the bound itself and only one side of the interval is finite (the other is
// +/- infinity), which `unboundedAbove` / `unboundedBelow` say.
struct EloEstimate {
    double elo = 0;
    double low95 = 0;
    double high95 = 0;
    bool unboundedBelow = false;
    bool unboundedAbove = false;
    int games = 0;
    double score = 0; // points of the rated player
};

// Expected score of a player rated `elo` against one rated `opponentElo`. The engine's copy of
// play::eloExpected: engine/ is standard library only and below play/, so it cannot include it;
// tests/rating_test.cpp checks that the two agree.
double expectedScore(double elo, double opponentElo);

// Nothing when there are no games at all.
std::optional<EloEstimate> fitElo(std::span<const AnchorResult> results);

// "1712 [1604, 1830]" or "< 1290" / "> 2410" for one-sided estimates.
std::string eloEstimateText(const EloEstimate& estimate);

} // namespace chaiba::search
