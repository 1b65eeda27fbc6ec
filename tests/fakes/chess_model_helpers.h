// Helpers for tests that script a chess-playing model through the fake chat: the shipped prompts,
// and the FEN of the latest context message a request carries.
#pragma once

#include "src/llm/assets.h"
#include "src/modes/chess/chess_prompts.h"
#include "src/llm/chat.h"

#include <doctest/doctest.h>

#include <string>

namespace chaiba::fakes {

inline chessmode::AgentPrompts loadTestPrompts() {
    llm::DirectoryAssetSource assets(std::string(CHAIBA_SOURCE_DIR) + "/assets");
    auto p = chessmode::loadAgentPrompts(assets);
    REQUIRE(p.isOk());
    return *p.value;
}

// The FEN of the latest context message ("Position (FEN): ...").
inline std::string latestFen(const llm::ChatRequest& r) {
    for (auto it = r.messages.rbegin(); it != r.messages.rend(); ++it) {
        const auto at = it->content.find("Position (FEN): ");
        if (at == std::string::npos) continue;
        const auto end = it->content.find('\n', at);
        return it->content.substr(at + 16, end == std::string::npos ? std::string::npos : end - at - 16);
    }
    return {};
}

} // namespace chaiba::fakes
