// Money: the estimate shown before Start (catalog prices per token x expected tokens per game)
// and the hard spending cap checked while the tournament runs. Prices come from the caller (the
// model catalog), so this stays free of the LLM layer.
#pragma once

#include "src/arena/tournament.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace chaiba::arena {

struct ModelPrice {
    double promptUsdPerToken = 0;
    double completionUsdPerToken = 0;
};
// The catalog's price of a model id; nothing if the catalog does not know it.
using PriceLookup = std::function<std::optional<ModelPrice>(const std::string& modelId)>;

// What one LLM player is expected to use per game. Defaults: a 40-move game, a prompt that grows
// with the history (~1500 tokens on average), a short answer with reasoning (~400 tokens), and
// 10% of answers repeated after an illegal or malformed move.
struct TokenExpectation {
    double movesPerGame = 40;
    double promptTokensPerMove = 1500;
    double completionTokensPerMove = 400;
    double attemptsPerMove = 1.1;
};

struct BudgetEstimate {
    double totalUsd = 0;
    std::vector<double> perParticipantUsd;   // 0 for engines and the random mover
    std::vector<double> gamesPerParticipant; // expected games (the arena's are an average)
    int games = 0;                           // games in the whole tournament
    std::vector<std::string> unpricedModels; // LLM models without a catalog price (counted as 0)
    bool exceedsCap = false;                 // totalUsd > the config's budget
};

// Games each participant plays in the schedule of a valid config.
std::vector<double> expectedGamesPerParticipant(const TournamentConfig& config);
BudgetEstimate estimateBudget(const TournamentConfig& config, const PriceLookup& prices,
                              const TokenExpectation& expectation = {});

// The running total against the hard cap. The runner adds every cost as it is reported; once the
// cap is reached no new request may start and the tournament stops.
class BudgetTracker {
public:
    BudgetTracker(std::optional<double> capUsd, int participants);
    void add(int participant, double usd); // negative or non-finite amounts are ignored
    double spentUsd() const { return spentUsd_; }
    double spentUsd(int participant) const;
    const std::optional<double>& capUsd() const { return capUsd_; }
    // Sums of many small costs are inexact: within a nano-dollar of the cap counts as reached.
    static constexpr double kToleranceUsd = 1e-9;
    bool capReached() const { return capUsd_ && spentUsd_ >= *capUsd_ - kToleranceUsd; }
    // True if a request expected to cost `nextUsd` fits under the cap.
    bool allows(double nextUsd) const { return !capUsd_ || spentUsd_ + nextUsd <= *capUsd_ + kToleranceUsd; }
    std::optional<double> remainingUsd() const;

private:
    std::optional<double> capUsd_;
    double spentUsd_ = 0;
    std::vector<double> perParticipant_;
};

} // namespace chaiba::arena
