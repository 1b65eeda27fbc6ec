// The Story screen's steering controls as drawn: under the last reply its answers (< 2/3 >),
// Regenerate… (a direction for the narrator, optional), Continue and Delete answer (asked first);
// Edit reply under every reply, the reply's editor, and the dialogs.
#include "src/modes/story/conversation_store.h"
#include "src/modes/story/turn_steering.h"
#include "src/modes/story/ui/markdown_view.h"
#include "src/modes/story/ui/story_screen.h"

#include "src/ui/flow_row.h"
#include "src/ui/fonts.h"
#include "src/ui/item_registry.h"
#include "src/ui/theme.h"

#include <imgui.h>

#include <algorithm>

namespace chaiba::story {

void StoryScreen::drawSteering(const TurnRecord& turn, float width) {
    const bool last = !conversation_.turns.empty() && &turn == &conversation_.turns.back();
    const std::string n = std::to_string(turn.number);
    ui::FlowRow row;
    // Every change below replaces the turn this frame draws: posted, applied before the next one.
    if (last && turn.answerCount() > 1) {
        const std::string position = std::to_string(turn.shown + 1) + "/" + std::to_string(turn.answerCount());
        row.place("<", 0);
        ImGui::BeginDisabled(turn.shown == 0);
        if (ui::smallButton("<##prev"))
            unlessRedoLost("Showing another answer", [this, to = turn.shown] {
                if (auto e = selectAnswer(to)) error_ = *e;
            });
        ImGui::EndDisabled();
        ui::markItem("story.answerPrev");
        row.place(position.c_str());
        ImGui::AlignTextToFramePadding();
        ImGui::TextUnformatted(position.c_str());
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("The game master's answers to this line: the world's files follow the one shown");
        ui::markItem("story.answerPosition");
        row.place(">");
        ImGui::BeginDisabled(turn.shown + 1 >= turn.answerCount());
        if (ui::smallButton(">##next"))
            unlessRedoLost("Showing another answer", [this, to = turn.shown + 2] {
                if (auto e = selectAnswer(to)) error_ = *e;
            });
        ImGui::EndDisabled();
        ui::markItem("story.answerNext");
    }
    if (last) {
        row.place("Regenerate…");
        if (ui::smallButton("Regenerate…")) {
            direction_[0] = '\0';
            directionOpen_ = true;
        }
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("Play this line again (optionally with a direction); this answer is kept");
        ui::markItem("story.regenerate");
        row.place("Continue");
        if (ui::smallButton("Continue"))
            unlessRedoLost("Continuing the reply", [this] {
                if (auto e = continueReply()) error_ = *e;
            });
        ui::markItem("story.continue");
    }
    row.place("Edit reply");
    if (ui::smallButton("Edit reply")) {
        editingReply_ = turn.number;
        replyEditor_.begin(context_.platform, turn.narration(), "Edit the reply of turn " + n);
    }
    ui::markItem("story.editReply." + n);
    if (last && turn.answerCount() > 1) {
        row.place("Delete answer");
        if (ui::smallButton("Delete answer")) confirmDeleteAnswer_ = turn.shown + 1;
        ui::markItem("story.deleteAnswer");
    }
    if (!turn.instruction.empty()) ui::mutedText("Regenerated with: \"" + turn.instruction + "\"");
    // The game master's file edits open as a diff, like a person's.
    if (!turn.changes.empty()) {
        const std::size_t count = turn.changes.touchedPaths().size();
        const bool open = ImGui::TreeNode("gmdiff", "What the game master changed (%zu %s)", count,
                                          count == 1 ? "file" : "files");
        ui::markItem("story.gmChanges." + n);
        if (open) {
            drawTurnDiff(turn);
            ui::markItem("story.gmDiff." + n);
            ImGui::TreePop();
        }
    }
    if (editingReply_ == turn.number) drawReplyEditor(turn, width);
}

void StoryScreen::drawTurnDiff(const TurnRecord& turn) {
    const ui::Fonts& fonts = *context_.fonts;
    const ui::Palette& colors = ui::palette();
    // The mono font, each line coloured by what happened to it ("@ path" heads a file's lines).
    if (fonts.mono) ImGui::PushFont(fonts.mono);
    ImGui::BeginGroup();
    const std::string diff = editTurnDiff(turn);
    ImGui::PushTextWrapPos(0.0f);
    for (std::size_t start = 0; start < diff.size();) {
        const std::size_t end = std::min(diff.find('\n', start), diff.size());
        const std::string line = diff.substr(start, end - start);
        const ImU32 color = line.rfind("+ ", 0) == 0 ? colors.ok : line.rfind("- ", 0) == 0 ? colors.danger : colors.muted;
        ImGui::PushStyleColor(ImGuiCol_Text, color);
        ImGui::TextUnformatted(line.c_str());
        ImGui::PopStyleColor();
        start = end + 1;
    }
    ImGui::PopTextWrapPos();
    ImGui::EndGroup();
    if (fonts.mono) ImGui::PopFont();
}

void StoryScreen::drawReplyEditor(const TurnRecord& turn, float width) {
    const ui::Fonts& fonts = *context_.fonts;
    if (!replyEditor_.active()) {
        editingReply_ = 0;
        return;
    }
    ImGui::Spacing();
    ui::mutedText("Your version of this reply: the game master reads it from now on (Undo takes it back).");
    replyEditor_.draw(ImVec2(width, fonts.uiSize * 10), fonts);
    ui::FlowRow row;
    row.place("Save reply");
    if (ui::smallButton("Save reply"))
        unlessRedoLost("Saving your edit of the reply", [this, number = turn.number, text = replyEditor_.text()] {
            if (auto e = editReply(number, text)) error_ = "Your edit was not saved: " + *e;
        });
    ui::markItem("story.saveReply");
    row.place("Cancel");
    if (ui::smallButton("Cancel##reply")) {
        replyEditor_.end();
        editingReply_ = 0;
    }
}

void StoryScreen::unlessRedoLost(std::string what, std::function<void()> change) {
    if (conversation_.redoable > 0)
        redoLoss_ = RedoLoss{std::move(what), std::move(change)};
    else
        commands_.post(std::move(change));
}

void StoryScreen::drawSteeringDialogs() {
    const ui::Fonts& fonts = *context_.fonts;
    const float dialogWidth = std::min(fonts.uiSize * 30, ImGui::GetMainViewport()->WorkSize.x - fonts.uiSize);
    // A change that ends what Redo could bring back: asked first (the change waits in redoLoss_).
    if (redoLoss_ && !ImGui::IsPopupOpen("Drop the undone turns?")) ImGui::OpenPopup("Drop the undone turns?");
    ImGui::SetNextWindowSize(ImVec2(dialogWidth, 0), ImGuiCond_Appearing);
    if (ImGui::BeginPopupModal("Drop the undone turns?", nullptr, ImGuiWindowFlags_NoSavedSettings)) {
        const int count = conversation_.redoable;
        ImGui::TextWrapped("%s changes the story after the turn you went back to, so the %d undone turn%s Redo "
                           "could bring back %s dropped for good (with %s file changes and agent logs).",
                           redoLoss_ ? redoLoss_->what.c_str() : "This", count, count == 1 ? "" : "s",
                           count == 1 ? "is" : "are", count == 1 ? "its" : "their");
        ui::mutedText("Keep them changes nothing: Redo then brings them back, one at a time.");
        if (ImGui::Button("Drop them and go on")) {
            if (redoLoss_) commands_.post(std::move(redoLoss_->change));
            redoLoss_.reset();
            ImGui::CloseCurrentPopup();
        }
        ui::markItem("story.dropRedo");
        ImGui::SameLine();
        if (ImGui::Button("Keep them") || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) {
            redoLoss_.reset();
            notice_ = "Nothing changed: the undone turns are still there (Redo brings them back).";
            ImGui::CloseCurrentPopup();
        }
        ui::markItem("story.keepRedo");
        ImGui::EndPopup();
    }
    if (directionOpen_) {
        ImGui::OpenPopup("Regenerate the reply");
        directionOpen_ = false;
    }
    ImGui::SetNextWindowSize(ImVec2(dialogWidth, 0), ImGuiCond_Appearing);
    if (ImGui::BeginPopupModal("Regenerate the reply", nullptr, ImGuiWindowFlags_NoSavedSettings)) {
        ImGui::TextWrapped("The game master plays your line again; this answer is kept (flip back with < >). "
                           "A direction, if any, goes to the narrator for this reply only.");
        ImGui::SetNextItemWidth(-1);
        if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
        const bool enter = ImGui::InputTextWithHint("##direction", "e.g. make it darker (optional)", direction_,
                                                    sizeof direction_, ImGuiInputTextFlags_EnterReturnsTrue);
        ui::markItem("story.direction");
        if (ImGui::Button("Regenerate") || enter) {
            unlessRedoLost("Regenerating the reply", [this, direction = std::string(direction_)] {
                if (auto e = regenerate(direction)) error_ = *e;
            });
            ImGui::CloseCurrentPopup();
        }
        ui::markItem("story.regenerateGo");
        ImGui::SameLine();
        if (ImGui::Button("Cancel") || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) ImGui::CloseCurrentPopup();
        ImGui::EndPopup();
    }
    // Deleting an answer cannot be undone: asked first.
    if (confirmDeleteAnswer_ > 0 && !ImGui::IsPopupOpen("Delete this answer?")) ImGui::OpenPopup("Delete this answer?");
    ImGui::SetNextWindowSize(ImVec2(dialogWidth, 0), ImGuiCond_Appearing);
    if (ImGui::BeginPopupModal("Delete this answer?", nullptr, ImGuiWindowFlags_NoSavedSettings)) {
        ImGui::TextWrapped("Answer %d of the last turn, its file changes and its agent log are deleted for good "
                           "(this cannot be undone); the world's files follow the answer shown next.",
                           confirmDeleteAnswer_);
        if (conversation_.redoable > 0)
            ImGui::TextWrapped("The %d undone turn(s) Redo could bring back go too.", conversation_.redoable);
        if (ImGui::Button("Delete")) {
            commands_.post([this, answer = confirmDeleteAnswer_] {
                if (auto e = deleteAnswer(answer)) error_ = *e;
            });
            confirmDeleteAnswer_ = 0;
            ImGui::CloseCurrentPopup();
        }
        ui::markItem("story.confirmDelete");
        ImGui::SameLine();
        if (ImGui::Button("Keep it") || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) {
            confirmDeleteAnswer_ = 0;
            ImGui::CloseCurrentPopup();
        }
        ImGui::EndPopup();
    }
}

} // namespace chaiba::story
