// Prompt sizes measured through the real agents: the full conversation grows with the game, and
// the cost estimate takes the measured average instead of a fixed guess.
#include "src/modes/chess/prompt_size.h"

#include "src/llm/assets.h"

#include <doctest/doctest.h>

#include <numeric>

using namespace chaiba;
using namespace chaiba::chessmode;

namespace {

AgentPrompts shippedPrompts() {
    llm::DirectoryAssetSource assets(std::string(CHAIBA_SOURCE_DIR) + "/assets");
    return *loadAgentPrompts(assets).value;
}

} // namespace

TEST_CASE("prompt size: one request a ply, growing with the conversation") {
    const AgentPrompts prompts = shippedPrompts();
    const ChessPlaySettings settings;
    const std::vector<long long> sizes = measurePromptTokens(ContextPolicy::Full, prompts, settings, 20);
    REQUIRE(sizes.size() == 40);
    // The first request holds at least the system prompt and the tool schema.
    CHECK(double(sizes.front()) >= double(prompts.systemBase.size()) / kCharsPerToken);
    // Every request repeats the previous one and adds the moves since: never smaller.
    for (size_t i = 2; i < sizes.size(); ++i) CHECK(sizes[i] > sizes[i - 2]);
    // Twenty moves of replies and context: the last prompt is several times the first.
    CHECK(sizes.back() > 3 * sizes.front());
}

TEST_CASE("prompt size: the estimate's expectation is the measured average, longer games cost more a move") {
    const AgentPrompts prompts = shippedPrompts();
    const ChessPlaySettings settings;
    const std::vector<long long> sizes = measurePromptTokens(ContextPolicy::Full, prompts, settings, 10);
    const TokenExpectation e10 = tokenExpectation(ContextPolicy::Full, prompts, settings, 10);
    const double mean = double(std::accumulate(sizes.begin(), sizes.end(), 0LL)) / double(sizes.size());
    CHECK(e10.promptTokensPerMove == doctest::Approx(mean));
    CHECK(e10.movesPerGame == 10);
    const TokenExpectation e40 = tokenExpectation(ContextPolicy::Full, prompts, settings, 40);
    MESSAGE("prompt tokens a move, 40-move game: " << e40.promptTokensPerMove);
    CHECK(e40.promptTokensPerMove > e10.promptTokensPerMove * 1.5);
}

TEST_CASE("prompt size: the windowed prompt grows until its window is full, then only by the move list") {
    const AgentPrompts prompts = shippedPrompts();
    ChessPlaySettings settings;
    settings.contextWindowMoves = 4;
    const std::vector<long long> windowed = measurePromptTokens(ContextPolicy::Windowed, prompts, settings, 30);
    const std::vector<long long> full = measurePromptTokens(ContextPolicy::Full, prompts, settings, 30);
    REQUIRE(windowed.size() == 60);
    REQUIRE(full.size() == 60);
    CHECK(windowed[8] > windowed[0] + 200);                         // four turns of answers kept
    CHECK(windowed[59] - windowed[20] < (full[59] - full[20]) / 10); // then flat but for the move list
    CHECK(windowed[59] < full[59] / 2);
    MESSAGE("windowed 4: " << windowed[0] << " at ply 1, " << windowed[9] << " at 10, " << windowed[59]
                           << " at 60; full: " << full[59] << " at 60");
    // The estimate's model of it (grows up to the window, then flat) is close to what is sent.
    const TokenExpectation e = tokenExpectation(ContextPolicy::Full, prompts, settings, 30);
    CHECK(e.windowPlies == 8);
    for (int ply : {4, 8, 30, 58})
        CHECK(estimatePromptTokens(ContextPolicy::Windowed, ply, e, 4) ==
              doctest::Approx(double(windowed[size_t(ply)])).epsilon(0.15));
}

TEST_CASE("cost estimate: the per-game token budget bounds the range, whatever the game's length") {
    const AgentPrompts prompts = shippedPrompts();
    const ChessPlaySettings settings;
    const TokenExpectation e = tokenExpectation(ContextPolicy::Full, prompts, settings);
    TournamentConfig config;
    config.participants = {{"llm:a/model", "", -1}, {"random", "", -1}};
    config.format = play::Format::DoubleRoundRobin;
    config.games = 1;
    config.maxPlies = 600;
    const play::PriceLookup prices = [](const std::string&) -> std::optional<play::ModelPrice> {
        return play::ModelPrice{1e-6, 2e-6};
    };
    const BudgetEstimate open = estimateBudget(config, prices, e);
    config.gameTokenBudget = 200000;
    const BudgetEstimate bounded = estimateBudget(config, prices, e);
    CHECK(bounded.tokenBudgetBounds);
    CHECK_FALSE(open.tokenBudgetBounds);
    CHECK(bounded.upToUsd < open.upToUsd / 5);
    // A model's game takes at most the budget and the turn that crossed it, at the dearer price.
    const double lastTurn = e.attemptsPerMove * (estimatePromptTokens(ContextPolicy::Full, 600, e) + e.completionTokensPerMove);
    CHECK(bounded.upToUsd <= 2 * (200000 + lastTurn) * 2e-6);
    CHECK(bounded.fromUsd <= bounded.totalUsd);
    CHECK(bounded.totalUsd <= bounded.upToUsd);
    // A budget no game reaches changes nothing.
    config.gameTokenBudget = 1000000000;
    const BudgetEstimate wide = estimateBudget(config, prices, e);
    CHECK_FALSE(wide.tokenBudgetBounds);
    CHECK(wide.upToUsd == doctest::Approx(open.upToUsd));
}
