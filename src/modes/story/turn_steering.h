// The steering controls on a conversation's durable turn records: regenerate the last reply (the
// turn's file edits undone and made anew by a new run; the old answer kept as a swipe), flip
// between a turn's answers (the world's files follow the one shown), delete an answer, continue
// the last reply, and the edit of a reply's text. Each rewrites one turn record (its commit) and
// drops the undone turns kept for Redo; a failure leaves the world and the records as they were.
#pragma once

#include "src/modes/story/agent_log.h"
#include "src/modes/story/transcript.h"
#include "src/modes/story/world_files.h"

#include <optional>
#include <string>
#include <vector>

namespace chaiba::story {

// Why the last turn cannot be steered (`what`: "regenerate", "continue", ...), or nothing: it must
// exist and be a play turn (an edit after it is undone first).
std::optional<std::string> steeringRefusal(const Conversation& conversation, const std::string& what);

// What it is: the last play turn, ready to be played again. Its shown answer's file changes are
// undone (the world is as before the turn; regeneratingPath marks it, so a run that never ends is
// undone at the next load); `before` is the conversation without it, for the new run of the same
// player line.
struct Regeneration {
    Conversation before;
    std::string playerText;
    int turn = 0;
};
llm::Result<Regeneration> beginRegenerate(WorldFiles& files, const Conversation& conversation);
// The new run's answer becomes the turn's shown one (its entries, decision, changes, cost, summary),
// the old ones kept as swipes; its agent log is stored as a variant of the turn's. `instruction`:
// the direction the narrator was given for it ("" none). When it cannot be kept, the world is as
// before the turn again: the caller cancels.
WorldError finishRegenerate(WorldFiles& files, Conversation& conversation, const TurnRecord& answer,
                            const TurnLog& log, const std::string& instruction);
// A run that failed or was stopped (it reverted its own edits): the shown answer's changes are
// made again, so the world is where the turn left it.
WorldError cancelRegenerate(WorldFiles& files, const Conversation& conversation);

// Shows answer `index` (0-based, of answerCount()) of the last turn: the shown answer's file changes
// are undone and the chosen one's made again; the next turn continues from it.
WorldError selectAnswer(WorldFiles& files, Conversation& conversation, int index);
// Deletes answer `index` of the last turn (never its only one; a shown one gives way to its
// neighbour first, the files following). Its agent log goes with it.
WorldError deleteAnswer(WorldFiles& files, Conversation& conversation, int index);

// The continuation of the last reply (a run of the narrator alone) joins the turn's shown answer:
// its entries after the reply's, its file changes, its cost, its log's steps in the answer's log.
// `storedLog`: that log as the caller read it (readLater: a store may keep it out of memory), else
// it is read here; one kept out of memory and not given is an error (its steps are never dropped).
WorldError appendContinuation(WorldFiles& files, Conversation& conversation, const TurnRecord& more,
                              const TurnLog& log, const ReadResult* storedLog = nullptr);

// An edit of a reply made (redo) or taken back (undo): turn edit.turn's narrator entries become one
// holding edit.text, or its entries become `entries`; its record rewritten.
WorldError applyReplyEdit(WorldFiles& files, Conversation& conversation, const ReplyEdit& edit);
WorldError setReplyEntries(WorldFiles& files, Conversation& conversation, int turn,
                           std::vector<TranscriptEntry> entries);

} // namespace chaiba::story
