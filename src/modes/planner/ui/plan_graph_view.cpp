// The plan's graph: tasks as nodes coloured by status on the layered layout (plan_layout), layers
// left to right or, in a tall narrow view, top to bottom; an arrow from each task to what it
// depends on, pan (drag) and zoom (wheel, buttons), and a click that opens the task's editor,
// which changes the plan through the same validated mutations the model's tools use and shows
// their refusals.
#include "src/modes/planner/ui/plan_panel.h"

#include "src/modes/planner/plan_layout.h"
#include "src/ui/fonts.h"
#include "src/ui/item_registry.h"
#include "src/ui/theme.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace chaiba::planner {

namespace {

using G = GraphGeometry;
constexpr float kNodeW = G::kNodeW, kNodeH = G::kNodeH;

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
    editError_.clear();
    copyText(editName_, sizeof editName_, task->name);
    copyText(editDescription_, sizeof editDescription_, task->description);
    editDependency_[0] = '\0';
    editStatus_ = int(task->status);
    changed();
}

void PlanPanel::drawGraph(float height) {
    const PlanGraph& plan = chat_->plan();
    const ImGuiStyle& style = ImGui::GetStyle();
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const ImVec2 size(ImGui::GetContentRegionAvail().x, height);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->AddRectFilled(origin, ImVec2(origin.x + size.x, origin.y + size.y), ImGui::GetColorU32(ImGuiCol_FrameBg),
                      style.FrameRounding);
    // A click (released without dragging) selects the node under the mouse; a drag pans.
    const bool released = ImGui::InvisibleButton("##planGraph", size);
    const float threshold = ImGui::GetIO().MouseDragThreshold;
    const bool clickedHere =
        released && ImGui::GetIO().MouseDragMaxDistanceSqr[ImGuiMouseButton_Left] < threshold * threshold;
    ui::markItem("planner.graph");
    const bool hovered = ImGui::IsItemHovered();
    if (ImGui::IsItemActive() && ImGui::IsMouseDragging(ImGuiMouseButton_Left, 2.0f)) {
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
        panX_ = (size.x - fit.worldW * zoom_) * 0.5f;
        panY_ = top + (viewH - fit.worldH * zoom_) * 0.5f;
        fitRequested_ = false;
    }
    if (hovered && ImGui::GetIO().MouseWheel != 0) {
        // Zoom about the cursor: the world point under it stays put.
        const ImVec2 m = ImGui::GetIO().MousePos;
        const float before = zoom_;
        zoom_ = std::clamp(zoom_ * std::pow(1.15f, ImGui::GetIO().MouseWheel), 0.25f, 3.0f);
        panX_ = m.x - origin.x - (m.x - origin.x - panX_) * zoom_ / before;
        panY_ = m.y - origin.y - (m.y - origin.y - panY_) * zoom_ / before;
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
    const ImU32 edgeColour = ui::palette().muted;
    const float w = kNodeW * zoom_, h = kNodeH * zoom_;
    for (size_t i = 0; i < plan.tasks.size(); ++i) {
        for (const std::string& dep : plan.tasks[i].dependsOn) {
            const int j = plan.indexOf(dep);
            if (j < 0) continue;
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
    // Nodes: fill by status, the id in bold, the name below, clipped to the box.
    ImFont* bold = context_.fonts->bold;
    const float fontSize = ImGui::GetFontSize() * std::clamp(zoom_, 0.5f, 1.4f);
    std::string clicked;
    for (size_t i = 0; i < plan.tasks.size(); ++i) {
        const Task& t = plan.tasks[i];
        const ImVec2 p0 = nodeMin(slots[i]);
        const ImVec2 p1(p0.x + kNodeW * zoom_, p0.y + kNodeH * zoom_);
        const bool selected = t.id == selected_ && editorOpen_;
        dl->AddRectFilled(p0, p1, statusFill(t.status), 6 * zoom_);
        dl->AddRect(p0, p1, selected ? ui::palette().accent : IM_COL32(60, 60, 70, 160), 6 * zoom_, 0,
                    selected ? 3.0f : 1.0f);
        const ImVec4 clip(p0.x + 4, p0.y, p1.x - 4, p1.y);
        const std::string head = t.id + (t.stage ? "  \xE2\x96\xB6" : "");
        dl->AddText(bold, fontSize, ImVec2(p0.x + 6 * zoom_, p0.y + 4 * zoom_), IM_COL32(20, 20, 30, 255),
                    head.c_str(), nullptr, 0, &clip);
        const std::string line2 = std::string(statusName(t.status)) + " \xC2\xB7 " + t.name;
        dl->AddText(nullptr, fontSize * 0.85f, ImVec2(p0.x + 6 * zoom_, p0.y + 6 * zoom_ + fontSize),
                    IM_COL32(40, 40, 55, 255), line2.c_str(), nullptr, 0, &clip);
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
    ImGui::SameLine(0, 2);
    if (chaiba::ui::smallButton("+")) zoom_ = std::min(3.0f, zoom_ * 1.25f);
    ImGui::SameLine(0, 2);
    if (chaiba::ui::smallButton("-")) zoom_ = std::max(0.25f, zoom_ / 1.25f);
    ImGui::SetCursorScreenPos(after);
}

void PlanPanel::drawEditor() {
    if (!editorOpen_ || !chat_) return;
    const Task* task = chat_->plan().find(selected_);
    if (!task) {
        editorOpen_ = false;
        return;
    }
    const ui::Fonts& fonts = *context_.fonts;
    const ui::Palette& pal = ui::palette();
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    // At most the page's width (a phone), at most its height below the header.
    ImGui::SetNextWindowSize(ImVec2(std::min(fonts.uiSize * 26, vp->WorkSize.x - fonts.uiSize),
                                    std::min(fonts.uiSize * 31, vp->WorkSize.y - fonts.uiSize * 6)),
                             ImGuiCond_Appearing);
    ImGui::SetNextWindowPos(ImVec2(vp->WorkPos.x + vp->WorkSize.x * 0.5f, vp->WorkPos.y + fonts.uiSize * 5),
                            ImGuiCond_Appearing, ImVec2(0.5f, 0));
    const std::string title = "Task " + task->id + "###planTaskEditor";
    if (!ImGui::Begin(title.c_str(), &editorOpen_, ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoCollapse)) {
        ImGui::End();
        return;
    }
    ui::markWindow("planner.editor");
    const std::string id = task->id;
    const bool busy = chat_->busy() || runner_.running();
    if (busy) {
        ImGui::PushStyleColor(ImGuiCol_Text, pal.warning);
        ImGui::TextWrapped("The model or a plan run is changing the plan: edits wait until it ends.");
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
            extra += std::string(st.plainRules ? ", plain rules" : ", balanced rules") +
                     (st.roles.empty() ? ", the default deal" : ", roles " + st.roles);
        ImGui::TextWrapped("Stage: %s %s, %d game%s%s; %s", std::string(gameName(st.game)).c_str(),
                           std::string(stageFormatName(st.format)).c_str(), st.games, st.games == 1 ? "" : "s",
                           extra.c_str(), players.c_str());
        ui::markItem("planner.edit.stage");
    }
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
    if (!editError_.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, pal.danger);
        ImGui::TextWrapped("Refused: %s", editError_.c_str());
        ImGui::PopStyleColor();
        ui::markItem("planner.edit.error");
    }
    ImGui::End();
}

} // namespace chaiba::planner
