// A Story conversation as typed data: its turns, each with the player's message, what the agents
// did (narration, tool calls, dice rolls with their bands, off-screen summaries) and the exact file
// changes of the turn, so undo reverts the transcript and the world together. JSON at the edge.
#pragma once

#include "src/llm/chat.h"
#include "src/modes/story/orchestrator.h"
#include "src/modes/story/turn_changes.h"
#include "src/modes/story/twist_of_fate.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace chaiba::story {

enum class EntryKind { Player, Narrator, ToolCall, Dice, OffScreen, Edit };
const char* entryKindName(EntryKind kind);

// Which agent an entry or a log step belongs to.
// Person: the one playing, editing a world file by hand.
enum class AgentKind { Orchestrator, WorldAdvance, FactionTurn, Narrator, Image, Person };
const char* agentKindName(AgentKind kind);

// What it is: one line of the transcript. Player/Narrator/OffScreen: text. ToolCall: toolName,
// toolArguments and the result in text (toolError when it failed). Dice: the roll, and text its
// summary for the model. Edit: a person's edit, text the sentence saying which file (the change
// itself is the record's).
struct TranscriptEntry {
    EntryKind kind = EntryKind::Narrator;
    AgentKind agent = AgentKind::Narrator;
    std::string text;
    std::string toolName;
    std::string toolArguments;
    bool toolError = false;
    std::optional<TwistOfFate> twist;
};

// A play turn (the player's message and the agents' answer) or a person's edit of one world file
// between turns: an entry of the history of its own, undone and branched over like a turn.
enum class TurnKind { Play, Edit };

// What it is: one turn: entries in order (the first is the player's message; an edit's only entry
// is its Edit entry), the orchestrator's decision (empty in simple mode), and every file change
// the turn made.
struct TurnRecord {
    int number = 0; // 1-based within its conversation (edits and play turns count alike)
    TurnKind kind = TurnKind::Play;
    std::vector<TranscriptEntry> entries;
    OrchestratorDecision decision;
    TurnChanges changes;
    double costUsd = 0;

    std::string playerText() const;
    // The narrator's text of the turn (its replies joined by blank lines).
    std::string narration() const;
};

// What it is: one conversation of a world. A branch names the conversation and turn it came from.
struct Conversation {
    std::string id;
    std::string title;
    std::string branchedFrom; // "" unless a branch
    int branchedAtTurn = 0;
    std::vector<TurnRecord> turns;
};

std::string conversationToJson(const Conversation& conversation);
// Validated: a readable error (never a crash) on anything malformed.
llm::Result<Conversation> conversationFromJson(std::string_view text);

// Standard base64 (images inside JSON: changes, exports).
std::string base64Encode(std::string_view bytes);
std::optional<std::string> base64Decode(std::string_view text);

} // namespace chaiba::story
