// The agent log of one Story turn: each agent step (input messages, output, tool calls, tokens,
// cost, how it ended) and the turn's time split and cost totals. Stored in the world as
// logs/<conversation>/turn-<n>.json, for the debug view and the README's figures.
#pragma once

#include "src/llm/chat.h"
#include "src/modes/story/transcript.h"

#include <cstdint>
#include <string>
#include <vector>

namespace chaiba::story {

enum class StepStatus { Ok, Refused, Failed };
const char* stepStatusName(StepStatus status);

struct LoggedToolCall {
    std::string name;
    std::string arguments;
    std::string result;
    bool isError = false;
};

// What it is: one agent's work within a turn.
struct AgentStep {
    AgentKind agent = AgentKind::Narrator;
    std::string label; // the faction of a faction_turn, the slug of an image
    std::string model;
    std::vector<llm::ChatMessage> input; // the first request's messages
    std::string output;                  // the final text (or the decision's JSON)
    std::vector<LoggedToolCall> toolCalls;
    llm::Usage usage;
    double costUsd = 0;
    int rounds = 0;
    StepStatus status = StepStatus::Ok;
    std::string error; // why Failed or Refused
    std::int64_t startMs = 0;
    std::int64_t endMs = 0;
};

// Milliseconds from the player's message: -1 where a phase did not happen.
struct TurnTiming {
    std::int64_t orchestratorMs = -1;
    std::int64_t preStepsMs = -1;
    std::int64_t narratorFirstTokenMs = -1;
    std::int64_t totalMs = 0;
};

struct TurnLog {
    std::string conversationId;
    int turn = 0;
    std::vector<AgentStep> steps;
    std::vector<std::string> notes; // fallbacks, dropped factions, refusals
    TurnTiming timing;
    double costUsd = 0;
    llm::Usage usage;
    long long contextTokens = 0; // the narrator's first prompt, as the provider counted it
};

// A regenerated answer's log is a variant of the turn's: logs/<conversation>/turn-<n>.v<variant>.json.
std::string turnLogPath(std::string_view conversationId, int turn, int variant = 0);
// True for a path turnLogPath makes (logs/<conversation>/turn-...json), not logs/world-at.json.
bool isTurnLogPath(std::string_view path);
std::string turnLogToJson(const TurnLog& log);
// A stored log read back (the screen's agent log after a reload); an error on anything malformed.
// Tool-call ids of input messages and the provider's reported cost are not kept.
llm::Result<TurnLog> turnLogFromJson(std::string_view text);

} // namespace chaiba::story
