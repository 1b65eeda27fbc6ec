// Budget estimate from the schedule and catalog prices.
#include "src/modes/chess/cost_estimate.h"

#include <cstdio>

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
    if (policy == ContextPolicy::Full) {
        if (expectation.promptGrowthPerPly <= 0) return expectation.promptTokensPerMove;
        return expectation.promptBaseTokens + expectation.promptGrowthPerPly * ply;
    }
    // Stateless: a fixed part (system prompt, tool schema, context template) plus the move list,
    // as measured with these settings, else about 1.65 tokens per half-move (measured once: 982 at
    // plies 1-20, 1015 at 21-40).
    if (expectation.statelessBaseTokens > 0)
        return expectation.statelessBaseTokens + expectation.statelessGrowthPerPly * ply;
    return kStatelessFixedPromptTokens + kStatelessTokensPerPly * ply;
}

namespace {
// The prompt a move averaged over a game of `moves` own moves (the typical estimate).
double averagePrompt(ContextPolicy policy, int moves, const TokenExpectation& expectation) {
    if (policy == ContextPolicy::Full) return expectation.promptTokensPerMove;
    double sum = 0;
    for (int m = 0; m < moves; ++m) sum += estimatePromptTokens(policy, 2 * m, expectation);
    return sum / std::max(1, moves);
}
} // namespace

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
        // A game of `moves` of its own moves (every other ply): the prompts summed as they grow.
        const ContextPolicy policy = contextPolicyOf(config, int(i));
        auto promptTokensOf = [&](int moves) {
            double promptTokens = 0;
            for (int m = 0; m < moves; ++m)
                promptTokens += policy == ContextPolicy::Full && expectation.promptGrowthPerPly <= 0
                                    ? expectation.promptTokensPerMove
                                    : estimatePromptTokens(policy, 2 * m, expectation);
            return promptTokens;
        };
        auto gameUsd = [&](int moves) {
            return expectation.attemptsPerMove * (promptTokensOf(moves) * price->promptUsdPerToken +
                                                  moves * expectation.completionTokensPerMove *
                                                      price->completionUsdPerToken);
        };
        // A game never runs past the ply limit: the typical game is at most that long.
        const int typical =
            std::max(1, std::min(int(std::lround(expectation.movesPerGame)), std::max(1, config.maxPlies / 2)));
        // The typical game: the flat average a move the measured game gave (what was shown before).
        const double perMove = expectation.attemptsPerMove *
                               (averagePrompt(policy, typical, expectation) * price->promptUsdPerToken +
                                expectation.completionTokensPerMove * price->completionUsdPerToken);
        estimate.perParticipantUsd[i] = perMove * typical * estimate.gamesPerParticipant[i];
        estimate.totalUsd += estimate.perParticipantUsd[i];
        estimate.upToUsd += gameUsd(std::max(typical, config.maxPlies / 2)) * estimate.gamesPerParticipant[i];
        estimate.fromUsd += promptTokensOf(typical) * price->promptUsdPerToken * estimate.gamesPerParticipant[i];
    }
    estimate.typicalPlies = std::min(int(std::lround(2 * expectation.movesPerGame)), config.maxPlies);
    estimate.longestPlies = std::max(estimate.typicalPlies, config.maxPlies);
    estimate.upToUsd = std::max(estimate.upToUsd, estimate.totalUsd);
    estimate.games = int(std::lround(appearances / 2));
    estimate.exceedsCap = config.budgetUsd && estimate.totalUsd > *config.budgetUsd;
    return estimate;
}

namespace {

std::string usd(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "$%.2f", value);
    return text;
}

// "1 800": thousands apart, as the page writes counts.
std::string count(int n) {
    std::string digits = std::to_string(n), out;
    for (size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ' ';
        out += digits[i];
    }
    return out;
}

const char* formatTitle(play::Format f) {
    switch (f) {
    case play::Format::Arena: return "Continuous arena";
    case play::Format::RoundRobin: return "Round robin";
    case play::Format::DoubleRoundRobin: return "Double round robin";
    case play::Format::Gauntlet: return "Gauntlet";
    }
    return "Continuous arena";
}

} // namespace

std::string formatChangeNote(const BudgetEstimate& beforeEstimate, const TournamentConfig& after,
                             const BudgetEstimate& afterEstimate) {
    if (afterEstimate.games == beforeEstimate.games || afterEstimate.games <= 0) return {};
    std::string note = std::string(formatTitle(after.format)) + ": " + count(after.games) +
                       (after.format == play::Format::Arena ? " games in total make "
                                                            : std::string(after.games == 1 ? " meeting" : " meetings") +
                                                                  " per pair make ") +
                       count(afterEstimate.games) + " games (it was " + count(beforeEstimate.games) + ")";
    if (afterEstimate.upToUsd > 0 || beforeEstimate.upToUsd > 0)
        note += "; the estimate is now " + usd(afterEstimate.fromUsd) + " to " + usd(afterEstimate.upToUsd) +
                " (it was " + usd(beforeEstimate.fromUsd) + " to " + usd(beforeEstimate.upToUsd) + ")";
    return note + ".";
}

} // namespace chaiba::chessmode
