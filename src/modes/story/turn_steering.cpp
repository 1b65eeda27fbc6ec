// Regenerate, swipes, continue and the edit of a reply on the turn records (see turn_steering.h).
#include "src/modes/story/turn_steering.h"

#include "src/modes/story/conversation_store.h"

#include <algorithm>

namespace chaiba::story {

namespace {

WorldError refused(const std::string& why) {
    return WorldError::make(WorldErrorKind::Missing, why);
}

// Answer `index` of all the turn's answers, the shown one counted at its place.
TurnAnswer answerAt(const TurnRecord& turn, int index) {
    if (index == turn.shown) return shownAnswer(turn);
    return turn.otherAnswers[static_cast<std::size_t>(index < turn.shown ? index : index - 1)];
}

// The turn showing answer `index`: the shown one joins the others at its place, the chosen leaves them.
void showIndex(TurnRecord& turn, int index) {
    turn.otherAnswers.insert(turn.otherAnswers.begin() + turn.shown, shownAnswer(turn));
    TurnAnswer chosen = std::move(turn.otherAnswers[static_cast<std::size_t>(index)]);
    turn.otherAnswers.erase(turn.otherAnswers.begin() + index);
    showAnswer(turn, std::move(chosen));
    turn.shown = index;
}

// Writes the last turn's record (the commit) and drops what Redo kept; `back` undoes the memory
// and the files when the record cannot be written.
template <class Back>
WorldError commitLast(WorldFiles& files, Conversation& conversation, Back back) {
    if (WorldError error = writeTurnRecord(files, conversation.id, conversation.turns.back()); !error.ok()) {
        back();
        return error;
    }
    dropRedoable(files, conversation, true);
    return WorldError::none();
}

} // namespace

std::optional<std::string> steeringRefusal(const Conversation& conversation, const std::string& what) {
    if (conversation.turns.empty()) return "conversation '" + conversation.id + "' has no turn to " + what;
    const TurnRecord& last = conversation.turns.back();
    if (last.kind != TurnKind::Play)
        return "the last entry of the history is an edit (" + std::to_string(last.number) + "): undo it to " +
               what + " the reply before it";
    return std::nullopt;
}

llm::Result<Regeneration> beginRegenerate(WorldFiles& files, const Conversation& conversation) {
    using R = llm::Result<Regeneration>;
    if (auto why = steeringRefusal(conversation, "regenerate")) return R::fail(*why);
    const TurnRecord& last = conversation.turns.back();
    if (WorldError error = undo(files, last.changes); !error.ok()) {
        redo(files, last.changes);
        return R::fail("turn " + std::to_string(last.number) + "'s file edits cannot be undone: " + error.message);
    }
    // Marked while the new run goes on: if it never ends, the next load makes the edits again.
    if (WorldError error = files.write(regeneratingPath(conversation.id), "{\"turn\": " + std::to_string(last.number) + "}");
        !error.ok()) {
        redo(files, last.changes);
        return R::fail(error.message);
    }
    Regeneration out;
    out.before = conversation;
    out.before.turns.pop_back();
    out.before.redoable = 0;
    out.playerText = last.playerText();
    out.turn = last.number;
    return R::ok(std::move(out));
}

WorldError cancelRegenerate(WorldFiles& files, const Conversation& conversation) {
    WorldError error = conversation.turns.empty() ? WorldError::none() : redo(files, conversation.turns.back().changes);
    if (error.ok() && files.exists(regeneratingPath(conversation.id))) files.remove(regeneratingPath(conversation.id));
    return error;
}

WorldError finishRegenerate(WorldFiles& files, Conversation& conversation, const TurnRecord& answer,
                            const TurnLog& log, const std::string& instruction) {
    if (auto why = steeringRefusal(conversation, "regenerate")) return refused(*why);
    TurnRecord& turn = conversation.turns.back();
    const TurnRecord before = turn;
    int variant = turn.variant;
    for (const TurnAnswer& other : turn.otherAnswers) variant = std::max(variant, other.variant);
    TurnAnswer fresh = shownAnswer(answer);
    fresh.variant = variant + 1;
    fresh.instruction = instruction;
    turn.otherAnswers.insert(turn.otherAnswers.begin() + turn.shown, shownAnswer(turn));
    showAnswer(turn, std::move(fresh));
    turn.shown = static_cast<int>(turn.otherAnswers.size());
    TurnLog numbered = log;
    numbered.conversationId = conversation.id;
    numbered.turn = turn.number;
    const std::string logPath = turnLogPath(conversation.id, turn.number, turn.variant);
    // Not kept: the world as before the turn again (the caller's cancelRegenerate puts the answer back).
    auto back = [&] {
        undo(files, answer.changes);
        if (files.exists(logPath)) files.remove(logPath);
        conversation.turns.back() = before;
    };
    if (WorldError error = files.write(logPath, storedLogJson(std::move(numbered))); !error.ok()) {
        back();
        return error;
    }
    if (WorldError error = commitLast(files, conversation, back); !error.ok()) return error;
    if (files.exists(regeneratingPath(conversation.id))) files.remove(regeneratingPath(conversation.id));
    return WorldError::none();
}

WorldError selectAnswer(WorldFiles& files, Conversation& conversation, int index) {
    if (auto why = steeringRefusal(conversation, "swipe")) return refused(*why);
    TurnRecord& turn = conversation.turns.back();
    if (index < 0 || index >= turn.answerCount())
        return WorldError::make(WorldErrorKind::InvalidPath,
                                "turn " + std::to_string(turn.number) + " has " + std::to_string(turn.answerCount()) +
                                    " answer(s): choose 1 to " + std::to_string(turn.answerCount()));
    if (index == turn.shown) return WorldError::none();
    const TurnRecord before = turn;
    const TurnAnswer chosen = answerAt(turn, index);
    // Step 1. The world as before the turn, then as the chosen answer left it.
    if (WorldError error = undo(files, turn.changes); !error.ok()) {
        redo(files, turn.changes);
        return WorldError::make(error.kind, "the shown answer's file edits cannot be undone: " + error.message);
    }
    if (WorldError error = redo(files, chosen.changes); !error.ok()) {
        undo(files, chosen.changes);
        redo(files, turn.changes);
        return WorldError::make(error.kind, "answer " + std::to_string(index + 1) +
                                                "'s file edits cannot be made again: " + error.message);
    }
    // Step 2. The record shows it.
    showIndex(turn, index);
    return commitLast(files, conversation, [&] {
        undo(files, chosen.changes);
        redo(files, before.changes);
        conversation.turns.back() = before;
    });
}

WorldError deleteAnswer(WorldFiles& files, Conversation& conversation, int index) {
    if (auto why = steeringRefusal(conversation, "delete an answer of")) return refused(*why);
    if (conversation.turns.back().answerCount() < 2)
        return refused("turn " + std::to_string(conversation.turns.back().number) +
                       " has one answer only: undo the turn instead");
    if (index < 0 || index >= conversation.turns.back().answerCount())
        return WorldError::make(WorldErrorKind::InvalidPath, "turn " + std::to_string(conversation.turns.back().number) +
                                                                 " has no answer " + std::to_string(index + 1));
    if (index == conversation.turns.back().shown) {
        const int neighbour = index + 1 < conversation.turns.back().answerCount() ? index + 1 : index - 1;
        if (WorldError error = selectAnswer(files, conversation, neighbour); !error.ok()) return error;
    }
    TurnRecord& turn = conversation.turns.back();
    const TurnRecord before = turn;
    const std::size_t at = static_cast<std::size_t>(index < turn.shown ? index : index - 1);
    const int variant = turn.otherAnswers[at].variant;
    turn.otherAnswers.erase(turn.otherAnswers.begin() + static_cast<std::ptrdiff_t>(at));
    if (index < turn.shown) --turn.shown;
    if (WorldError error = commitLast(files, conversation, [&] { conversation.turns.back() = before; }); !error.ok())
        return error;
    if (const std::string log = turnLogPath(conversation.id, turn.number, variant); files.exists(log)) files.remove(log);
    return WorldError::none();
}

WorldError appendContinuation(WorldFiles& files, Conversation& conversation, const TurnRecord& more,
                              const TurnLog& log, const ReadResult* storedLog) {
    if (auto why = steeringRefusal(conversation, "continue")) return refused(*why);
    const std::string logPath = turnLogPath(conversation.id, conversation.turns.back().number,
                                            conversation.turns.back().variant);
    const ReadResult stored = storedLog ? *storedLog : files.read(logPath);
    if (stored.error.kind == WorldErrorKind::NotLoaded || stored.error.kind == WorldErrorKind::Io)
        return WorldError::make(stored.error.kind, "the reply's agent log could not be read (" + stored.error.message + ")");
    TurnRecord& turn = conversation.turns.back();
    const TurnRecord before = turn;
    for (const TranscriptEntry& entry : more.entries)
        if (entry.kind != EntryKind::Player) turn.entries.push_back(entry);
    for (const FileChange& change : more.changes.changes()) turn.changes.record(change);
    turn.costUsd += more.costUsd;
    // The answer's log gains the continuation's steps (a missing log, or one that does not parse, starts again).
    TurnLog merged;
    if (stored.ok())
        if (llm::Result<TurnLog> parsed = turnLogFromJson(stored.content); parsed.isOk()) merged = *parsed.value;
    const std::string oldLog = stored.content;
    merged.conversationId = conversation.id;
    merged.turn = turn.number;
    merged.steps.insert(merged.steps.end(), log.steps.begin(), log.steps.end());
    merged.notes.push_back("continued: " + std::to_string(log.steps.size()) + " step(s) more");
    merged.notes.insert(merged.notes.end(), log.notes.begin(), log.notes.end());
    merged.costUsd += log.costUsd;
    merged.usage += log.usage;
    auto back = [&] {
        undo(files, more.changes);
        if (!oldLog.empty()) files.write(logPath, oldLog);
        conversation.turns.back() = before;
    };
    if (WorldError error = files.write(logPath, storedLogJson(std::move(merged))); !error.ok()) {
        back();
        return error;
    }
    return commitLast(files, conversation, back);
}

WorldError setReplyEntries(WorldFiles& files, Conversation& conversation, int number,
                           std::vector<TranscriptEntry> entries) {
    const auto found = std::find_if(conversation.turns.begin(), conversation.turns.end(),
                                    [&](const TurnRecord& turn) { return turn.number == number; });
    if (found == conversation.turns.end())
        return refused("conversation '" + conversation.id + "' has no turn " + std::to_string(number));
    std::vector<TranscriptEntry> old = std::move(found->entries);
    found->entries = std::move(entries);
    if (WorldError error = writeTurnRecord(files, conversation.id, *found); !error.ok()) {
        found->entries = std::move(old);
        return error;
    }
    return WorldError::none();
}

WorldError applyReplyEdit(WorldFiles& files, Conversation& conversation, const ReplyEdit& edit) {
    // The narrator's entries become one holding the text, where the first one was.
    std::vector<TranscriptEntry> entries;
    bool placed = false;
    for (const TranscriptEntry& entry : edit.before) {
        if (entry.kind != EntryKind::Narrator) {
            entries.push_back(entry);
            continue;
        }
        if (placed) continue;
        TranscriptEntry reply = entry;
        reply.text = edit.text;
        entries.push_back(std::move(reply));
        placed = true;
    }
    if (!placed) entries.push_back({EntryKind::Narrator, AgentKind::Narrator, edit.text, {}, {}, false, std::nullopt});
    return setReplyEntries(files, conversation, edit.turn, std::move(entries));
}

} // namespace chaiba::story
