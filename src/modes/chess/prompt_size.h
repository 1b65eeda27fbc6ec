// The prompt an LLM player really sends, measured rather than assumed: a game played by two
// scripted models through the real agent (system prompt, conversation, context messages, tool
// schemas, the replies kept in the history), every request body counted. The arena's cost
// estimate starts from it and moves to the tokens measured once games have run.
#pragma once

#include "src/modes/chess/chess_prompts.h"
#include "src/modes/chess/chess_settings.h"
#include "src/modes/chess/cost_estimate.h"
#include "src/modes/chess/layers.h"

#include <vector>

namespace chaiba::chessmode {

// Characters per token of English prose and JSON (the usual rule of thumb for GPT-style
// tokenizers); request bodies are measured in characters.
inline constexpr double kCharsPerToken = 4.0;

// Prompt tokens of each request of one side-independent game of `moves` full moves (one entry per
// ply, ply order), as the agent builds them under `policy` (ContextPolicy, conversation.h: the
// whole conversation, stateless, or windowed with settings.contextWindowMoves) with the person's
// settings.
std::vector<long long> measurePromptTokens(ContextPolicy policy, const AgentPrompts& prompts,
                                           const ChessPlaySettings& settings, int moves = 40);

// The per-move expectation for the cost estimate: the prompt tokens averaged over such a game
// (the prompt grows with the game under the full conversation), answers and retries as defaults,
// and the growth of every policy's prompt (the windowed one with settings.contextWindowMoves,
// unless `windowed` is false: fitWindowed can add it later).
TokenExpectation tokenExpectation(ContextPolicy policy, const AgentPrompts& prompts,
                                  const ChessPlaySettings& settings, int moves = 40, bool windowed = true);
// The windowed policy's line in `e` (windowedBaseTokens, windowedGrowthPerPly, windowPlies), measured
// with settings.contextWindowMoves: a change of the window measures one game, not every policy's.
void fitWindowed(TokenExpectation& e, const AgentPrompts& prompts, const ChessPlaySettings& settings,
                 int moves = 40);

} // namespace chaiba::chessmode
