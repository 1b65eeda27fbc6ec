// The Story screen's steering actions (see story_screen.h): regenerate the last reply, flip to or
// delete one of its answers, continue it, edit a reply, redo; and their automation commands.
#include "src/modes/story/turn_steering.h"
#include "src/modes/story/ui/story_screen.h"

#include <nlohmann/json.hpp>

namespace chaiba::story {

namespace {

// A store's error as the screen says it (nothing when it went well).
std::optional<std::string> failed(const WorldError& error) {
    return error.ok() ? std::nullopt : std::optional<std::string>(error.message);
}

} // namespace

std::optional<std::string> StoryScreen::regenerate(const std::string& instruction) {
    if (auto why = runRefusal("")) return why;
    if (auto why = steeringRefusal(conversation_, "regenerate")) return why;
    llm::Result<Regeneration> begun = beginRegenerate(*files_, conversation_);
    if (!begun.isOk()) return begun.error;
    runInstruction_ = instruction;
    if (auto why = startRun(begun.value->before, begun.value->playerText, RunKind::Regenerate, {instruction, false})) {
        cancelRegenerate(*files_, conversation_);
        return why;
    }
    forgetPictures();
    return std::nullopt;
}

std::optional<std::string> StoryScreen::continueReply() {
    if (auto why = runRefusal("")) return why;
    if (auto why = steeringRefusal(conversation_, "continue")) return why;
    // The reply's log, which the continuation's steps join, read while the narrator runs (the page
    // keeps agent logs out of memory); a run done first waits for it (onSteeredDone).
    const TurnRecord& last = conversation_.turns.back();
    const std::string path = turnLogPath(conversation_.id, last.number, last.variant);
    continueLog_ = ContinueLog{path, std::nullopt, std::nullopt};
    files_->readLater({path}, [this, life = std::weak_ptr<int>(life_), path](std::vector<ReadResult> read) {
        if (life.expired() || !continueLog_ || continueLog_->path != path) return;
        continueLog_->read = read.empty() ? ReadResult{} : std::move(read.front());
        std::optional<TurnResult> finished = std::move(continueLog_->finished);
        continueLog_->finished.reset();
        if (!finished) return;
        const bool same = !conversation_.turns.empty() &&
                          turnLogPath(conversation_.id, conversation_.turns.back().number,
                                      conversation_.turns.back().variant) == path;
        if (same) return onSteeredDone(*finished);
        // Changed in the moment between the run's end and the read (an undo, another conversation).
        runKind_ = RunKind::Play;
        liveEntries_.clear();
        continueLog_.reset();
        error_ = "The continue was not saved: the reply changed while its log was being read.";
        bump();
    });
    if (auto why = startRun(conversation_, "", RunKind::Continue, {"", true})) {
        continueLog_.reset();
        return why;
    }
    return std::nullopt;
}

void StoryScreen::onSteeredDone(const TurnResult& result) {
    if (runKind_ == RunKind::Continue && result.status == TurnStatus::Completed && continueLog_ && !continueLog_->read) {
        continueLog_->finished = result; // saved when the reply's log is read (continueReply)
        return;
    }
    const bool regenerating = runKind_ == RunKind::Regenerate;
    runKind_ = RunKind::Play;
    liveEntries_.clear();
    pendingPlayer_.clear();
    const std::string what = regenerating ? "regenerate" : "continue";
    // The turn's log in memory is its first answer's as first played: from now on it is read from its file.
    if (!conversation_.turns.empty())
        std::erase_if(sessionLogs_, [&](const TurnLog& log) {
            return log.conversationId == conversation_.id && log.turn == conversation_.turns.back().number;
        });
    if (result.status != TurnStatus::Completed) {
        if (regenerating) cancelRegenerate(*files_, conversation_); // the answer shown comes back
        if (result.status == TurnStatus::Stopped)
            notice_ = "Stopped: the reply is as it was.";
        else
            error_ = "The game master failed to " + what + ": " + result.error + " (the reply is as it was).";
    } else {
        const WorldError e = regenerating
                                 ? finishRegenerate(*files_, conversation_, result.record, result.log, runInstruction_)
                                 : appendContinuation(*files_, conversation_, result.record, result.log,
                                                      continueLog_ && continueLog_->read ? &*continueLog_->read : nullptr);
        if (!e.ok()) {
            if (regenerating) cancelRegenerate(*files_, conversation_);
            error_ = "The " + what + " could not be saved: " + e.message;
        } else {
            const TurnRecord& turn = conversation_.turns.back();
            notice_ = regenerating ? "Regenerated turn " + std::to_string(turn.number) + ": answer " +
                                         std::to_string(turn.shown + 1) + " of " + std::to_string(turn.answerCount()) +
                                         " (the earlier ones are kept: flip with < >)."
                                   : "Continued the reply of turn " + std::to_string(turn.number) + ".";
            logTurn_ = turn.number;
        }
    }
    runInstruction_.clear();
    continueLog_.reset();
    forgetPictures();
    reloadFiles();
    scrollToEnd_ = true;
    bump();
}

std::optional<std::string> StoryScreen::selectAnswer(int answer) {
    if (turn_ && turn_->running()) return "wait for the turn to finish first";
    if (!files_) return "no world is open";
    if (auto e = failed(story::selectAnswer(*files_, conversation_, answer - 1))) return e;
    const TurnRecord& turn = conversation_.turns.back();
    notice_ = "Answer " + std::to_string(turn.shown + 1) + " of " + std::to_string(turn.answerCount()) +
              ": the world's files are as it left them.";
    forgetPictures();
    reloadFiles();
    bump();
    return std::nullopt;
}

std::optional<std::string> StoryScreen::deleteAnswer(int answer) {
    if (turn_ && turn_->running()) return "wait for the turn to finish first";
    if (!files_) return "no world is open";
    if (auto e = failed(story::deleteAnswer(*files_, conversation_, answer - 1))) return e;
    notice_ = "Deleted answer " + std::to_string(answer) + ".";
    forgetPictures();
    reloadFiles();
    bump();
    return std::nullopt;
}

std::optional<std::string> StoryScreen::editReply(int turn, const std::string& text) {
    if (turn_ && turn_->running()) return "wait for the turn to finish before editing";
    if (!files_) return "no world is open";
    bool recorded = false;
    if (auto e = failed(recordReplyEdit(*files_, conversation_, turn, text, &recorded))) return e;
    replyEditor_.end();
    editingReply_ = 0;
    if (!recorded) return std::nullopt;
    notice_ = "Saved your edit of the reply of turn " + std::to_string(turn) + ": edit " +
              std::to_string(conversation_.turns.back().number) +
              " of the history (Undo takes it back); the game master reads it from now on.";
    logTurn_ = conversation_.turns.back().number;
    scrollToEnd_ = true;
    reloadFiles();
    bump();
    return std::nullopt;
}

std::optional<std::string> StoryScreen::redo() {
    if (turn_ && turn_->running()) return "wait for the turn to finish first";
    if (!files_) return "no world is open";
    if (auto e = failed(redoTurn(*files_, conversation_))) return e;
    const TurnRecord& turn = conversation_.turns.back();
    // The line Undo put back in the box is played again: the box empties.
    if (turn.kind == TurnKind::Play && turn.playerText() == composer_) composer_[0] = '\0';
    notice_ = (turn.kind == TurnKind::Edit ? "Redid edit " : "Redid turn ") + std::to_string(turn.number) +
              (conversation_.redoable ? " (" + std::to_string(conversation_.redoable) + " more to redo)." : ".");
    forgetPictures();
    reloadFiles();
    scrollToEnd_ = true;
    bump();
    return std::nullopt;
}

std::optional<std::optional<std::string>> StoryScreen::steeringCommand(std::string_view name, const nlohmann::json& args) {
    auto number = [&](const char* key) -> std::optional<int> {
        if (!args.is_object() || !args.contains(key) || !args[key].is_number_integer()) return std::nullopt;
        return args[key].get<int>();
    };
    auto text = [&](const char* key) {
        return args.is_object() && args.contains(key) && args[key].is_string() ? args[key].get<std::string>() : "";
    };
    if (name == "regenerate") return regenerate(text("instruction"));
    if (name == "continueReply") return continueReply();
    if (name == "redo") return redo();
    if (name == "swipe" || name == "deleteAnswer") {
        const std::optional<int> answer = number("answer");
        if (!answer) return std::optional<std::string>(std::string(name) + " needs {answer: N} (1 is the first)");
        return name == "swipe" ? selectAnswer(*answer) : deleteAnswer(*answer);
    }
    if (name == "editReply") {
        const std::optional<int> turn = number("turn");
        if (!turn) return std::optional<std::string>("editReply needs {turn: N, text}");
        return editReply(*turn, text("text"));
    }
    return std::nullopt;
}

} // namespace chaiba::story
