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

double estimatePromptTokens(ContextPolicy policy, int ply, const TokenExpectation& expectation, int windowMoves) {
    const bool measuredStateless = expectation.statelessBaseTokens > 0;
    const double movesGrowth = measuredStateless ? expectation.statelessGrowthPerPly : kStatelessTokensPerPly;
    switch (policy) {
    case ContextPolicy::Full:
        if (expectation.promptGrowthPerPly <= 0) return expectation.promptTokensPerMove;
        return expectation.promptBaseTokens + expectation.promptGrowthPerPly * ply;
    case ContextPolicy::Windowed: {
        // The window fills in its first 2N plies; then only the move list grows.
        const int window = 2 * std::max(1, windowMoves);
        const int inWindow = std::min(ply, window);
        const double filled = expectation.windowPlies == window
                                  ? expectation.windowedBaseTokens + expectation.windowedGrowthPerPly * inWindow
                                  : estimatePromptTokens(ContextPolicy::Full, inWindow, expectation);
        return filled + movesGrowth * std::max(0, ply - window);
    }
    case ContextPolicy::Stateless: break;
    }
    // Stateless: a fixed part (system prompt, tool schema, context template) plus the move list,
    // as measured with these settings, else about 1.65 tokens per half-move (measured once: 982 at
    // plies 1-20, 1015 at 21-40).
    return (measuredStateless ? expectation.statelessBaseTokens : kStatelessFixedPromptTokens) + movesGrowth * ply;
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
        // A game of `moves` of its own moves (every other ply): the prompts summed as they grow.
        const ContextPolicy policy = contextPolicyOf(config, int(i));
        auto promptAt = [&](int m) { return estimatePromptTokens(policy, 2 * m, expectation, config.contextWindowMoves); };
        auto promptTokensOf = [&](int moves) {
            double promptTokens = 0;
            for (int m = 0; m < moves; ++m) promptTokens += promptAt(m);
            return promptTokens;
        };
        // A game's money and tokens, cut at the per-game token budget: a model that has used it
        // forfeits at its next turn, so a game takes at most the budget and the turn that crossed it.
        auto bounded = [&](double usd, double tokens, int moves) {
            if (!config.gameTokenBudget || tokens <= 0) return usd;
            const double lastTurn = expectation.attemptsPerMove *
                                    (promptAt(std::max(0, moves - 1)) + expectation.completionTokensPerMove);
            const double allowed = double(*config.gameTokenBudget) + lastTurn;
            if (tokens <= allowed) return usd;
            estimate.tokenBudgetBounds = true;
            return usd * allowed / tokens;
        };
        auto gameUsd = [&](int moves) {
            const double prompt = expectation.attemptsPerMove * promptTokensOf(moves);
            const double answers = expectation.attemptsPerMove * moves * expectation.completionTokensPerMove;
            return bounded(prompt * price->promptUsdPerToken + answers * price->completionUsdPerToken,
                           prompt + answers, moves);
        };
        // A game never runs past the ply limit: the typical game is at most that long.
        const int typical =
            std::max(1, std::min(int(std::lround(expectation.movesPerGame)), std::max(1, config.maxPlies / 2)));
        // The typical game: the flat average a move the measured game gave (what was shown before).
        const double averagePrompt =
            policy == ContextPolicy::Full ? expectation.promptTokensPerMove : promptTokensOf(typical) / typical;
        const double perMove = expectation.attemptsPerMove *
                               (averagePrompt * price->promptUsdPerToken +
                                expectation.completionTokensPerMove * price->completionUsdPerToken);
        const double typicalTokens =
            expectation.attemptsPerMove * typical * (averagePrompt + expectation.completionTokensPerMove);
        estimate.perParticipantUsd[i] =
            bounded(perMove * typical, typicalTokens, typical) * estimate.gamesPerParticipant[i];
        estimate.totalUsd += estimate.perParticipantUsd[i];
        estimate.upToUsd += gameUsd(std::max(typical, config.maxPlies / 2)) * estimate.gamesPerParticipant[i];
        const double promptOnly = promptTokensOf(typical);
        estimate.fromUsd += bounded(promptOnly * price->promptUsdPerToken, promptOnly, typical) *
                            estimate.gamesPerParticipant[i];
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
