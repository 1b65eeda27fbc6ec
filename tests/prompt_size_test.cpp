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
