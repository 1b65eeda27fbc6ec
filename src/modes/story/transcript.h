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
// Person: the one playing, editing a world file by hand. Memory: the call that folds older turns
// into the rolling summary.
enum class AgentKind { Orchestrator, WorldAdvance, FactionTurn, Narrator, Image, Person, Memory };
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

// What it is: the rolling summary of a conversation's older turns (1..throughTurn), as the turn
// that wrote it (a model's fold, or a person's edit) left it; the latest one is the memory.
struct StorySummary {
    std::string text;
    int throughTurn = 0;
};

// A play turn (the player's message and the agents' answer) or a person's edit of one world file
// between turns: an entry of the history of its own, undone and branched over like a turn.
enum class TurnKind { Play, Edit };

// What it is: what the game master (or a person's edit) made of one turn: entries in order (the
// first is the player's message; an edit's only entry is its Edit entry), the orchestrator's
// decision (empty in simple mode), every file change, the cost. A regenerated play turn keeps its
// earlier answers as swipes (TurnRecord::otherAnswers).
struct TurnAnswer {
    std::vector<TranscriptEntry> entries;
    OrchestratorDecision decision;
    TurnChanges changes;
    double costUsd = 0;
    // Set when this turn folded older turns into the summary (or a person edited it): undoing the
    // turn takes the summary back to the one before.
    std::optional<StorySummary> summary;
    // Its agent log: logs/<id>/turn-<n>.json when 0, else turn-<n>.v<variant>.json.
    int variant = 0;
    std::string instruction; // the direction it was regenerated with ("" none)
};

// What it is: a person's edit of the narration of play turn `turn` (an edit turn's): the turn's
// entries before it, and the text that replaced its narrator entries (one entry from then on).
struct ReplyEdit {
    int turn = 0;
    std::vector<TranscriptEntry> before;
    std::string text;
};

// What it is: one turn of the history, its shown answer (the base) and the others (swipes, in order;
// the shown one sits at index `shown` among all: turn_steering.h).
struct TurnRecord : TurnAnswer {
    int number = 0; // 1-based within its conversation (edits and play turns count alike)
    TurnKind kind = TurnKind::Play;
    std::vector<TurnAnswer> otherAnswers;
    int shown = 0;
    std::optional<ReplyEdit> replyEdit; // an edit turn that changed a reply

    std::string playerText() const;
    // How many answers the turn has (1 unless regenerated), and what they cost together.
    int answerCount() const { return static_cast<int>(otherAnswers.size()) + 1; }
    double allAnswersCostUsd() const;
    // The narrator's text of the turn (its replies joined by blank lines).
    std::string narration() const;
};

// The shown answer of a play turn, and a turn showing another one (its other answers untouched).
TurnAnswer shownAnswer(const TurnRecord& turn);
void showAnswer(TurnRecord& turn, TurnAnswer answer);

// What it is: one conversation of a world. A branch names the conversation and turn it came from.
struct Conversation {
    std::string id;
    std::string title;
    std::string branchedFrom; // "" unless a branch
    int branchedAtTurn = 0;
    std::vector<TurnRecord> turns;
    // Set by loadConversation when an older build stored it (what moves it to this build's format).
    std::string migrationNote;
    // Undone turns whose records are kept past the last (turns.size()+1 ...): Redo brings them back
    // in order, until a new turn or another change of the history drops them.
    int redoable = 0;
};

// Every turn inside one document (the tests' form; the shipped recording is one of version 2).
std::string conversationToJson(const Conversation& conversation);
// Validated: a readable error (never a crash) on anything malformed. Reads every turn inside
// (versions 1, 2 and 4); a head whose turns are in files of their own is refused here: see below.
llm::Result<Conversation> conversationFromJson(std::string_view text);

// A conversation as the world keeps it (versions 4 and 5, conversation_store.h): a head with its fields
// and the count of its turns (numbered 1..N), each turn a file of its own holding its changes as
// patches, a picture's bytes stored once as a version the turn names ({"version": name}).
// Version 3 (a head listing its turns' numbers, whole contents over 2 KiB as versions) still loads.
struct ContentVersions {
    // Stores `content` (of a file at `path`) and gives its name, or why it could not.
    std::function<llm::Result<std::string>(const std::string& path, const std::string& content)> put;
    // The content a name stands for, or why it cannot be read.
    std::function<llm::Result<std::string>(const std::string& path, const std::string& name)> get;
};
struct ConversationHead {
    Conversation conversation; // its fields; its turns too when inlineTurns
    std::vector<int> turnFiles; // the turns' numbers, in order, when each is a file of its own
    bool inlineTurns = false;   // the turns are inside (conversation.turns)
    int version = 0;            // as stored
};
constexpr int kStoredConversationVersion = 5; // what this build writes
// Version 4 (a record per turn, changes as patches) loads as it is: version 5 only adds fields (a
// turn's other answers, a reply's edit, the head's redoable turns), so it is not moved over.
constexpr int kPatchConversationVersion = 4;
std::string conversationHeadJson(const Conversation& conversation);
llm::Result<ConversationHead> conversationHeadFromJson(std::string_view text);
llm::Result<std::string> turnToJson(const TurnRecord& turn, const ContentVersions& versions);
llm::Result<TurnRecord> turnFromJson(std::string_view text, const ContentVersions& versions);

// Standard base64 (images inside JSON: changes, exports).
std::string base64Encode(std::string_view bytes);
std::optional<std::string> base64Decode(std::string_view text);

} // namespace chaiba::story
