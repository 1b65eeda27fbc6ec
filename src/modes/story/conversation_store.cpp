// Conversations in the world, undo, branch, export and import (see conversation_store.h).
#include "src/modes/story/conversation_store.h"

#include "src/modes/story/story_memory.h"

#include "src/modes/story/text_diff.h"
#include "src/modes/story/turn_steering.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace chaiba::story {

namespace {

using json = nlohmann::json;
constexpr std::string_view kFolder = "conversations/";

WorldError invalid(std::string message) {
    return WorldError::make(WorldErrorKind::InvalidPath, std::move(message));
}

// Where version 3 keeps a conversation's turns, and the file contents they changed.
std::string turnPath(std::string_view id, int number) {
    return std::string(kFolder) + std::string(id) + "/turn-" + std::to_string(number) + ".json";
}
constexpr std::string_view kVersionsFolder = "conversations/versions/";

// A version's name: the content's stamp and the extension its kind keeps (an image's own, text
// as .md), so the same content is stored once in the world.
std::string versionName(const std::string& path, const std::string& content) {
    const WorldPathCheck check = checkWorldPath(path);
    std::string ext = "md";
    if (check.ok() && check.kind == WorldPathKind::Image) ext = path.substr(path.rfind('.') + 1);
    return stampText(stampOf(content)) + "." + ext;
}

bool validVersionName(std::string_view name) {
    return !name.empty() && name.size() <= 64 && name.find('/') == std::string_view::npos &&
           name.find("..") == std::string_view::npos;
}

// The world's stored versions, for reading turns (put refuses: a load writes nothing).
ContentVersions versionsOf(const WorldFiles& files, WorldFiles* writable) {
    ContentVersions v;
    v.get = [&files](const std::string&, const std::string& name) {
        using R = llm::Result<std::string>;
        if (!validVersionName(name)) return R::fail("the version '" + name + "' is not a version's name");
        ReadResult read = files.read(std::string(kVersionsFolder) + name);
        if (!read.ok()) return R::fail(read.error.message);
        return R::ok(std::move(read.content));
    };
    v.put = [writable](const std::string& path, const std::string& content) {
        using R = llm::Result<std::string>;
        if (!writable) return R::fail("the conversation is read only here");
        const std::string name = versionName(path, content);
        const std::string where = std::string(kVersionsFolder) + name;
        if (!writable->exists(where))
            if (WorldError error = writable->write(where, content); !error.ok()) return R::fail(error.message);
        return R::ok(name);
    };
    return v;
}

WorldError writeTurnFile(WorldFiles& files, const std::string& id, const TurnRecord& turn) {
    llm::Result<std::string> text = turnToJson(turn, versionsOf(files, &files));
    if (!text.isOk()) return WorldError::make(WorldErrorKind::Io, "turn " + std::to_string(turn.number) + ": " + text.error);
    return files.write(turnPath(id, turn.number), *text.value);
}

// True when the world holds this conversation in this build's format (a record per turn).
bool storedCurrent(const WorldFiles& files, const std::string& id) {
    const ReadResult read = files.read(conversationPath(id));
    if (!read.ok()) return false;
    llm::Result<ConversationHead> head = conversationHeadFromJson(read.content);
    return head.isOk() && !head.value->inlineTurns && head.value->version >= kPatchConversationVersion;
}

// The agent log as it fits in a world file: a log over the limit (a long narration streamed in
// many rounds, huge tool results) keeps every step with its longest texts cut, and says so.
std::string fittedLogJson(TurnLog log) {
    std::string text = turnLogToJson(log);
    for (std::size_t keep = 16384; text.size() > kMaxWorldFileBytes && keep >= 256; keep /= 4) {
        auto cut = [keep](std::string& s) {
            if (s.size() > keep) s = s.substr(0, keep) + "\n[cut: " + std::to_string(s.size() - keep) + " bytes more]";
        };
        for (AgentStep& step : log.steps) {
            for (llm::ChatMessage& message : step.input) cut(message.content);
            cut(step.output);
            for (LoggedToolCall& call : step.toolCalls) {
                cut(call.arguments);
                cut(call.result);
            }
        }
        if (log.notes.empty() || log.notes.back().rfind("agent log cut", 0) != 0)
            log.notes.push_back("agent log cut to fit the world's file limit (1 MiB): long texts end with [cut]");
        text = turnLogToJson(log);
    }
    return text;
}

} // namespace

std::string storedLogJson(TurnLog log) {
    return fittedLogJson(std::move(log));
}

std::string turnRecordPath(std::string_view id, int number) {
    return turnPath(id, number);
}

WorldError writeTurnRecord(WorldFiles& files, const std::string& conversationId, const TurnRecord& turn) {
    return writeTurnFile(files, conversationId, turn);
}

llm::Result<TurnRecord> readTurnRecord(const WorldFiles& files, const std::string& conversationId, int number) {
    const std::string path = turnPath(conversationId, number);
    const ReadResult text = files.read(path);
    if (!text.ok()) return llm::Result<TurnRecord>::fail(path + ": " + text.error.message);
    llm::Result<TurnRecord> turn = turnFromJson(text.content, versionsOf(files, nullptr));
    if (!turn.isOk()) return llm::Result<TurnRecord>::fail(path + ": " + turn.error);
    turn.value->number = number;
    return turn;
}

void removeTurnFiles(WorldFiles& files, const std::string& conversationId, int number) {
    std::vector<int> variants{0};
    if (llm::Result<TurnRecord> stored = readTurnRecord(files, conversationId, number); stored.isOk()) {
        if (stored.value->variant) variants.push_back(stored.value->variant);
        for (const TurnAnswer& answer : stored.value->otherAnswers)
            if (answer.variant) variants.push_back(answer.variant);
    }
    for (const int variant : variants)
        if (const std::string log = turnLogPath(conversationId, number, variant); files.exists(log)) files.remove(log);
    if (const std::string path = turnPath(conversationId, number); files.exists(path)) files.remove(path);
}

WorldError dropRedoable(WorldFiles& files, Conversation& conversation, bool writeHead) {
    if (conversation.redoable == 0) return WorldError::none();
    const int first = static_cast<int>(conversation.turns.size()) + 1, count = conversation.redoable;
    conversation.redoable = 0;
    if (writeHead)
        if (WorldError error = files.write(conversationPath(conversation.id), conversationHeadJson(conversation));
            !error.ok()) {
            conversation.redoable = count;
            return error;
        }
    for (int n = first; n < first + count; ++n) removeTurnFiles(files, conversation.id, n);
    return WorldError::none();
}

bool validConversationId(std::string_view id) {
    if (id.empty() || id.size() > 40) return false;
    return std::all_of(id.begin(), id.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
               c == '-';
    });
}

std::string conversationPath(std::string_view id) {
    return std::string(kFolder) + std::string(id) + ".json";
}

std::vector<std::string> listConversations(const WorldFiles& files) {
    std::vector<std::string> ids;
    for (const std::string& path : files.list()) {
        if (path.rfind(kFolder, 0) != 0 || path.size() <= kFolder.size() + 5) continue;
        if (path.substr(path.size() - 5) != ".json") continue;
        const std::string id = path.substr(kFolder.size(), path.size() - kFolder.size() - 5);
        if (validConversationId(id)) ids.push_back(id);
    }
    return ids;
}

std::string newConversationId(const WorldFiles& files) {
    const std::vector<std::string> taken = listConversations(files);
    for (int n = 1;; ++n) {
        std::string id = std::to_string(n);
        id.insert(id.begin(), 'c'); // (not "c" + ...: GCC 12 warns falsely on that)
        if (std::find(taken.begin(), taken.end(), id) == taken.end()) return id;
    }
}

llm::Result<Conversation> loadConversation(const WorldFiles& files, std::string_view id) {
    using R = llm::Result<Conversation>;
    if (!validConversationId(id))
        return R::fail("invalid conversation id '" + std::string(id) +
                       "' (1-40 letters, digits, '_' or '-')");
    const ReadResult read = files.read(conversationPath(id));
    if (read.missing()) {
        Conversation fresh;
        fresh.id = std::string(id);
        return R::ok(std::move(fresh));
    }
    if (!read.ok()) return R::fail(read.error.message);
    llm::Result<ConversationHead> parsed = conversationHeadFromJson(read.content);
    if (!parsed.isOk()) return R::fail(conversationPath(id) + ": " + parsed.error);
    Conversation conversation = std::move(parsed.value->conversation);
    if (conversation.id != id) return R::fail(conversationPath(id) + " holds conversation '" + conversation.id + "'");
    const int version = parsed.value->version;
    if (version < kPatchConversationVersion || parsed.value->inlineTurns)
        conversation.migrationNote = "conversation '" + conversation.id + "' was stored by an older build (format " +
                                     std::to_string(version) + "): it is moved to format " +
                                     std::to_string(kStoredConversationVersion) +
                                     " (file changes kept as patches, one record per turn)";
    if (parsed.value->inlineTurns) {
        for (std::size_t i = 0; i < conversation.turns.size(); ++i) conversation.turns[i].number = static_cast<int>(i) + 1;
        return R::ok(std::move(conversation));
    }
    // Each turn from its own file (a picture's bytes from the world's versions).
    const ContentVersions versions = versionsOf(files, nullptr);
    for (const int number : parsed.value->turnFiles) {
        const std::string path = turnPath(id, number);
        const ReadResult turnText = files.read(path);
        if (!turnText.ok()) return R::fail(path + ": " + turnText.error.message);
        llm::Result<TurnRecord> turn = turnFromJson(turnText.content, versions);
        if (!turn.isOk()) return R::fail(path + ": " + turn.error);
        if (turn.value->number != number) return R::fail(path + " holds turn " + std::to_string(turn.value->number));
        conversation.turns.push_back(std::move(*turn.value));
        conversation.turns.back().number = static_cast<int>(conversation.turns.size()); // 1..N from format 4 on
    }
    // A regenerate that never finished left the last turn's file edits undone: put back by migrateConversation.
    if (files.exists(regeneratingPath(id)) && !conversation.turns.empty())
        conversation.migrationNote = "regenerating turn " + std::to_string(conversation.turns.back().number) +
                                     " of conversation '" + conversation.id +
                                     "' did not finish (the page or the command closed): its answer's file edits "
                                     "are made again";
    return R::ok(std::move(conversation));
}

WorldError saveConversation(WorldFiles& files, const Conversation& conversation) {
    if (!validConversationId(conversation.id))
        return invalid("invalid conversation id '" + conversation.id + "'");
    for (const TurnRecord& turn : conversation.turns)
        if (WorldError error = writeTurnFile(files, conversation.id, turn); !error.ok()) return error;
    return files.write(conversationPath(conversation.id), conversationHeadJson(conversation));
}

std::string regeneratingPath(std::string_view id) {
    return std::string(kFolder) + std::string(id) + "/regenerating.json";
}

WorldError migrateConversation(WorldFiles& files, Conversation& conversation) {
    if (conversation.migrationNote.empty()) return WorldError::none();
    if (const std::string marker = regeneratingPath(conversation.id); files.exists(marker)) {
        if (!conversation.turns.empty())
            if (WorldError error = redo(files, conversation.turns.back().changes); !error.ok())
                return WorldError::make(error.kind, conversation.migrationNote + ", but: " + error.message);
        files.remove(marker);
        if (storedCurrent(files, conversation.id)) {
            conversation.migrationNote.clear();
            return WorldError::none();
        }
    }
    if (WorldError error = saveConversation(files, conversation); !error.ok())
        return WorldError::make(error.kind, conversation.migrationNote + ", but it could not be written: " + error.message);
    conversation.migrationNote.clear();
    return WorldError::none();
}

namespace {

// Commits the conversation's last turn, new: its record (conversations/<id>/turn-<n>.json), its
// agent log, then the head with the new count, which is the commit (a record past the count is
// not part of the conversation). An older build's conversation is moved over first. On failure
// the turn leaves the conversation and its file changes are undone: kept whole or not at all.
WorldError keepLastTurn(WorldFiles& files, Conversation& conversation, const std::string& logJson) {
    // The undone turns kept for Redo go: their records past this one after the commit.
    if (conversation.redoable > 0) {
        const int stale = conversation.redoable;
        conversation.redoable = 0;
        Conversation past = conversation;
        past.turns.pop_back();
        past.redoable = stale;
        dropRedoable(files, past, false);
    }
    const TurnRecord& turn = conversation.turns.back();
    const bool older = conversation.turns.size() > 1 && !storedCurrent(files, conversation.id);
    WorldError error = older ? saveConversation(files, conversation) : writeTurnFile(files, conversation.id, turn);
    if (error.ok()) error = files.write(turnLogPath(conversation.id, turn.number), logJson);
    if (error.ok()) error = files.write(conversationPath(conversation.id), conversationHeadJson(conversation));
    if (error.ok()) return error;
    const TurnChanges changes = turn.changes;
    const int number = turn.number;
    conversation.turns.pop_back();
    for (const std::string& path : {turnPath(conversation.id, number), turnLogPath(conversation.id, number)})
        if (files.exists(path)) files.remove(path);
    const WorldError back = undo(files, changes);
    return WorldError::make(error.kind, "the turn was not kept (" + error.message + ")" +
                                            (back.ok() ? "; the world is as it was before it" : "; " + back.message));
}

} // namespace

WorldError recordTurn(WorldFiles& files, Conversation& conversation, TurnRecord turn, const TurnLog& log) {
    turn.number = static_cast<int>(conversation.turns.size()) + 1;
    if (conversation.title.empty()) conversation.title = turn.playerText().substr(0, 60);
    TurnLog numbered = log;
    numbered.conversationId = conversation.id;
    numbered.turn = turn.number;
    conversation.turns.push_back(std::move(turn));
    return keepLastTurn(files, conversation, fittedLogJson(std::move(numbered)));
}

std::string editTurnDiff(const TurnRecord& turn) {
    if (turn.replyEdit) {
        TurnRecord before;
        before.entries = turn.replyEdit->before;
        return unifiedDiff(diffLines(before.narration(), turn.replyEdit->text));
    }
    std::string out;
    for (const FileChange& change : turn.changes.changes()) {
        if (turn.changes.changes().size() > 1) out += "@ " + change.path + "\n";
        if (change.isPicture()) {
            out += change.after ? "  (picture replaced)\n" : "  (picture removed)\n";
            continue;
        }
        out += unifiedPatch(change.patch);
    }
    return out;
}

// The agent log of a person's edit: one step by hand holding what changed, the entry as its note.
static TurnLog personEditLog(const std::string& conversationId, int turn, const std::string& what, std::string output,
                      const std::string& note) {
    TurnLog log;
    log.conversationId = conversationId;
    log.turn = turn;
    AgentStep step;
    step.agent = AgentKind::Person;
    step.label = what;
    step.model = "by hand";
    step.output = std::move(output);
    log.steps.push_back(std::move(step));
    log.notes.push_back(note);
    return log;
}

WorldError recordPersonEdit(WorldFiles& files, Conversation& conversation, const std::string& path,
                            const std::string& content, bool* recorded) {
    if (recorded) *recorded = false;
    if (path.rfind(kFolder, 0) == 0 || path.rfind("logs/", 0) == 0)
        return invalid(path + ": conversations and agent logs are kept by the game, not edited by hand");
    const ReadResult before = files.read(path);
    if (!before.ok() && !before.missing()) return before.error;
    if (before.ok() && before.content == content) return WorldError::none();
    if (WorldError error = files.write(path, content); !error.ok()) return error;
    TurnRecord turn;
    turn.kind = TurnKind::Edit;
    turn.number = static_cast<int>(conversation.turns.size()) + 1;
    turn.changes.record(path, before.ok() ? std::optional<std::string>(before.content) : std::nullopt, content);
    const DiffCount count = countDiff(diffLines(before.ok() ? before.content : "", content));
    TranscriptEntry entry;
    entry.kind = EntryKind::Edit;
    entry.agent = AgentKind::Person;
    entry.text = std::string(before.ok() ? "You edited " : "You created ") + path + " (+" +
                 std::to_string(count.added) + " \xE2\x88\x92" + std::to_string(count.removed) + " lines)";
    turn.entries.push_back(entry);
    TurnLog log = personEditLog(conversation.id, turn.number, path, editTurnDiff(turn), entry.text);
    conversation.turns.push_back(std::move(turn));
    if (WorldError error = keepLastTurn(files, conversation, fittedLogJson(std::move(log))); !error.ok())
        return WorldError::make(error.kind, "your edit of " + path + ": " + error.message);
    if (recorded) *recorded = true;
    return WorldError::none();
}

WorldError recordPersonImport(WorldFiles& files, Conversation& conversation,
                              const std::vector<std::pair<std::string, std::string>>& added, const std::string& what) {
    if (added.empty()) return WorldError::none();
    TurnRecord turn;
    turn.kind = TurnKind::Edit;
    turn.number = static_cast<int>(conversation.turns.size()) + 1;
    for (const auto& [path, content] : added) turn.changes.record(path, std::nullopt, content);
    TranscriptEntry entry;
    entry.kind = EntryKind::Edit;
    entry.agent = AgentKind::Person;
    entry.text = what;
    turn.entries.push_back(entry);
    TurnLog log = personEditLog(conversation.id, turn.number, "the import", editTurnDiff(turn), entry.text);
    conversation.turns.push_back(std::move(turn));
    // Not kept: keepLastTurn undid the turn's changes, which removes the files it added.
    if (WorldError error = keepLastTurn(files, conversation, fittedLogJson(std::move(log))); !error.ok())
        return WorldError::make(error.kind, "the import: " + error.message);
    return WorldError::none();
}

WorldError recordSummaryEdit(WorldFiles& files, Conversation& conversation, const std::string& text,
                             bool* recorded) {
    if (recorded) *recorded = false;
    const std::optional<StorySummary> summary = currentSummary(conversation);
    if (!summary)
        return WorldError::make(WorldErrorKind::Missing, "conversation '" + conversation.id +
                                                             "' has no summary yet: older turns are folded into "
                                                             "one once enough of them wait");
    if (summary->text == text) return WorldError::none();
    TurnRecord turn;
    turn.kind = TurnKind::Edit;
    turn.number = static_cast<int>(conversation.turns.size()) + 1;
    turn.summary = StorySummary{text, summary->throughTurn};
    TranscriptEntry entry;
    entry.kind = EntryKind::Edit;
    entry.agent = AgentKind::Person;
    entry.text = "You edited the summary of turns 1-" + std::to_string(summary->throughTurn);
    turn.entries.push_back(entry);
    TurnLog log = personEditLog(conversation.id, turn.number, "the summary", text, entry.text);
    conversation.turns.push_back(std::move(turn));
    if (WorldError error = keepLastTurn(files, conversation, fittedLogJson(std::move(log))); !error.ok())
        return WorldError::make(error.kind, "your edit of the summary: " + error.message);
    if (recorded) *recorded = true;
    return WorldError::none();
}

WorldError recordReplyEdit(WorldFiles& files, Conversation& conversation, int number, const std::string& text,
                           bool* recorded) {
    if (recorded) *recorded = false;
    const auto found = std::find_if(conversation.turns.begin(), conversation.turns.end(),
                                    [&](const TurnRecord& turn) { return turn.number == number; });
    if (found == conversation.turns.end())
        return WorldError::make(WorldErrorKind::Missing,
                                "conversation '" + conversation.id + "' has no turn " + std::to_string(number));
    if (found->kind != TurnKind::Play)
        return invalid("turn " + std::to_string(number) + " is an edit, not a reply of the game master");
    if (text.find_first_not_of(" \t\r\n") == std::string::npos)
        return invalid("a reply cannot be empty: undo or branch before the turn instead");
    const std::string before = found->narration();
    if (before == text) return WorldError::none();
    ReplyEdit edit{number, found->entries, text};
    if (WorldError error = applyReplyEdit(files, conversation, edit); !error.ok()) return error;
    TurnRecord turn;
    turn.kind = TurnKind::Edit;
    turn.number = static_cast<int>(conversation.turns.size()) + 1;
    turn.replyEdit = edit;
    const DiffCount count = countDiff(diffLines(before, text));
    TranscriptEntry entry;
    entry.kind = EntryKind::Edit;
    entry.agent = AgentKind::Person;
    entry.text = "You edited the reply of turn " + std::to_string(number) + " (+" + std::to_string(count.added) +
                 " \xE2\x88\x92" + std::to_string(count.removed) + " lines)";
    turn.entries.push_back(entry);
    TurnLog log = personEditLog(conversation.id, turn.number, "the reply of turn " + std::to_string(number),
                                editTurnDiff(turn), entry.text);
    conversation.turns.push_back(std::move(turn));
    if (WorldError error = keepLastTurn(files, conversation, fittedLogJson(std::move(log))); !error.ok()) {
        setReplyEntries(files, conversation, number, edit.before);
        return WorldError::make(error.kind, "your edit of the reply of turn " + std::to_string(number) + ": " +
                                                error.message);
    }
    if (recorded) *recorded = true;
    return WorldError::none();
}

WorldError undoLastTurn(WorldFiles& files, Conversation& conversation) {
    if (conversation.turns.empty())
        return WorldError::make(WorldErrorKind::Missing,
                                "conversation '" + conversation.id + "' has no turn to undo");
    const TurnRecord last = conversation.turns.back();
    if (WorldError error = undo(files, last.changes); !error.ok()) {
        redo(files, last.changes); // the changes reverted before the one that stopped come back
        return error;
    }
    // An edit of a reply: that turn's record gets its entries back.
    if (last.replyEdit)
        if (WorldError error = setReplyEntries(files, conversation, last.replyEdit->turn, last.replyEdit->before);
            !error.ok())
            return error;
    const bool older = !storedCurrent(files, conversation.id);
    conversation.turns.pop_back();
    ++conversation.redoable;
    // The head with one turn fewer is the commit; the undone turn's records stay past it, for Redo
    // (an older build's conversation is written whole, without them).
    if (older) conversation.redoable = 0;
    if (WorldError error = older ? saveConversation(files, conversation)
                                 : files.write(conversationPath(conversation.id), conversationHeadJson(conversation));
        !error.ok()) {
        conversation.turns.push_back(last);
        --conversation.redoable;
        redo(files, last.changes);
        if (last.replyEdit) applyReplyEdit(files, conversation, *last.replyEdit);
        return error;
    }
    return WorldError::none();
}

WorldError redoTurn(WorldFiles& files, Conversation& conversation) {
    if (conversation.redoable <= 0)
        return WorldError::make(WorldErrorKind::Missing, "conversation '" + conversation.id +
                                                             "' has no undone turn to redo (a new turn or "
                                                             "change of the history drops them)");
    const int number = static_cast<int>(conversation.turns.size()) + 1;
    llm::Result<TurnRecord> turn = readTurnRecord(files, conversation.id, number);
    if (!turn.isOk()) return WorldError::make(WorldErrorKind::Io, "the undone turn cannot be read: " + turn.error);
    if (WorldError error = redo(files, turn.value->changes); !error.ok()) {
        undo(files, turn.value->changes);
        return WorldError::make(error.kind, "turn " + std::to_string(number) + " cannot be made again: " + error.message);
    }
    if (turn.value->replyEdit)
        if (WorldError error = applyReplyEdit(files, conversation, *turn.value->replyEdit); !error.ok()) {
            undo(files, turn.value->changes);
            return error;
        }
    conversation.turns.push_back(std::move(*turn.value));
    --conversation.redoable;
    if (WorldError error = files.write(conversationPath(conversation.id), conversationHeadJson(conversation));
        !error.ok()) {
        const TurnRecord back = conversation.turns.back();
        conversation.turns.pop_back();
        ++conversation.redoable;
        undo(files, back.changes);
        if (back.replyEdit) setReplyEntries(files, conversation, back.replyEdit->turn, back.replyEdit->before);
        return error;
    }
    return WorldError::none();
}

llm::Result<Conversation> branchConversation(WorldFiles& files, const Conversation& source, BranchPoint at,
                                             std::string newId) {
    using R = llm::Result<Conversation>;
    if (!validConversationId(newId)) return R::fail("invalid conversation id '" + newId + "'");
    if (newId == source.id || files.exists(conversationPath(newId)))
        return R::fail("conversation '" + newId + "' already exists");
    const auto found = std::find_if(source.turns.begin(), source.turns.end(),
                                    [&](const TurnRecord& turn) { return turn.number == at.turn; });
    if (found == source.turns.end())
        return R::fail("conversation '" + source.id + "' has no turn " + std::to_string(at.turn));
    const std::size_t kept = static_cast<std::size_t>(found - source.turns.begin()) + (at.keepReply ? 1 : 0);
    // Step 1. The world goes back to the branch point: later turns' changes reverted, last first
    // (on a failure, those already reverted are made again: the world stays where the source is).
    auto backToEnd = [&](std::size_t from) {
        for (std::size_t j = from; j < source.turns.size(); ++j) redo(files, source.turns[j].changes);
    };
    for (std::size_t i = source.turns.size(); i > kept; --i)
        if (WorldError error = undo(files, source.turns[i - 1].changes); !error.ok()) {
            backToEnd(i);
            return R::fail("cannot take the world back to turn " + std::to_string(at.turn) + ": " + error.message);
        }
    // Step 2. The new conversation keeps the turns before the point.
    Conversation branch;
    branch.id = std::move(newId);
    branch.title = source.title + " (branch)";
    branch.branchedFrom = source.id;
    branch.branchedAtTurn = at.turn;
    branch.turns.assign(source.turns.begin(), source.turns.begin() + static_cast<std::ptrdiff_t>(kept));
    if (WorldError error = saveConversation(files, branch); !error.ok()) {
        backToEnd(kept);
        return R::fail(error.message);
    }
    return R::ok(std::move(branch));
}

namespace {

bool sameChanges(const TurnChanges& a, const TurnChanges& b) {
    if (a.changes().size() != b.changes().size()) return false;
    for (std::size_t i = 0; i < a.changes().size(); ++i) {
        const FileChange &x = a.changes()[i], &y = b.changes()[i];
        if (x.path != y.path || x.before != y.before || x.after != y.after) return false; // stamps
    }
    return true;
}

// The same turn in two conversations: one copied from the other by a branch.
bool sameTurn(const TurnRecord& a, const TurnRecord& b) {
    return a.number == b.number && a.kind == b.kind && a.playerText() == b.playerText() &&
           a.narration() == b.narration() && sameChanges(a.changes, b.changes);
}

} // namespace

WorldError switchWorld(WorldFiles& files, const Conversation& from, const Conversation& to) {
    std::size_t shared = 0;
    while (shared < from.turns.size() && shared < to.turns.size() && sameTurn(from.turns[shared], to.turns[shared]))
        ++shared;
    for (std::size_t i = from.turns.size(); i > shared; --i)
        if (WorldError error = undo(files, from.turns[i - 1].changes); !error.ok())
            return WorldError::make(error.kind, "leaving '" + from.id + "' at turn " +
                                                    std::to_string(from.turns[i - 1].number) + ": " + error.message);
    for (std::size_t i = shared; i < to.turns.size(); ++i)
        if (WorldError error = redo(files, to.turns[i].changes); !error.ok())
            return WorldError::make(error.kind, "entering '" + to.id + "' at turn " +
                                                    std::to_string(to.turns[i].number) + ": " + error.message);
    return WorldError::none();
}

namespace {
constexpr std::string_view kWorldAtPath = "logs/world-at.json";
} // namespace

std::optional<std::string> worldAt(const WorldFiles& files) {
    const ReadResult read = files.read(kWorldAtPath);
    if (!read.ok()) return std::nullopt;
    const json doc = json::parse(read.content, nullptr, false);
    if (!doc.is_object() || !doc.contains("conversation") || !doc["conversation"].is_string()) return std::nullopt;
    const std::string id = doc["conversation"].get<std::string>();
    if (!validConversationId(id)) return std::nullopt;
    return id;
}

WorldError setWorldAt(WorldFiles& files, const std::string& id) {
    return files.write(kWorldAtPath, json{{"conversation", id}}.dump());
}

WorldError moveWorldTo(WorldFiles& files, const Conversation& to, std::string* moved) {
    const std::optional<std::string> at = worldAt(files);
    if (at && *at != to.id) {
        llm::Result<Conversation> from = loadConversation(files, *at);
        if (!from.isOk())
            return WorldError::make(WorldErrorKind::Io, "the world's files are where conversation '" + *at +
                                                            "' left them, and it cannot be read: " + from.error);
        if (WorldError error = switchWorld(files, *from.value, to); !error.ok()) return error;
        if (moved) *moved = *at;
    }
    return at && *at == to.id ? WorldError::none() : setWorldAt(files, to.id);
}

namespace {

// The archive of these files (read in the paths' order).
llm::Result<std::string> archiveOf(const std::vector<std::string>& paths, const std::vector<ReadResult>& reads) {
    using R = llm::Result<std::string>;
    json entries = json::object();
    std::size_t total = 0;
    for (std::size_t i = 0; i < paths.size(); ++i) {
        const std::string& path = paths[i];
        if (i >= reads.size()) return R::fail("\"" + path + "\" was not read");
        const ReadResult& read = reads[i];
        if (!read.ok()) return R::fail(read.error.message);
        const bool binary = checkWorldPath(path).kind == WorldPathKind::Image;
        total += read.content.size() * (binary ? 4 : 3) / 3 + path.size();
        if (total > kMaxWorldArchiveBytes)
            return R::fail("the world is larger than the export limit of " +
                           std::to_string(kMaxWorldArchiveBytes >> 20) + " MiB");
        entries[path] = binary ? json{{"base64", base64Encode(read.content)}} : json(read.content);
    }
    const json doc{{"format", "chaiba-story-world"}, {"version", 1}, {"files", entries}};
    std::string text = doc.dump(-1, ' ', false, json::error_handler_t::replace);
    if (text.size() > kMaxWorldArchiveBytes) return R::fail("the export would exceed the limit");
    return R::ok(std::move(text));
}

} // namespace

void exportWorldLater(const WorldFiles& files, std::function<void(llm::Result<std::string>)> done) {
    std::vector<std::string> paths = files.list();
    files.readLater(paths, [paths, done = std::move(done)](std::vector<ReadResult> reads) {
        done(archiveOf(paths, reads));
    });
}

llm::Result<std::string> exportWorld(const WorldFiles& files) {
    std::optional<llm::Result<std::string>> out;
    exportWorldLater(files, [&out](llm::Result<std::string> archive) { out = std::move(archive); });
    if (!out) return llm::Result<std::string>::fail("the world's files are still being read: export again");
    return std::move(*out);
}

WorldError importWorld(std::string_view archive, WorldFiles& into) {
    auto bad = [](std::string why) {
        return WorldError::make(WorldErrorKind::InvalidPath, "import: " + std::move(why));
    };
    if (archive.size() > kMaxWorldArchiveBytes)
        return WorldError::make(WorldErrorKind::TooLarge, "import: the file is larger than " +
                                                              std::to_string(kMaxWorldArchiveBytes >> 20) +
                                                              " MiB");
    if (!into.list().empty()) return bad("the target world is not empty");
    const json doc = json::parse(archive.begin(), archive.end(), nullptr, false);
    if (doc.is_discarded() || !doc.is_object()) return bad("the file is not JSON");
    // (json's value() would end the program on a format that is not text: JSON_NOEXCEPTION)
    const auto format = doc.find("format");
    if (format == doc.end() || !format->is_string() || format->get<std::string>() != "chaiba-story-world")
        return bad("not a CHAIBA Story world export");
    if (!doc.contains("version") || doc["version"] != 1) return bad("unsupported export version");
    const auto filesIt = doc.find("files");
    if (filesIt == doc.end() || !filesIt->is_object()) return bad("'files' must be an object");
    // Step 1. Check everything before writing anything.
    WorldFileMap files;
    for (const auto& [path, value] : filesIt->items()) {
        const WorldPathCheck check = checkWorldPath(path);
        if (!check.ok()) return bad(check.error.message);
        std::string content;
        if (check.kind == WorldPathKind::Image) {
            std::optional<std::string> bytes;
            if (value.is_object() && value.contains("base64") && value["base64"].is_string())
                bytes = base64Decode(value["base64"].get<std::string>());
            if (!bytes) return bad(path + ": an image must be {\"base64\": ...}");
            content = std::move(*bytes);
        } else {
            if (!value.is_string()) return bad(path + ": content must be a string");
            content = value.get<std::string>();
        }
        if (WorldError error = checkWorldWrite(path, content); !error.ok()) return bad(error.message);
        if (path.rfind(kFolder, 0) == 0 && path.find('/', kFolder.size()) == std::string::npos) {
            llm::Result<ConversationHead> conversation = conversationHeadFromJson(content);
            if (!conversation.isOk()) return bad(path + ": " + conversation.error);
        }
        files.emplace(path, std::move(content));
    }
    // Step 2. Write.
    for (const auto& [path, content] : files)
        if (WorldError error = into.write(path, content); !error.ok()) return error;
    return WorldError::none();
}

} // namespace chaiba::story
