// A Story conversation as typed data: its turns, each with the player's message, what the agents
// did (narration, tool calls, dice rolls with their bands, off-screen summaries) and the exact file
// changes of the turn, so undo reverts the transcript and the world together. JSON at the edge.
#pragma once

#include "src/llm/chat.h"
#include "src/modes/story/orchestrator.h"
#include "src/modes/story/turn_changes.h"
#include "src/modes/story/twist_of_fate.h"

#include <functional>
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

// Every turn inside one document (version 2: what older builds stored, and the tests' form).
std::string conversationToJson(const Conversation& conversation);
// Validated: a readable error (never a crash) on anything malformed. Reads versions 1 and 2 (every
// turn inside); a version 3 head (turns in files of their own) is refused here: see below.
llm::Result<Conversation> conversationFromJson(std::string_view text);

// A conversation as the world keeps it (version 3, conversation_store.h): a head with its fields
// and its turns' numbers, each turn in a file of its own, and a file content of more than 2 KiB
// stored once as a version the turn names ({"version": name}) instead of inside the turn.
struct ContentVersions {
    // Stores `content` (of a file at `path`) and gives its name, or why it could not.
    std::function<llm::Result<std::string>(const std::string& path, const std::string& content)> put;
    // The content a name stands for, or why it cannot be read.
    std::function<llm::Result<std::string>(const std::string& path, const std::string& name)> get;
};
struct ConversationHead {
    Conversation conversation; // its fields; its turns too when inlineTurns
    std::vector<int> turnFiles; // version 3: the turns' numbers, in order
    bool inlineTurns = false;   // versions 1 and 2: the turns are inside (conversation.turns)
};
std::string conversationHeadJson(const Conversation& conversation);
llm::Result<ConversationHead> conversationHeadFromJson(std::string_view text);
llm::Result<std::string> turnToJson(const TurnRecord& turn, const ContentVersions& versions);
llm::Result<TurnRecord> turnFromJson(std::string_view text, const ContentVersions& versions);

// Standard base64 (images inside JSON: changes, exports).
std::string base64Encode(std::string_view bytes);
std::optional<std::string> base64Decode(std::string_view text);

} // namespace chaiba::story
