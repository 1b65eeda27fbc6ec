// The chat half of "Plan with AI": the person's messages, a card per tool call (old → new, or the
// refusal the model read; a muted one while the model is still writing it), the streamed reply, a
// loading line while the model works, and under each reply the net change with its Undo button,
// each hand edit of the graph with its net change and Revert; then the input with Send and Stop.
#include "src/modes/planner/ui/plan_panel.h"

#include "src/modes/planner/plan_diff.h"
#include "src/ui/flow_row.h"
#include "src/ui/fonts.h"
#include "src/ui/item_registry.h"
#include "src/ui/theme.h"

#include <imgui.h>

#include <cmath>
#include <cstring>

namespace chaiba::planner {

namespace {

// Puts the cursor for a small button with this label after the last item when it fits on that
// line, else at the start of the next.
void besideLastItem(const char* label) {
    chaiba::ui::FlowRow row;
    row.first = false;
    row.place(label);
}

// Wrapped text on a tinted, rounded background the width of the column.
void card(const std::string& text, ImU32 textColour, ImU32 fill) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImGuiStyle& style = ImGui::GetStyle();
    const ImVec2 start = ImGui::GetCursorScreenPos();
    const float width = ImGui::GetContentRegionAvail().x;
    dl->ChannelsSplit(2);
    dl->ChannelsSetCurrent(1);
    ImGui::SetCursorScreenPos(ImVec2(start.x + style.FramePadding.x, start.y + style.FramePadding.y));
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width - style.FramePadding.x * 2);
    ImGui::PushStyleColor(ImGuiCol_Text, textColour);
    ImGui::TextUnformatted(text.c_str());
    ImGui::PopStyleColor();
    ImGui::PopTextWrapPos();
    const float bottom = ImGui::GetItemRectMax().y + style.FramePadding.y;
    dl->ChannelsSetCurrent(0);
    dl->AddRectFilled(start, ImVec2(start.x + width, bottom), fill, style.FrameRounding + 2);
    dl->ChannelsMerge();
    ImGui::SetCursorScreenPos(start);
    ImGui::Dummy(ImVec2(width, bottom - start.y));
}

ImU32 tint(ImU32 colour, int alpha) { return (colour & 0x00FFFFFFu) | (ImU32(alpha) << 24); }

// The value of `"key":"…"` in partial JSON once its closing quote has arrived, else "".
std::string completedString(const std::string& json, const std::string& key) {
    const std::string quoted = "\"" + key + "\"";
    for (size_t at = json.find(quoted); at != std::string::npos; at = json.find(quoted, at + 1)) {
        size_t i = json.find_first_not_of(" \t\r\n", at + quoted.size());
        if (i == std::string::npos || json[i] != ':') continue;
        i = json.find_first_not_of(" \t\r\n", i + 1);
        if (i == std::string::npos || json[i] != '"') continue;
        for (size_t end = i + 1; end < json.size(); ++end) {
            if (json[end] == '\\') ++end;
            else if (json[end] == '"') return json.substr(i + 1, end - i - 1);
        }
        return {};
    }
    return {};
}

// A call still being written: its tool, the task it names as soon as that is whole, and how much
// of its arguments came ("… add_task qual (arguments arriving: 312 characters)").
std::string streamingCardText(const llm::ToolCall& call) {
    std::string target = completedString(call.arguments, "id");
    if (target.empty()) target = completedString(call.arguments, "task");
    return "\xE2\x80\xA6 " + (call.name.empty() ? std::string("a tool call") : call.name) +
           (target.empty() ? "" : " " + target) + " (arguments arriving: " + std::to_string(call.arguments.size()) +
           " characters)";
}

} // namespace

void PlanPanel::drawMessages(float height) {
    ImGui::BeginChild("##planMessages", ImVec2(0, height), false);
    ui::markWindow("planner.messages");
    const std::vector<PlanTurn>& turns = chat_->turns();
    if (turns.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, ui::palette().muted);
        ImGui::TextWrapped("Say what the tournament should find out, e.g. \"the six cheapest tool-capable models, "
                           "Chess960, under $3, then a final of the best two against engine level 6\". The model "
                           "builds the plan above through checked tool calls; you review each change before it "
                           "applies, and every change can be undone.");
        if (!providerReady())
            ImGui::TextWrapped("No key? Import \xE2\x86\x92 Sample plan gives a plan of engines that runs without one, "
                               "and Add task builds one by hand.");
        ImGui::PopStyleColor();
    }
    for (size_t i = 0; i < turns.size(); ++i) drawTurn(i, turns[i]);
    drawRedo();
    // Auto-scroll (the console idiom): stay at the end while the person has not scrolled up;
    // scrolling back to the end follows again, and sending a message always does. At the end comes
    // first: a resize that shortens the chat clamps its scroll, which is not the person scrolling up.
    const float y = ImGui::GetScrollY();
    if (y >= ImGui::GetScrollMaxY() - 4)
        stickToEnd_ = true;
    else if (y < scrollY_ - 1)
        stickToEnd_ = false;
    if (scrollToEnd_) stickToEnd_ = true;
    scrollToEnd_ = false;
    if (stickToEnd_) ImGui::SetScrollHereY(1.0f);
    scrollY_ = ImGui::GetScrollY();
    scrollMaxY_ = ImGui::GetScrollMaxY();
    const bool atEnd = scrollY_ >= scrollMaxY_ - 4;
    if (!stickToEnd_ || atEnd)
        followFrames_ = 3;
    else if (followFrames_ > 0)
        --followFrames_;
    ImGui::EndChild();
}

void PlanPanel::drawTurn(size_t index, const PlanTurn& turn) {
    const ui::Palette& pal = ui::palette();
    const ui::Fonts& fonts = *context_.fonts;
    const std::string tag = std::to_string(index);
    ImGui::PushID(int(index));
    if (turn.byHand) {
        drawHandEdit(index, turn);
        ImGui::PopID();
        return;
    }
    // The person's message.
    ImGui::PushFont(fonts.bold);
    ImGui::TextUnformatted("You");
    ImGui::PopFont();
    card(turn.text, ImGui::GetColorU32(ImGuiCol_Text), tint(pal.accent, turn.undone ? 18 : 40));
    ui::markItem("planner.message." + tag);
    // What the model did: one card per tool call.
    ImGui::PushFont(fonts.bold);
    ImGui::TextUnformatted("Planner");
    ImGui::PopFont();
    for (size_t c = 0; c < turn.calls.size(); ++c) {
        const PlanToolCall& call = turn.calls[c];
        std::string text;
        if (call.isError) {
            text = "\xE2\x9C\x97 " + call.name + (call.card.target.empty() ? "" : " " + call.card.target) +
                   " refused: " + (call.result.rfind("Error: ", 0) == 0 ? call.result.substr(7) : call.result);
            card(text, pal.danger, tint(pal.danger, 26));
        } else {
            text = "\xE2\x9C\x93 " + call.card.text();
            card(text, ImGui::GetColorU32(ImGuiCol_Text), tint(pal.ok, 30));
        }
        ui::markItem("planner.card." + tag + "." + std::to_string(c));
    }
    // The calls the model is still writing: a muted card each, until the reply runs them.
    const bool running = turn.end == TurnEnd::Running;
    if (running) {
        const std::vector<llm::ToolCall>& streaming = chat_->streamingCalls();
        for (size_t c = 0; c < streaming.size(); ++c) {
            card(streamingCardText(streaming[c]), pal.muted, tint(pal.muted, 22));
            ui::markItem("planner.streamingCard." + tag + "." + std::to_string(c));
        }
    }
    // The reply: streamed while it comes, the last words once it is there.
    const std::string& reply = running ? chat_->streamingText() : turn.reply;
    if (!reply.empty()) {
        ImGui::TextWrapped("%s", reply.c_str());
        ui::markItem("planner.reply." + tag);
    }
    if (running) {
        static const char* dots[] = {"", ".", "..", "..."};
        const int phase = int(std::fmod(ImGui::GetTime() * 3.0, 4.0));
        ImGui::PushStyleColor(ImGuiCol_Text, pal.accent);
        ImGui::Text("Thinking%s (round %d of at most %d)%s", dots[phase], turn.rounds + 1, chat_->config().maxRounds,
                    reply.empty() ? "" : " \xE2\x80\x94 answer streaming");
        ImGui::PopStyleColor();
        ui::markItem("planner.loading");
    }
    if (turn.end == TurnEnd::Failed) {
        ImGui::PushStyleColor(ImGuiCol_Text, pal.danger);
        ImGui::TextWrapped("The model call failed: %s", turn.error.c_str());
        ImGui::PopStyleColor();
        ui::markItem("planner.error." + tag);
        if (context_.openSettings && chaiba::ui::smallButton("Open Settings")) context_.openSettings();
    } else if (turn.end == TurnEnd::Stopped) {
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.warning), "Stopped by you; the changes made so far stay.");
    } else if (turn.end == TurnEnd::Capped) {
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.warning), "Reached the limit of %d tool rounds.",
                           chat_->config().maxRounds);
    }
    // The net change of the message and its undo; a proposal waiting for review instead.
    if (!running) {
        ImGui::PushStyleColor(ImGuiCol_Text, pal.muted);
        ImGui::AlignTextToFramePadding();
        const std::string reviewed = turn.review == Review::None || turn.review == Review::Pending
                                         ? std::string()
                                         : " \xC2\xB7 " + turn.reviewNote;
        const std::string change =
            std::string(turn.review == Review::Pending ? "proposed: " : "") +
            (turn.review == Review::Rejected ? std::string("nothing applied") : turn.diff.text()) +
            " \xC2\xB7 " + std::to_string(turn.rounds) + " round" + (turn.rounds == 1 ? "" : "s") + reviewed +
            (turn.undone ? " \xC2\xB7 undone" : "");
        ImGui::TextWrapped("%s", change.c_str());
        ImGui::PopStyleColor();
        ui::markItem("planner.diff." + tag);
        if (turn.review == Review::Pending) drawReview(index, turn);
        else if (!turn.undone && !turn.diff.empty())
            drawUndoButton(index, "Undo", "Back to the plan before this message (later steps are undone with it).");
        else if (chat_->redoFirst() == index)
            drawRedoButton(index);
    }
    ImGui::Spacing();
    ImGui::PopID();
}

// The model's proposed change, task by task: what each line was and becomes (the graph marks the
// same tasks), a tick per task, and Accept all / Accept ticked / Reject.
void PlanPanel::drawReview(size_t index, const PlanTurn& turn) {
    const ui::Palette& pal = ui::palette();
    const ui::Fonts& fonts = *context_.fonts;
    const std::vector<TaskChange> changes = taskChanges(turn.before, turn.after);
    if (reviewFor_ != index) { // a new proposal: every change ticked
        reviewFor_ = index;
        reviewPick_.clear();
        reviewError_.clear();
    }
    for (const TaskChange& c : changes) reviewPick_.try_emplace(c.id, true);
    ImGui::PushStyleColor(ImGuiCol_Text, pal.warning);
    ImGui::TextWrapped("Review: nothing is applied yet. The graph shows the proposal (new tasks green, changed "
                       "amber, removed red); accept all of it, only the ticked tasks, or reject it.");
    ImGui::PopStyleColor();
    ui::markItem("planner.review");
    int picked = 0;
    for (const TaskChange& c : changes) {
        ImGui::PushID(c.id.c_str());
        bool& pick = reviewPick_[c.id];
        const char* sign = c.kind == TaskChange::Kind::Added     ? "+"
                           : c.kind == TaskChange::Kind::Removed ? "\xE2\x88\x92"
                                                                 : "~";
        const std::string label = std::string(sign) + " " + c.id + " (" + changeKindName(c.kind) + ")";
        ImGui::Checkbox(label.c_str(), &pick);
        ui::markItem("planner.review.pick." + c.id);
        picked += pick ? 1 : 0;
        ImGui::PushFont(fonts.mono);
        ImGui::Indent(fonts.uiSize * 1.2f);
        if (c.kind == TaskChange::Kind::Changed) {
            // Field by field: each line that went and each that came.
            for (const std::string& line : c.removedLines) {
                ImGui::PushStyleColor(ImGuiCol_Text, pal.danger);
                ImGui::TextWrapped("- %s", line.c_str());
                ImGui::PopStyleColor();
            }
            for (const std::string& line : c.addedLines) {
                ImGui::PushStyleColor(ImGuiCol_Text, pal.ok);
                ImGui::TextWrapped("+ %s", line.c_str());
                ImGui::PopStyleColor();
            }
        } else {
            // A whole task added or removed: its fields on one wrapped line.
            const std::vector<std::string>& lines = c.kind == TaskChange::Kind::Added ? c.addedLines : c.removedLines;
            std::string fields;
            for (const std::string& line : lines) {
                const size_t start = line.find_first_not_of(' ');
                if (start != std::string::npos) fields += (fields.empty() ? "" : " \xC2\xB7 ") + line.substr(start);
            }
            ImGui::PushStyleColor(ImGuiCol_Text, c.kind == TaskChange::Kind::Added ? pal.ok : pal.danger);
            ImGui::TextWrapped("%s", fields.c_str());
            ImGui::PopStyleColor();
        }
        ImGui::Unindent(fonts.uiSize * 1.2f);
        ImGui::PopFont();
        ImGui::PopID();
    }
    // Each decision is applied between frames: it replaces the plan and the turns drawn here.
    ImGui::BeginDisabled(chat_->busy() || runner_.running());
    ImGui::PushStyleColor(ImGuiCol_Button, pal.ok);
    if (ImGui::Button("Accept all")) commands_.post([this] { (void)accept(nullptr); });
    ImGui::PopStyleColor();
    ui::markItem("planner.review.accept");
    ImGui::SameLine();
    ImGui::BeginDisabled(picked == 0 || picked == int(changes.size()));
    if (ImGui::Button("Accept ticked")) {
        std::vector<std::string> only;
        for (const TaskChange& c : changes)
            if (reviewPick_[c.id]) only.push_back(c.id);
        commands_.post([this, only] { (void)accept(&only); });
    }
    ImGui::EndDisabled();
    ui::markItem("planner.review.acceptTicked");
    ImGui::SameLine();
    if (ImGui::Button("Reject")) commands_.post([this] { (void)reject(); });
    ui::markItem("planner.review.reject");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Drop the whole proposal; the model reads that you rejected it.");
    ImGui::EndDisabled();
    if (!reviewError_.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, pal.danger);
        ImGui::TextWrapped("Not accepted: %s", reviewError_.c_str());
        ImGui::PopStyleColor();
        ui::markItem("planner.review.error");
    }
}

// The undo button of step `index`, on the line of its net change. An undo that takes later steps
// with it asks first.
void PlanPanel::drawUndoButton(size_t index, const char* label, const char* tooltip) {
    besideLastItem(label);
    ImGui::BeginDisabled(chat_->busy());
    if (chaiba::ui::smallButton(label)) {
        if (chat_->laterSteps(index) > 0) {
            confirmUndo_ = index;
        } else {
            postUndo(index);
        }
    }
    ImGui::EndDisabled();
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) ImGui::SetTooltip("%s", tooltip);
    ui::markItem("planner.undo." + std::to_string(index));
    if (confirmUndo_ != index) return;
    const int later = chat_->laterSteps(index);
    ImGui::PushStyleColor(ImGuiCol_Text, ui::palette().warning);
    ImGui::TextWrapped("This also undoes the %d later step%s after it (Redo brings them back).", later,
                       later == 1 ? "" : "s");
    ImGui::PopStyleColor();
    ui::markItem("planner.undo.question");
    const std::string all = "Undo all " + std::to_string(later + 1) + "###planner.undo.confirm";
    if (chaiba::ui::smallButton(all.c_str())) {
        postUndo(index);
    }
    ui::markItem("planner.undo.confirm");
    ImGui::SameLine();
    if (chaiba::ui::smallButton("Cancel###planner.undo.cancel")) confirmUndo_.reset();
    ui::markItem("planner.undo.cancel");
}

void PlanPanel::postUndo(size_t index) {
    commands_.post([this, index] {
        if (auto why = undo(index)) {
            notice_ = *why;
            noticeIsError_ = true;
        }
    });
}

void PlanPanel::postRedo() {
    commands_.post([this] {
        if (auto why = redo()) {
            notice_ = *why;
            noticeIsError_ = true;
        }
    });
}

// Redo beside the first step the last undo took (on its net change's line), and under the last
// step, while that undo can be taken back.
void PlanPanel::drawRedoButton(size_t index) {
    besideLastItem("Redo");
    if (chaiba::ui::smallButton("Redo")) postRedo();
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Brings back %s.", chat_->redoText().c_str());
    ui::markItem("planner.redo." + std::to_string(index));
}

void PlanPanel::drawRedo() {
    const std::string what = chat_->redoText();
    if (what.empty()) return;
    ImGui::PushStyleColor(ImGuiCol_Text, ui::palette().muted);
    ImGui::AlignTextToFramePadding();
    ImGui::TextWrapped("Undone: %s.", what.c_str());
    ImGui::PopStyleColor();
    besideLastItem("Redo");
    if (chaiba::ui::smallButton("Redo###planner.redo.end")) postRedo();
    ui::markItem("planner.redo");
}

// A hand edit of the graph: what was done, its net change and Revert (the same undo step as a message's).
void PlanPanel::drawHandEdit(size_t index, const PlanTurn& turn) {
    const ui::Palette& pal = ui::palette();
    const std::string tag = std::to_string(index);
    ImGui::PushFont(context_.fonts->bold);
    ImGui::TextUnformatted("You, by hand");
    ImGui::PopFont();
    card(turn.text, ImGui::GetColorU32(ImGuiCol_Text), tint(pal.warning, turn.undone ? 14 : 32));
    ui::markItem("planner.message." + tag);
    ImGui::PushStyleColor(ImGuiCol_Text, pal.muted);
    ImGui::AlignTextToFramePadding();
    ImGui::TextWrapped("%s%s", turn.diff.text().c_str(), turn.undone ? " \xC2\xB7 reverted" : "");
    ImGui::PopStyleColor();
    ui::markItem("planner.diff." + tag);
    if (!turn.undone) drawUndoButton(index, "Revert", "Back to the plan before this edit (later steps are undone with it).");
    else if (chat_->redoFirst() == index) drawRedoButton(index);
    ImGui::Spacing();
}

void PlanPanel::drawInput() {
    const ImGuiStyle& style = ImGui::GetStyle();
    const bool busy = chat_->busy();
    const float buttonW = ImGui::CalcTextSize("Send").x + style.FramePadding.x * 2 + context_.fonts->uiSize;
    const float height = ImGui::GetContentRegionAvail().y - style.ItemSpacing.y;
    const bool entered = ImGui::InputTextMultiline("##planInput", input_, sizeof input_,
                              ImVec2(-buttonW - style.ItemSpacing.x, std::max(height, context_.fonts->uiSize * 3)),
                              ImGuiInputTextFlags_CtrlEnterForNewLine | ImGuiInputTextFlags_EnterReturnsTrue);
    ui::markItem("planner.input");
    if (ImGui::IsItemHovered() && !busy) ImGui::SetTooltip("Enter sends; Ctrl+Enter starts a new line.");
    ImGui::SameLine();
    ImGui::BeginGroup();
    if (busy) {
        ImGui::PushStyleColor(ImGuiCol_Button, ui::palette().danger);
        if (ImGui::Button("Stop", ImVec2(buttonW, 0))) chat_->stop();
        ImGui::PopStyleColor();
        ui::markItem("planner.stop");
    } else {
        const bool send = ImGui::Button("Send", ImVec2(buttonW, 0)) || entered;
        ui::markItem("planner.send");
        if (send && input_[0] != '\0') {
            if (auto why = say(input_)) {
                notice_ = *why;
                noticeIsError_ = true;
            } else {
                input_[0] = '\0';
                notice_.clear();
            }
        }
    }
    ImGui::EndGroup();
}

} // namespace chaiba::planner
