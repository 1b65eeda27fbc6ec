// Budget estimate from the schedule and catalog prices.
#include "src/modes/chess/cost_estimate.h"

#include <algorithm>
#include <cmath>

namespace chaiba::chessmode {

namespace {
// Measured with tests/e2e/mock_openrouter.py (README "Context policy"); see estimatePromptTokens.
constexpr double kStatelessFixedPromptTokens = 965;
constexpr double kStatelessTokensPerPly = 1.65;
} // namespace

std::vector<double> expectedGamesPerParticipant(const TournamentConfig& config) {
    const int n = int(config.participants.size());
    std::vector<double> games(static_cast<size_t>(n), 0.0);
    if (n < 2) return games;
    switch (config.format) {
    case Format::Arena:
        for (double& g : games) g = 2.0 * config.games / n;
        break;
    case Format::RoundRobin:
    case Format::DoubleRoundRobin: {
        const int meetings = config.games * (config.format == Format::DoubleRoundRobin ? 2 : 1);
        for (double& g : games) g = double(meetings) * (n - 1);
        break;
    }
    case Format::Gauntlet:
        for (int i = 0; i < n; ++i)
            games[size_t(i)] = i == config.gauntletPlayer ? double(config.games) * (n - 1) : config.games;
        break;
    }
    return games;
}

double estimatePromptTokens(ContextPolicy policy, int ply, const TokenExpectation& expectation) {
    if (policy == ContextPolicy::Full) return expectation.promptTokensPerMove;
    // Stateless: a fixed part (system prompt, tool schema, context template) plus the move list,
    // about 1.65 tokens per half-move (measured: 982 at plies 1-20, 1015 at 21-40).
    return kStatelessFixedPromptTokens + kStatelessTokensPerPly * ply;
}

BudgetEstimate estimateBudget(const TournamentConfig& config, const PriceLookup& prices,
                              const TokenExpectation& expectation) {
    BudgetEstimate estimate;
    estimate.promptTokensPerMove = expectation.promptTokensPerMove;
    estimate.gamesPerParticipant = expectedGamesPerParticipant(config);
    estimate.perParticipantUsd.assign(config.participants.size(), 0.0);
    double appearances = 0;
    for (size_t i = 0; i < config.participants.size(); ++i) {
        appearances += estimate.gamesPerParticipant[i];
        const Parsed<PlayerSpec> spec = parsePlayerSpec(config.participants[i].spec);
        if (!spec.ok() || spec.value->kind != PlayerSpec::Kind::Model) continue;
        const std::optional<ModelPrice> price = prices ? prices(spec.value->modelId) : std::nullopt;
        if (!price) {
            if (std::find(estimate.unpricedModels.begin(), estimate.unpricedModels.end(),
                          spec.value->modelId) == estimate.unpricedModels.end())
                estimate.unpricedModels.push_back(spec.value->modelId);
            continue;
        }
        // Average prompt over the game's own moves (every other ply).
        double promptTokens = 0;
        const int moves = std::max(1, int(std::lround(expectation.movesPerGame)));
        for (int m = 0; m < moves; ++m) promptTokens += estimatePromptTokens(contextPolicyOf(config, int(i)), 2 * m, expectation);
        promptTokens /= moves;
        const double perMove = expectation.attemptsPerMove *
                               (promptTokens * price->promptUsdPerToken +
                                expectation.completionTokensPerMove * price->completionUsdPerToken);
        estimate.perParticipantUsd[i] = perMove * expectation.movesPerGame * estimate.gamesPerParticipant[i];
        estimate.totalUsd += estimate.perParticipantUsd[i];
    }
    estimate.games = int(std::lround(appearances / 2));
    estimate.exceedsCap = config.budgetUsd && estimate.totalUsd > *config.budgetUsd;
    return estimate;
}

} // namespace chaiba::chessmode
