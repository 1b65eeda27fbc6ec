// A turn's memory within its context budget: the rolling summary of older turns (which turn holds
// it, when to fold more turns into it, what the folding call is given), and the messages every
// agent of a turn shares (the game context, the summary, the last turns whole, the player's line)
// with their estimated size, which the page's meter shows before Send.
#pragma once

#include "src/llm/chat.h"
#include "src/modes/story/game_context.h"
#include "src/modes/story/story_prompts.h"
#include "src/modes/story/transcript.h"
#include "src/modes/story/world_config.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace chaiba::story {

// A summary longer than this (about 1 500 tokens) is cut at its end with a note: a model that
// ignores the prompt's length cannot grow the context without bound.
inline constexpr std::size_t kMaxSummaryBytes = 6000;

// The conversation's memory: the summary of the last turn that wrote one, or nothing.
std::optional<StorySummary> currentSummary(const Conversation& conversation);

// Which play turns a turn sends whole: those after the summary's last turn, in order (a person's
// file edits are in the files, so in the context, and never sent as messages).
std::vector<const TurnRecord*> unsummarisedTurns(const Conversation& conversation,
                                                 const std::optional<StorySummary>& summary);

// What a turn folds into the summary before it plays: once 2N turns wait unsummarised, all but the
// last N (so a fold comes every N turns and at most 2N-1 turns go whole).
struct FoldPlan {
    std::vector<const TurnRecord*> turns; // to fold, in order; empty: no fold this turn
    int throughTurn = 0;                  // the new summary's last turn
};
FoldPlan planFold(const Conversation& conversation, int recentTurns);

// The folding call's user message: the summary so far and the turns to fold (each cut to a
// few thousand characters).
std::string foldRequestText(const std::optional<StorySummary>& summary, const FoldPlan& plan);
// The model's answer made a summary (trimmed, cut to kMaxSummaryBytes); an error when it is empty.
llm::Result<StorySummary> foldAnswer(const std::string& answer, int throughTurn);

// "# The Story So Far (turns 1-K, summarised)\n\n<text>", "" without a summary.
std::string summaryMessage(const std::optional<StorySummary>& summary);

// What it is: the messages every agent of a turn shares, and what they hold.
struct TurnContext {
    std::vector<llm::ChatMessage> messages; // context, summary, recent turns, off-screen, player
    std::size_t transcriptAt = 0;           // the first recent turn's message
    std::size_t transcriptCount = 0;        // and how many there are
    GameContext files;                      // every context file's state
    std::optional<StorySummary> summary;
    int recentTurns = 0;     // play turns sent whole
    long long tokens = 0;    // estimated, of the messages
};

// `fixedTokens`: what the request holds besides (the system prompt and the tools), which the
// budget counts first; keyed files take what the rest leaves of memory.contextTokens.
TurnContext buildTurnContext(const WorldFiles& files, const Conversation& conversation,
                             const std::optional<StorySummary>& summary, const std::string& playerText,
                             const std::string& offScreen, const MemorySettings& memory, long long fixedTokens);

// The narrator's system prompt and tools, estimated (the budget's fixed part).
long long narratorFixedTokens(const StoryPrompts& prompts, const WorldConfig& config, const WorldFiles& files);

// What the page's meter shows before Send: the narrator's request as the next turn would build it
// (the summary as it stands: a fold due this turn makes it smaller), against the budget.
struct ContextEstimate {
    long long promptTokens = 0; // the narrator's first request, estimated
    long long budgetTokens = 0;
    TurnContext context;
    bool foldDue = false; // the next turn folds older turns into the summary first
};
ContextEstimate estimateNextTurn(const WorldFiles& files, const StoryPrompts& prompts, const WorldConfig& config,
                                 const Conversation& conversation, const std::string& playerText);

} // namespace chaiba::story
