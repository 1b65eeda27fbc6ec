// What an AI player (or a person in its seat) knows when it decides: its role and team (the pack
// for wolves), the living and the dead, its private night results, the chat history (cut oldest
// first past a token budget, with a marker line), the phase and round, the vote tally while voting
// and the voting history. Built only from the events visible to the seat, so a villager's context
// never holds the wolves' chat. Pure functions of the game.
#pragma once

#include "engine/werewolf/game.h"
#include "src/llm/chat.h"
#include "src/modes/werewolf/werewolf_prompts.h"

#include <string>
#include <vector>

namespace chaiba::werewolfmode {

struct ContextOptions {
    int chatTokenBudget = 3000; // chat beyond this many (estimated) tokens is cut, oldest first
    int charsPerToken = 4;      // the estimate: ~4 characters per token
};

// The newest lines whose total length (with a newline each) fits budgetChars, oldest first; when
// any line was cut, the first line is "[... N earlier messages cut ...]".
std::vector<std::string> truncateOldestFirst(const std::vector<std::string>& lines, std::size_t budgetChars);

// The seat's chat history, one line per message, oldest first ("[Day 2] P4: ...",
// "[Night 1, wolves only] P1: ..."), uncut.
std::vector<std::string> chatLines(const werewolf::Game& game, int seat);

// The "[Game State]" text for a seat.
std::string buildGameState(const werewolf::Game& game, int seat, const ContextOptions& options = {});

// The allowed targets as the prompt lists them: "P1, P4, P6".
std::string targetList(const std::vector<int>& seats);

// One decision's task: what is asked, the allowed targets, and for Notes the phase that ended.
struct TaskInfo {
    AskKind kind = AskKind::Vote;
    std::vector<int> targets;
    werewolf::Phase endedPhase = werewolf::Phase::Night; // Notes
    int endedRound = 0;                                  // Notes
};

// The task text of a decision, filled in ({round}, {targets}, rule sentences).
std::string taskText(const WerewolfPrompts& prompts, const werewolf::Game& game, const TaskInfo& task);

// The two messages of a request: the system line, then strategy, notes, game state, task and
// response format (the order of the original design). Only the seat's own role is read from game.
std::vector<llm::ChatMessage> buildMessages(const WerewolfPrompts& prompts, const werewolf::Game& game,
                                            int seat, const std::string& notes, const TaskInfo& task,
                                            const ContextOptions& options = {});

} // namespace chaiba::werewolfmode
