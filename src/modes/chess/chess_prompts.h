// The chess agent's prompt texts and tools (assets/chess/prompts, assets/chess/tools), loaded once
// through the LLM layer's asset reader.
#pragma once

#include "src/modes/chess/layers.h"
#include "src/llm/assets.h"
#include "src/llm/prompt_library.h"

#include <string>
#include <utility>
#include <vector>

namespace chaiba::chessmode {

// The prompt texts and the tool, loaded once. Templates use {placeholders} (see fillTemplate).
struct AgentPrompts {
    std::string systemBase;
    std::string systemWhite;
    std::string systemBlack;
    std::string textMode;
    std::string gameStart;
    std::string gameStartReply;
    std::string context;
    std::string invalidMove;
    std::string noMove;
    std::string drawOffer;         // added to a turn with an open draw offer (tool mode)
    std::string drawOfferText;     // the same for text mode (ACCEPT DRAW / DECLINE DRAW lines)
    std::string drawAnswerInvalid; // feedback on a malformed answer to a draw offer: {reason}
    llm::ToolDefinition makeMove;
    llm::ToolDefinition respondToDraw; // offered only on a turn with an open draw offer
};

// The texts as a tournament's bundle records them (its harness), by name: "system_base",
// "system_white", ..., "tool_make_move" (the tool's description and JSON Schema), in a fixed order.
std::vector<std::pair<std::string, std::string>> promptTexts(const AgentPrompts& prompts);

// Every file must be present and the tool schema valid; the error names the first that is not.
llm::Result<AgentPrompts> loadAgentPrompts(const llm::AssetSource& assets);
// The chess prompts as a library (assets/chess/prompts/*.md by name), for editing and reset.
llm::Result<llm::PromptLibrary> loadChessPromptLibrary(const llm::AssetSource& assets);

} // namespace chaiba::chessmode
