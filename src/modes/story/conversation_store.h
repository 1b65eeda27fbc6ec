// Conversations kept inside their world, written through WorldFiles (so atomically on disk, as
// keys of their own in the page's store), one record per turn: the head conversations/<id>.json
// (its fields and the count of its turns), each turn in conversations/<id>/turn-<n>.json (its
// transcript, decision, cost and file changes as patches), its agent log in logs/<id>/turn-<n>.json.
// A turn adds its records and rewrites only the small head (the commit), so a campaign is bound
// by no file limit and a save costs the same at turn 1 000 as at turn 10. Older builds'
// conversations (every turn in one file; format 3's whole contents) load and are moved over. Undo
// of a turn (transcript and files together), branching from a message with the world as it was,
// and a whole world with its conversations as one JSON file.
#pragma once

#include "src/modes/story/agent_log.h"
#include "src/modes/story/transcript.h"
#include "src/modes/story/world_files.h"

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace chaiba::story {

constexpr std::size_t kMaxWorldArchiveBytes = 64u << 20; // 64 MiB, an export and an import

// Ids are 1-40 characters of [A-Za-z0-9_-].
bool validConversationId(std::string_view id);
std::string conversationPath(std::string_view id); // "conversations/<id>.json"

// The ids of the world's conversations, sorted.
std::vector<std::string> listConversations(const WorldFiles& files);
// "c1", "c2", ...: the first free one.
std::string newConversationId(const WorldFiles& files);

// A missing conversation is an empty one with that id (ok); a corrupt one is an error. One an
// older build stored loads with its migrationNote set (see migrateConversation).
llm::Result<Conversation> loadConversation(const WorldFiles& files, std::string_view id);
// conversations/<id>/regenerating.json: there while a regenerate runs (turn_steering.h), the last
// turn's file edits undone meanwhile.
std::string regeneratingPath(std::string_view id);
// Every turn's record, then the head.
WorldError saveConversation(WorldFiles& files, const Conversation& conversation);
// Writes a conversation an older build stored in this build's format (nothing to do otherwise)
// and clears its migrationNote, which the caller shows first. A regenerate that never finished
// (regeneratingPath marks one while it runs) has its last turn's file edits made again here.
WorldError migrateConversation(WorldFiles& files, Conversation& conversation);

// Appends the finished turn (numbered after the last) and commits it whole: its record, its agent
// log (cut to fit the file limit if it must be, saying so in its notes: a large log never fails a
// turn), then the head. A turn that cannot be committed is not kept: it leaves the conversation
// and its file changes are undone (the error says so).
WorldError recordTurn(WorldFiles& files, Conversation& conversation, TurnRecord turn, const TurnLog& log);

// A person's saved edit of one world file joins the history at once, as an edit turn of its own:
// the file is written, the change kept (before and after, so undo and branch treat it like any
// turn), the transcript gets an Edit entry ("You edited <path> (+a −r lines)") and the agent log
// of that turn one step holding the diff; all saved. An unchanged file records nothing (ok, and
// `recorded` false). Conversations and agent logs are not edited by hand. When the conversation
// cannot be saved the file is put back as it was and nothing is recorded.
WorldError recordPersonEdit(WorldFiles& files, Conversation& conversation, const std::string& path,
                            const std::string& content, bool* recorded = nullptr);

// Files a person added at once (an import of a lorebook or a card into a world with a history),
// each new and already written: an edit turn of its own ("what" its Edit entry), so Undo removes
// them and Branch can start before them. When it cannot be saved the files are removed again.
WorldError recordPersonImport(WorldFiles& files, Conversation& conversation,
                              const std::vector<std::pair<std::string, std::string>>& added, const std::string& what);

// A person's edit of the rolling summary (story_memory.h) joins the history as an edit turn of its
// own holding the new text (its Edit entry "You edited the summary of turns 1-K"): the next turns
// carry it, and undo takes the summary back to the one before. An unchanged text, or a conversation
// with no summary yet, records nothing (an error for the latter: there is nothing to edit).
WorldError recordSummaryEdit(WorldFiles& files, Conversation& conversation, const std::string& text,
                             bool* recorded = nullptr);

// The diff of an edit turn (its changes, file by file, in the unified form of text_diff.h; an
// image as one line saying it changed).
std::string editTurnDiff(const TurnRecord& turn);

// A person's edit of the narration of play turn `turn` (any turn): its narrator entries become one
// holding `text`, so the model sees the edited text from then on; recorded as an edit turn of its
// own (its Edit entry "You edited the reply of turn N (+a −r lines)", the turn's entries before it
// kept, so Undo puts them back). An unchanged text records nothing; an empty one is refused.
WorldError recordReplyEdit(WorldFiles& files, Conversation& conversation, int turn, const std::string& text,
                           bool* recorded = nullptr);

// Reverts the last turn's file changes (last first) and drops the turn from the transcript, then
// saves. An error when there is no turn, or a file cannot be restored (nothing is dropped then).
// The undone turn's records stay past the last one, so redoTurn can make it again (see
// Conversation::redoable) until a new turn or another change of the history drops them.
WorldError undoLastTurn(WorldFiles& files, Conversation& conversation);
// Makes the turn undone last again (its file changes, its edit of a reply), then saves.
WorldError redoTurn(WorldFiles& files, Conversation& conversation);

// Turn records one at a time, for the steering controls (turn_steering.h): conversations/<id>/turn-<n>.json.
std::string turnRecordPath(std::string_view conversationId, int number);
WorldError writeTurnRecord(WorldFiles& files, const std::string& conversationId, const TurnRecord& turn);
llm::Result<TurnRecord> readTurnRecord(const WorldFiles& files, const std::string& conversationId, int number);
// A turn's record and every agent log it has (each answer's), removed.
void removeTurnFiles(WorldFiles& files, const std::string& conversationId, int number);
// The undone turns kept for Redo, dropped (the head rewritten first when writeHead).
WorldError dropRedoable(WorldFiles& files, Conversation& conversation, bool writeHead);
// An agent log as it fits in a world file (its longest texts cut over 1 MiB, saying so).
std::string storedLogJson(TurnLog log);

// Where a branch starts: after turn `turn` (its player message and narration kept), or just
// before it (keepReply false: the turn's player message is where the branch begins, so the turn
// is not kept).
struct BranchPoint {
    int turn = 0;
    bool keepReply = true;
};

// A new conversation (id newId) holding the source's turns up to the branch point, after the
// world's files were taken back to that point by reverting the later turns' changes, last first.
// The source conversation is left as it is.
llm::Result<Conversation> branchConversation(WorldFiles& files, const Conversation& source, BranchPoint at,
                                             std::string newId);

// Takes the world's files from the end of conversation `from` to the end of `to` (switching
// conversations): the turns both hold (a branch copies its source's turns up to the branch point)
// stay, from's later turns are reverted, last first, then to's later turns made again in order.
// The files must be as `from` left them. Stops at the first failure, saying where.
WorldError switchWorld(WorldFiles& files, const Conversation& from, const Conversation& to);

// Which conversation the world's files are at (logs/world-at.json, kept by `chaiba story`; the
// page keeps its own): nothing when the world never said (an older world: its files are taken to
// be at the conversation played next).
std::optional<std::string> worldAt(const WorldFiles& files);
// Takes the world's files to where conversation `to` left them from the conversation they are at
// (switchWorld), and records `to` as where they are. `moved`: the conversation they came from, when
// they moved.
WorldError moveWorldTo(WorldFiles& files, const Conversation& to, std::string* moved = nullptr);
WorldError setWorldAt(WorldFiles& files, const std::string& id);

// The whole world (every file, conversations and logs included; images in base64) as one JSON
// document; an error when it would exceed kMaxWorldArchiveBytes.
llm::Result<std::string> exportWorld(const WorldFiles& files);
// The same, its files read with readLater (the page keeps agent logs out of memory): `done` gets
// the archive in the call, or later (exportWorld then says the files are still being read).
void exportWorldLater(const WorldFiles& files, std::function<void(llm::Result<std::string>)> done);
// Checks the whole archive first (format, size, every path and content, every conversation), then
// writes its files into `into`, which must hold no files. Nothing is written on error.
WorldError importWorld(std::string_view archive, WorldFiles& into);

} // namespace chaiba::story
