// `chaiba story` --regenerate, --swipe, --delete-answer, --continue, --edit-reply, --redo (see
// story_steering_command.h; the page's buttons do the same through turn_steering.h).
#include "src/cli/story_steering_command.h"

#include "src/modes/story/conversation_store.h"
#include "src/modes/story/turn_steering.h"
#include "src/persist/bounded_read.h"

#include <cstdio>

namespace chaiba::cli {

namespace {

using namespace chaiba::story;

int fail(const std::string& message) {
    std::fprintf(stderr, "error: %s\n", message.c_str());
    return 1;
}

std::string answerLine(const TurnRecord& turn) {
    return "turn " + std::to_string(turn.number) + " shows answer " + std::to_string(turn.shown + 1) + " of " +
           std::to_string(turn.answerCount());
}

int regenerateLast(Args& args, DiskWorldFiles& world, Conversation& conversation, const StoryRun& run) {
    const std::string instruction = args.positional().empty() ? "" : args.positional().front();
    llm::Result<Regeneration> begun = beginRegenerate(world, conversation);
    if (!begun.isOk()) return fail(begun.error);
    std::printf("[regenerate] turn %d: \"%s\"%s\n", begun.value->turn, terminalSafe(begun.value->playerText).c_str(),
                instruction.empty() ? "" : (" with the direction \"" + terminalSafe(instruction) + "\"").c_str());
    std::optional<TurnResult> result;
    if (const int code = run(begun.value->before, begun.value->playerText, {instruction, false}, result); code != 0) {
        cancelRegenerate(world, conversation);
        return code;
    }
    if (WorldError error = finishRegenerate(world, conversation, result->record, result->log, instruction); !error.ok()) {
        cancelRegenerate(world, conversation);
        return fail(error.message);
    }
    std::printf("[saved] %s (the earlier answers are kept: --swipe N shows another)\n",
                answerLine(conversation.turns.back()).c_str());
    return 0;
}

int continueLast(DiskWorldFiles& world, Conversation& conversation, const StoryRun& run) {
    if (auto why = steeringRefusal(conversation, "continue")) return fail(*why);
    std::printf("[continue] turn %d\n", conversation.turns.back().number);
    std::optional<TurnResult> result;
    if (const int code = run(conversation, "", {"", true}, result); code != 0) return code;
    if (WorldError error = appendContinuation(world, conversation, result->record, result->log); !error.ok())
        return fail(error.message);
    std::printf("[saved] turn %d's reply continued; files changed by it: %zu\n", conversation.turns.back().number,
                result->record.changes.touchedPaths().size());
    return 0;
}

// --swipe N, or --delete-answer N (which cannot be undone: refused without --yes).
int chooseAnswer(Args& args, DiskWorldFiles& world, Conversation& conversation, bool remove) {
    const char* flag = remove ? "delete-answer" : "swipe";
    const long long answer = args.integer(flag, 0, 1, 1 << 20);
    if (args.error()) return fail(*args.error());
    if (auto why = steeringRefusal(conversation, remove ? "delete an answer of" : "swipe")) return fail(*why);
    const TurnRecord& last = conversation.turns.back();
    if (answer > last.answerCount())
        return fail("turn " + std::to_string(last.number) + " has " + std::to_string(last.answerCount()) +
                    " answer(s): --" + flag + " 1 to " + std::to_string(last.answerCount()));
    if (remove && !args.has("yes"))
        return fail("deleting answer " + std::to_string(answer) + " of turn " + std::to_string(last.number) +
                    " cannot be undone (its text, file changes and log go): add --yes to delete it");
    const int index = static_cast<int>(answer) - 1;
    if (WorldError error = remove ? deleteAnswer(world, conversation, index) : selectAnswer(world, conversation, index);
        !error.ok())
        return fail(error.message);
    if (remove) std::printf("deleted answer %lld; ", answer);
    std::printf("%s; the world's files are as it left them\n", answerLine(conversation.turns.back()).c_str());
    return 0;
}

int editReply(Args& args, DiskWorldFiles& world, Conversation& conversation) {
    const long long turn = args.integer("edit-reply", 0, 1, 1 << 30);
    if (args.error()) return fail(*args.error());
    std::optional<std::string> text = args.value("text");
    if (auto file = args.value("text-file")) {
        const persist::ReadResult read = persist::readFileBounded(*file, persist::kMaxDocumentBytes);
        if (!read.ok()) return fail(read.error);
        text = read.text;
    }
    if (!text) return fail("--edit-reply TURN needs the new reply: --text TEXT or --text-file FILE");
    bool recorded = false;
    if (WorldError error = recordReplyEdit(world, conversation, static_cast<int>(turn), *text, &recorded); !error.ok())
        return fail(error.message);
    if (!recorded) {
        std::printf("the reply of turn %lld is unchanged\n", turn);
        return 0;
    }
    std::printf("%s: edit %d of %s (--undo takes it back)\n", conversation.turns.back().entries.at(0).text.c_str(),
                conversation.turns.back().number, conversation.id.c_str());
    return 0;
}

} // namespace

std::optional<int> runStorySteering(Args& args, DiskWorldFiles& world, Conversation& conversation, const StoryRun& run) {
    if (args.has("regenerate")) return regenerateLast(args, world, conversation, run);
    if (args.has("continue")) return continueLast(world, conversation, run);
    if (args.value("swipe")) return chooseAnswer(args, world, conversation, false);
    if (args.value("delete-answer")) return chooseAnswer(args, world, conversation, true);
    if (args.value("edit-reply")) return editReply(args, world, conversation);
    if (args.has("redo")) {
        if (WorldError error = redoTurn(world, conversation); !error.ok()) return fail(error.message);
        const TurnRecord& turn = conversation.turns.back();
        std::printf("redid %s %d of %s; %zu file(s) changed again (%d more to redo)\n",
                    turn.kind == TurnKind::Edit ? "edit" : "turn", turn.number, conversation.id.c_str(),
                    turn.changes.touchedPaths().size(), conversation.redoable);
        return 0;
    }
    return std::nullopt;
}

} // namespace chaiba::cli
