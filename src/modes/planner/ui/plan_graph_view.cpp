// The plan's graph: tasks as nodes coloured by status on the layered layout (plan_layout), layers
// left to right or, in a tall narrow view, top to bottom; an arrow from each task to what it
// depends on, pan (drag) and zoom (wheel, buttons), and a click that opens the task's editor,
// which changes the plan through the same validated mutations the model's tools use and shows
// their refusals.
#include "src/modes/planner/ui/plan_panel.h"

#include "src/modes/planner/plan_diff.h"
#include "src/modes/planner/plan_layout.h"
#include "src/modes/planner/plan_text.h"
#include "src/ui/dialog_place.h"
#include "src/ui/fonts.h"
#include "src/ui/item_registry.h"
#include "src/ui/text_fit.h"
#include "src/ui/theme.h"

#include <imgui.h>

#include <algorithm>
#include <map>
#include <set>
#include <cmath>
#include <cstring>

namespace chaiba::planner {

namespace {

using G = GraphGeometry;
constexpr float kNodeW = G::kNodeW, kNodeH = G::kNodeH;

// The zoom range of the buttons and Ctrl + wheel (a fit stays within GraphGeometry's bounds).
constexpr float kZoomMin = 0.5f, kZoomMax = 3.0f;

// The view below the row of zoom buttons at its top: a fitted graph does not run under them.
float buttonRowHeight() { return ImGui::GetFrameHeight() + 4; }

constexpr const char* kStatusNames[] = {"planned", "ready", "running", "done", "failed", "skipped"};

ImU32 statusFill(TaskStatus s) {
    switch (s) {
    case TaskStatus::Planned: return IM_COL32(208, 212, 220, 255);
    case TaskStatus::Ready: return IM_COL32(150, 190, 245, 255);
    case TaskStatus::Running: return IM_COL32(250, 200, 95, 255);
    case TaskStatus::Done: return IM_COL32(130, 205, 140, 255);
    case TaskStatus::Failed: return IM_COL32(240, 130, 120, 255);
    case TaskStatus::Skipped: return IM_COL32(235, 235, 235, 255);
    }
    return IM_COL32(200, 200, 200, 255);
}


} // namespace

void PlanPanel::selectNode(const std::string& id) {
    const Task* task = chat_->plan().find(id);
    if (!task) return;
    selected_ = id;
    editorOpen_ = true;
    addingTask_ = false;
    editError_.clear();
    copyText(editText_.data(), editText_.size(), taskText(*task));
    copyText(editName_, sizeof editName_, task->name);
    copyText(editDescription_, sizeof editDescription_, task->description);
    editDependency_[0] = '\0';
    editStatus_ = int(task->status);
    changed();
}


void PlanPanel::openNewTask() {
    const PlanGraph& plan = chat_->plan();
    std::string id = plan.tasks.empty() ? "plan" : "stage";
    for (int n = 2; plan.find(id); ++n) id = "stage" + std::to_string(n);
    const std::string text =
        plan.tasks.empty()
            ? "task plan: What the plan should find out\n  desc One line on the question the stages answer.\n"
            : "task " + id + ": A new stage\n  stage chess roundrobin\n  games 1\n  budget 0\n"
                             "  player engine:2\n  player engine:4\n";
    copyText(editText_.data(), editText_.size(), text);
    selected_.clear();
    addingTask_ = true;
    editorOpen_ = true;
    editError_.clear();
    changed();
}

// The task's text in the plan format: every field, the stage's included, checked as a whole on
// Save (a problem names its line).
void PlanPanel::drawTaskText(const std::string& id) {
    const ui::Fonts& fonts = *context_.fonts;
    ImGui::PushStyleColor(ImGuiCol_Text, ui::palette().muted);
    ImGui::TextWrapped("%s", id.empty() ? "The new task in the plan's text format: 'needs' lists what it waits for; "
                                          "'stage', 'games', 'budget', 'player' make it a tournament (Import shows the "
                                          "whole format)."
                                        : "Every field, the stage's too, in the plan's text format:");
    ImGui::PopStyleColor();
    ImGui::PushFont(fonts.mono);
    ImGui::InputTextMultiline("##taskText", editText_.data(), editText_.size(),
                              ImVec2(-1, fonts.uiSize * (id.empty() ? 9 : 7)));
    ImGui::PopFont();
    ui::markItem("planner.edit.text");
    const std::string text = editText_.data();
    if (ImGui::Button(id.empty() ? "Add task" : "Save text")) {
        const std::string what = id.empty() ? "added a task" : "edited task '" + id + "' as text";
        editAfterFrame([id, text](const PlanGraph& plan, const PlanContext& c) { return replaceTaskText(plan, id, text, c); },
                       what);
        commands_.post([this, id] {
            // Saved: the editor goes on with the task as it now is (a new one is the last task);
            // refused, it keeps the text and shows why.
            if (!editError_.empty() || !chat_ || chat_->plan().tasks.empty()) return;
            if (id.empty()) selectNode(chat_->plan().tasks.back().id);
            else if (chat_->plan().find(id)) selectNode(id);
        });
    }
    ui::markItem(id.empty() ? "planner.edit.add" : "planner.edit.saveText");
}

// A finished stage's table: place, seat, rating, games, score; who went forward into each stage
// that takes its top K (and how a tie at the cut was broken); the rule for equal ratings.
void PlanPanel::drawStageResult(const std::string& id) {
    const auto found = runner_.results().find(id);
    if (found == runner_.results().end()) return;
    const StageResult& r = found->second;
    const ui::Palette& pal = ui::palette();
    ImGui::Separator();
    ImGui::PushFont(context_.fonts->bold);
    ImGui::Text("Result: %d game%s, %s USD", r.games, r.games == 1 ? "" : "s", numberText(r.spentUsd).c_str());
    ImGui::PopFont();
    ui::markItem("planner.result." + id);
    if (!r.standings.empty() &&
        ImGui::BeginTable("##stageTable", 5, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit)) {
        ImGui::TableSetupColumn("#");
        ImGui::TableSetupColumn("seat", ImGuiTableColumnFlags_WidthStretch);
        ImGui::TableSetupColumn("rating");
        ImGui::TableSetupColumn("games");
        ImGui::TableSetupColumn("score");
        ImGui::TableHeadersRow();
        for (size_t i = 0; i < r.standings.size(); ++i) {
            const StageStanding& s = r.standings[i];
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::Text("%zu", i + 1);
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(s.seat.c_str());
            ImGui::TableNextColumn();
            ImGui::Text("%.0f", s.rating);
            ImGui::TableNextColumn();
            ImGui::Text("%d", s.games);
            ImGui::TableNextColumn();
            ImGui::Text("%g", s.score);
        }
        ImGui::EndTable();
    } else if (r.standings.empty()) {
        for (size_t i = 0; i < r.ranking.size(); ++i) ImGui::BulletText("%zu. %s", i + 1, r.ranking[i].c_str());
    }
    // Who went on, stage by stage.
    for (const Task& t : chat_->plan().tasks) {
        if (!t.stage) continue;
        for (const Entrant& e : t.stage->entrants) {
            if (!e.isTop() || e.fromTask != id) continue;
            const Advance a = advanceFrom(r, e.topK);
            std::string seats;
            for (const std::string& s : a.seats) seats += (seats.empty() ? "" : ", ") + s;
            ImGui::TextWrapped("\xE2\x86\x92 %s took the top %d: %s", t.id.c_str(), e.topK, seats.c_str());
            if (!a.tieNote.empty()) {
                ImGui::PushStyleColor(ImGuiCol_Text, pal.warning);
                ImGui::TextWrapped("%s", a.tieNote.c_str());
                ImGui::PopStyleColor();
                ui::markItem("planner.result." + id + ".tie");
            }
        }
    }
    if (!r.tieRule.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, pal.muted);
        ImGui::TextWrapped("Ranked %s.", r.tieRule.c_str());
        ImGui::PopStyleColor();
    }
    // The stage's own tournament, kept: opened again on its screen (games, boards, leaderboard).
    if (!services_.host || !services_.host->keptStage(id)) return;
    ImGui::BeginDisabled(runner_.running());
    if (ImGui::Button("Open its tournament")) {
        commands_.post([this, id] {
            if (auto why = openStage(id, false); why && confirmOpen_.first != id) editError_ = *why;
        });
    }
    ImGui::EndDisabled();
    ui::markItem("planner.result." + id + ".open");
    if (confirmOpen_.first != id) return;
    ImGui::PushStyleColor(ImGuiCol_Text, pal.warning);
    ImGui::TextWrapped("This replaces %s. Export it from its screen first to keep it.", confirmOpen_.second.c_str());
    ImGui::PopStyleColor();
    ui::markItem("planner.result." + id + ".question");
    if (ImGui::Button("Replace and open")) {
        commands_.post([this, id] {
            if (auto why = openStage(id, true)) editError_ = *why;
        });
    }
    ui::markItem("planner.result." + id + ".confirm");
    ImGui::SameLine();
    if (ImGui::Button("Cancel###openCancel")) confirmOpen_ = {};
}

void PlanPanel::drawGraph(float height) {
    const std::optional<size_t> pending = chat_->pendingReview();
    ReviewView review;
    if (pending) review = reviewView(chat_->turns()[*pending].before, chat_->turns()[*pending].after);
    const PlanGraph& plan = pending ? review.graph : chat_->plan();
    const ImGuiStyle& style = ImGui::GetStyle();
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const ImVec2 size(ImGui::GetContentRegionAvail().x, height);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->AddRectFilled(origin, ImVec2(origin.x + size.x, origin.y + size.y), ImGui::GetColorU32(ImGuiCol_FrameBg),
                      style.FrameRounding);
    // The zoom buttons at the top left take the mouse over them: the graph's own button (a click
    // selects, a drag pans) is not submitted there, or it would take their clicks (it did: Fit,
    // + and − did nothing).
    const float buttonsW = ImGui::CalcTextSize("Fit+\xE2\x88\x92").x + style.FramePadding.x * 6 + 4 + 8;
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    const bool overButtons = !graphDragging_ && mouse.x >= origin.x && mouse.x < origin.x + buttonsW &&
                             mouse.y >= origin.y && mouse.y < origin.y + buttonRowHeight();
    bool released = false;
    if (overButtons) ImGui::Dummy(size);
    else released = ImGui::InvisibleButton("##planGraph", size);
    const float threshold = ImGui::GetIO().MouseDragThreshold;
    const bool clickedHere =
        released && ImGui::GetIO().MouseDragMaxDistanceSqr[ImGuiMouseButton_Left] < threshold * threshold;
    ui::markItem("planner.graph");
    const bool hovered = !overButtons && ImGui::IsItemHovered();
    graphDragging_ = !overButtons && ImGui::IsItemActive();
    if (graphDragging_ && ImGui::IsMouseDragging(ImGuiMouseButton_Left, 2.0f)) {
        panX_ += ImGui::GetIO().MouseDelta.x;
        panY_ += ImGui::GetIO().MouseDelta.y;
    }
    const std::vector<LayoutSlot> slots = layoutPlan(plan);
    int layers = 0, rows = 0;
    for (const LayoutSlot& s : slots) {
        layers = std::max(layers, s.layer + 1);
        rows = std::max(rows, s.index + 1);
    }
    // A new shape, or a new width (the page resized, a phone turned), fits again. Layers run left
    // to right, or top to bottom when that draws the nodes larger (a long chain in a narrow view:
    // a phone); the choice is made at a fit, so a pan or zoom keeps it.
    if (std::make_pair(layers, rows) != fittedShape_ || std::fabs(size.x - fittedWidth_) > 1) fitRequested_ = true;
    if (fitRequested_ && !plan.tasks.empty()) {
        fittedShape_ = {layers, rows};
        fittedWidth_ = size.x;
        const float top = buttonRowHeight();
        const float viewH = std::max(size.y - top, 1.0f);
        const GraphFit fit = fitGraph(size.x, viewH, layers, rows);
        vertical_ = fit.vertical;
        zoom_ = fit.zoom;
        // Centred when it fits; else from its start (labels stay at the body size: the rest scrolls).
        panX_ = std::max(G::kPad, (size.x - fit.worldW * zoom_) * 0.5f);
        panY_ = top + std::max(G::kPad, (viewH - fit.worldH * zoom_) * 0.5f);
        fitRequested_ = false;
    }
    // The wheel scrolls the graph (Shift: sideways); Ctrl + wheel, a trackpad's pinch, zooms about
    // the cursor: the world point under it stays put.
    if (hovered && (ImGui::GetIO().MouseWheel != 0 || ImGui::GetIO().MouseWheelH != 0)) {
        const ImGuiIO& io = ImGui::GetIO();
        if (io.KeyCtrl && io.MouseWheel != 0) {
            const ImVec2 m = io.MousePos;
            const float before = zoom_;
            zoom_ = std::clamp(zoom_ * std::pow(1.15f, io.MouseWheel), kZoomMin, kZoomMax);
            panX_ = m.x - origin.x - (m.x - origin.x - panX_) * zoom_ / before;
            panY_ = m.y - origin.y - (m.y - origin.y - panY_) * zoom_ / before;
        } else {
            const float step = ImGui::GetFontSize() * 3;
            if (io.KeyShift) panX_ += io.MouseWheel * step;
            else panY_ += io.MouseWheel * step;
            panX_ += io.MouseWheelH * step;
        }
    }
    auto nodeMin = [&](const LayoutSlot& s) {
        if (vertical_)
            return ImVec2(origin.x + panX_ + s.index * (kNodeW + G::kSiblingGapV) * zoom_,
                          origin.y + panY_ + s.layer * (kNodeH + G::kLayerGapV) * zoom_);
        return ImVec2(origin.x + panX_ + s.layer * (kNodeW + G::kLayerGap) * zoom_,
                      origin.y + panY_ + s.index * (kNodeH + G::kSiblingGap) * zoom_);
    };
    dl->PushClipRect(origin, ImVec2(origin.x + size.x, origin.y + size.y), true);
    if (plan.tasks.empty()) {
        const char* empty = "No plan yet: the graph appears here as the model adds tasks.";
        const ImVec2 t = ImGui::CalcTextSize(empty, nullptr, false, size.x - 20);
        dl->AddText(nullptr, 0, ImVec2(origin.x + (size.x - t.x) * 0.5f, origin.y + (size.y - t.y) * 0.5f),
                    ui::palette().muted, empty, nullptr, size.x - 20);
    }
    // Edges first: from the task's near side to its dependency's far side (left to right: the
    // task's left, the dependency's right; top to bottom: the task's top, the dependency's bottom),
    // the arrow at the dependency.
    const float w = kNodeW * zoom_, h = kNodeH * zoom_;
    for (size_t i = 0; i < plan.tasks.size(); ++i) {
        for (const std::string& dep : plan.tasks[i].dependsOn) {
            const int j = plan.indexOf(dep);
            if (j < 0) continue;
            const PlanEdge edge(plan.tasks[i].id, dep);
            const ImU32 edgeColour = review.addedEdges.count(edge)     ? ui::palette().ok
                                     : review.removedEdges.count(edge) ? ui::palette().danger
                                                                       : ui::palette().muted;
            const ImVec2 a = nodeMin(slots[i]);
            const ImVec2 b = nodeMin(slots[size_t(j)]);
            const float s = 6 * std::max(0.6f, zoom_);
            if (vertical_) {
                const ImVec2 from(a.x + w * 0.5f, a.y);
                const ImVec2 to(b.x + w * 0.5f, b.y + h);
                const float bend = std::max(14.0f, std::fabs(from.y - to.y) * 0.4f);
                dl->AddBezierCubic(from, ImVec2(from.x, from.y - bend), ImVec2(to.x, to.y + bend), to, edgeColour, 1.5f);
                dl->AddTriangleFilled(to, ImVec2(to.x + s * 0.6f, to.y + s), ImVec2(to.x - s * 0.6f, to.y + s), edgeColour);
            } else {
                const ImVec2 from(a.x, a.y + h * 0.5f);
                const ImVec2 to(b.x + w, b.y + h * 0.5f);
                const float bend = std::max(20.0f, std::fabs(from.x - to.x) * 0.4f);
                dl->AddBezierCubic(from, ImVec2(from.x - bend, from.y), ImVec2(to.x + bend, to.y), to, edgeColour, 1.5f);
                dl->AddTriangleFilled(to, ImVec2(to.x + s, to.y - s * 0.6f), ImVec2(to.x + s, to.y + s * 0.6f), edgeColour);
            }
        }
    }
    // Nodes: fill by status, the id in bold, the name below, each cut with "…" to fit the box.
    ImFont* bold = context_.fonts->bold;
    // Never below the body text (zoomed out, a node's label is cut rather than shrunk).
    const float fontSize = ImGui::GetFontSize() * std::clamp(zoom_, 1.0f, 1.4f);
    std::string clicked;
    for (size_t i = 0; i < plan.tasks.size(); ++i) {
        const Task& t = plan.tasks[i];
        const ImVec2 p0 = nodeMin(slots[i]);
        const ImVec2 p1(p0.x + kNodeW * zoom_, p0.y + kNodeH * zoom_);
        const bool selected = t.id == selected_ && editorOpen_;
        const auto mark = review.marks.find(t.id);
        dl->AddRectFilled(p0, p1, statusFill(t.status), 6 * zoom_);
        if (mark != review.marks.end()) {
            // A proposed change: a thick border in its colour, the removed task faded.
            const ImU32 colour = mark->second == TaskChange::Kind::Added     ? ui::palette().ok
                                 : mark->second == TaskChange::Kind::Removed ? ui::palette().danger
                                                                             : ui::palette().warning;
            if (mark->second == TaskChange::Kind::Removed)
                dl->AddRectFilled(p0, p1, IM_COL32(255, 255, 255, 150), 6 * zoom_);
            dl->AddRect(p0, p1, colour, 6 * zoom_, 0, 4.0f);
        } else {
            dl->AddRect(p0, p1, selected ? ui::palette().accent : IM_COL32(60, 60, 70, 160), 6 * zoom_, 0,
                        selected ? 3.0f : 1.0f);
        }
        // Each line cut with "…" where the node is too narrow for it (the tooltip has all of it).
        const float textW = p1.x - p0.x - 10 * zoom_;
        bool cut = false;
        const std::string head = t.id + (t.stage ? "  \xE2\x96\xB6" : "");
        ui::fitText(dl, bold ? bold : ImGui::GetFont(), fontSize, ImVec2(p0.x + 6 * zoom_, p0.y + 4 * zoom_),
                    IM_COL32(20, 20, 30, 255), head, textW, cut);
        std::string line2 = std::string(statusName(t.status)) + " \xC2\xB7 " + t.name;
        if (mark != review.marks.end()) line2 = std::string(changeKindName(mark->second)) + " \xC2\xB7 " + t.name;
        // A stage that finished: who won it, on the node (the editor has the table).
        else if (const auto r = runner_.results().find(t.id);
                 t.stage && t.status == TaskStatus::Done && r != runner_.results().end() && !r->second.ranking.empty())
            line2 = "done \xC2\xB7 1st " + r->second.ranking.front();
        ui::fitText(dl, ImGui::GetFont(), fontSize, ImVec2(p0.x + 6 * zoom_, p0.y + 4 * zoom_ + fontSize),
                    IM_COL32(40, 40, 55, 255), line2, textW, cut);
        ui::markItemRect("planner.node." + t.id, p0.x, p0.y, p1.x - p0.x, p1.y - p0.y);
        const ImVec2 m = ImGui::GetIO().MousePos;
        if (hovered && m.x >= p0.x && m.x <= p1.x && m.y >= p0.y && m.y <= p1.y) {
            ImGui::SetTooltip("%s: %s\n%s%s", t.id.c_str(), t.name.c_str(), std::string(statusName(t.status)).c_str(),
                              t.description.empty() ? "" : ("\n" + t.description).c_str());
        }
        if (clickedHere && m.x >= p0.x && m.x <= p1.x && m.y >= p0.y && m.y <= p1.y) clicked = t.id;
    }
    dl->PopClipRect();
    if (!clicked.empty()) selectNode(clicked);
    // Zoom buttons in the corner.
    const ImVec2 after = ImGui::GetCursorScreenPos();
    ImGui::SetCursorScreenPos(ImVec2(origin.x + 4, origin.y + 4));
    if (chaiba::ui::smallButton("Fit")) fitRequested_ = true;
    ui::markItem("planner.fit");
    // + and − zoom about the view's centre.
    auto zoomBy = [&](float factor) {
        const float before = zoom_;
        zoom_ = std::clamp(zoom_ * factor, kZoomMin, kZoomMax);
        const float cx = size.x * 0.5f, cy = size.y * 0.5f;
        panX_ = cx - (cx - panX_) * zoom_ / before;
        panY_ = cy - (cy - panY_) * zoom_ / before;
    };
    ImGui::SameLine(0, 2);
    if (chaiba::ui::smallButton("+")) zoomBy(1.25f);
    ui::markItem("planner.zoomIn");
    ImGui::SameLine(0, 2);
    if (chaiba::ui::smallButton("\xE2\x88\x92")) zoomBy(1 / 1.25f);
    ui::markItem("planner.zoomOut");
    ImGui::SetCursorScreenPos(after);
}

void PlanPanel::drawEditor() {
    if (!editorOpen_ || !chat_) return;
    const Task* task = addingTask_ ? nullptr : chat_->plan().find(selected_);
    if (!task && !addingTask_) {
        editorOpen_ = false;
        return;
    }
    const ui::Fonts& fonts = *context_.fonts;
    const ui::Palette& pal = ui::palette();
    if (addingTask_) {
        ui::placeDialog(fonts.uiSize, 26, 20, 5);
        if (ImGui::Begin("New task###planNewTask", &editorOpen_, ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoCollapse)) {
            ui::markWindow("planner.editor");
            ImGui::BeginDisabled(chat_->busy() || runner_.running() || chat_->pendingReview().has_value());
            drawTaskText("");
            ImGui::EndDisabled();
            drawEditError();
        }
        ImGui::End();
        return;
    }
    // At most the page's width (a phone), at most its height below the header.
    ui::placeDialog(fonts.uiSize, 28, 42, 5);
    const std::string title = "Task " + task->id + "###planTaskEditor";
    if (!ImGui::Begin(title.c_str(), &editorOpen_, ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoCollapse)) {
        ImGui::End();
        return;
    }
    ui::markWindow("planner.editor");
    const std::string id = task->id;
    const bool busy = chat_->busy() || runner_.running() || chat_->pendingReview().has_value();
    if (busy) {
        ImGui::PushStyleColor(ImGuiCol_Text, pal.warning);
        ImGui::TextWrapped("%s", chat_->pendingReview() ? "The model's proposed change waits for review: accept or reject it first."
                                                        : "The model or a plan run is changing the plan: edits wait until it ends.");
        ImGui::PopStyleColor();
    }
    ImGui::BeginDisabled(busy);
    ImGui::TextUnformatted("Name");
    ImGui::SetNextItemWidth(-1);
    ImGui::InputText("##editName", editName_, sizeof editName_);
    ui::markItem("planner.edit.name");
    ImGui::TextUnformatted("Description");
    ImGui::InputTextMultiline("##editDescription", editDescription_, sizeof editDescription_,
                              ImVec2(-1, fonts.uiSize * 4));
    ui::markItem("planner.edit.description");
    // Each edit is applied after this frame (editAfterFrame): it replaces the plan that `task` and
    // `ctx` point into, and the window goes on drawing them.
    if (ImGui::Button("Save name and description")) {
        TaskUpdate update;
        update.name = std::string(editName_);
        update.description = std::string(editDescription_);
        editAfterFrame([id, update](const PlanGraph& plan, const PlanContext& c) { return updateTask(plan, id, update, c); },
                       "edited task '" + id + "'");
    }
    ui::markItem("planner.edit.save");
    ImGui::Separator();
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("Status");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(fonts.uiSize * 8);
    ImGui::Combo("##editStatus", &editStatus_, kStatusNames, IM_ARRAYSIZE(kStatusNames));
    ui::markItem("planner.edit.status");
    ImGui::SameLine();
    if (ImGui::Button("Set status")) {
        const TaskStatus status = TaskStatus(editStatus_);
        editAfterFrame([id, status](const PlanGraph& plan, const PlanContext& c) { return setStatus(plan, id, status, c); },
                       "set the status of '" + id + "' to " + kStatusNames[editStatus_]);
    }
    ImGui::Separator();
    ImGui::TextUnformatted("Depends on");
    for (const std::string& dep : task->dependsOn) {
        ImGui::PushID(dep.c_str());
        ImGui::BulletText("%s", dep.c_str());
        ImGui::SameLine();
        if (chaiba::ui::smallButton("remove")) {
            editAfterFrame([id, dep](const PlanGraph& plan, const PlanContext& c) { return removeDependency(plan, id, dep, c); },
                           "removed the dependency " + id + " \xE2\x86\x92 " + dep);
            ImGui::PopID();
            break;
        }
        ImGui::PopID();
    }
    ImGui::SetNextItemWidth(fonts.uiSize * 10);
    ImGui::InputTextWithHint("##editDep", "task id", editDependency_, sizeof editDependency_);
    ui::markItem("planner.edit.dependency");
    ImGui::SameLine();
    if (ImGui::Button("Add dependency")) {
        const std::string dep = editDependency_;
        editAfterFrame([id, dep](const PlanGraph& plan, const PlanContext& c) { return addDependency(plan, id, dep, c); },
                       "added the dependency " + id + " \xE2\x86\x92 " + dep);
    }
    if (task->stage) {
        ImGui::Separator();
        std::string players;
        for (const Entrant& e : task->stage->entrants) players += (players.empty() ? "" : ", ") + e.text();
        const Stage& st = *task->stage;
        std::string extra = ", budget " + numberText(st.budgetUsd) + " USD";
        if (st.game == GameKind::Werewolf)
            extra += ", " + std::string(werewolf::rulesPresetName(st.rules)) + " rules" +
                     (st.roles.empty() ? ", the default deal" : ", roles " + st.roles);
        ImGui::TextWrapped("Stage: %s %s, %d game%s%s; %s", std::string(gameName(st.game)).c_str(),
                           std::string(stageFormatName(st.format)).c_str(), st.games, st.games == 1 ? "" : "s",
                           extra.c_str(), players.c_str());
        ui::markItem("planner.edit.stage");
    }
    drawStageResult(id);
    ImGui::Separator();
    drawTaskText(id);
    if (!task->decisions.empty()) {
        ImGui::Separator();
        ImGui::TextUnformatted("Decisions");
        for (const std::string& d : task->decisions) ImGui::BulletText("%s", d.c_str());
    }
    ImGui::Separator();
    ImGui::BeginDisabled(chat_->plan().root().id == id);
    if (ImGui::Button("Remove task"))
        editAfterFrame([id](const PlanGraph& plan, const PlanContext& c) { return removeTask(plan, id, c); },
                       "removed task '" + id + "'");
    ImGui::EndDisabled();
    ImGui::EndDisabled();
    drawEditError();
    ImGui::End();
}

void PlanPanel::drawEditError() {
    if (editError_.empty()) return;
    ImGui::PushStyleColor(ImGuiCol_Text, ui::palette().danger);
    ImGui::TextWrapped("Refused: %s", editError_.c_str());
    ImGui::PopStyleColor();
    ui::markItem("planner.edit.error");
}

} // namespace chaiba::planner
