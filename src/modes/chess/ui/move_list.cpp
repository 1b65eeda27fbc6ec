// Move list: a table (number, White, Black) with clickable SAN cells.
#include "src/modes/chess/ui/move_list.h"

#include "src/modes/chess/ui/eval_graph.h"

#include "src/ui/fonts.h"
#include "src/ui/item_registry.h"
#include "src/ui/theme.h"

#include <imgui.h>

#include <cstdio>

namespace chaiba::ui {

void drawMoveList(const Fonts& fonts, const MoveListModel& m, MoveNavigator& nav, float height) {
    const Palette& pal = palette();
    nav.setPlyCount(static_cast<int>(m.sans.size()));
    // Navigation row.
    if (ImGui::Button("|<")) nav.toStart();
    markItem("moves.start");
    ImGui::SameLine();
    if (ImGui::Button("<")) nav.stepBack();
    markItem("moves.back");
    ImGui::SameLine();
    if (ImGui::Button(">")) nav.stepForward();
    markItem("moves.forward");
    ImGui::SameLine();
    ImGui::BeginDisabled(nav.isLive());
    if (ImGui::Button(nav.isLive() ? "Live" : "Live >>|")) nav.goLive();
    markItem("moves.live");
    ImGui::EndDisabled();
    char where[64];
    if (nav.isLive()) std::snprintf(where, sizeof where, "%s", m.sans.empty() ? "no moves yet" : "newest move");
    else {
        // Counted in moves as chess players count them ("move 3… of 7": Black's third), not plies.
        const int lead = m.startBlack ? 1 : 0, last = nav.plyCount() - 1 + lead, shown = nav.viewPly() - 1 + lead;
        if (nav.viewPly() == 0)
            std::snprintf(where, sizeof where, "start \xC2\xB7 %d moves", m.startFullmove + last / 2);
        else
            std::snprintf(where, sizeof where, "move %d%s of %d", m.startFullmove + shown / 2,
                          shown % 2 ? "\xE2\x80\xA6" : "", m.startFullmove + last / 2);
    }
    ImGui::SameLine();
    if (ImGui::GetContentRegionAvail().x > ImGui::CalcTextSize(where).x) {
        ImGui::PushStyleColor(ImGuiCol_Text, pal.muted);
        ImGui::TextUnformatted(where);
        ImGui::PopStyleColor();
    } else {
        ImGui::NewLine();
    }

    ImGui::PushFont(fonts.mono);
    const ImGuiTableFlags flags = ImGuiTableFlags_ScrollY | ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersOuter;
    if (ImGui::BeginTable("##moves", 3, flags, ImVec2(0, height))) {
        ImGui::TableSetupScrollFreeze(0, 0);
        ImGui::TableSetupColumn("#", ImGuiTableColumnFlags_WidthFixed, fonts.uiSize * 3.2f);
        ImGui::TableSetupColumn("White", ImGuiTableColumnFlags_WidthStretch);
        ImGui::TableSetupColumn("Black", ImGuiTableColumnFlags_WidthStretch);
        const int first = m.startBlack ? 1 : 0;  // a list starting with Black's move has an empty cell
        const int cells = static_cast<int>(m.sans.size()) + first;
        const int viewed = nav.viewPly() - 1;  // the ply whose position is shown
        static int lastScrolled = -1;
        for (int row = 0; row * 2 < cells; ++row) {
            ImGui::TableNextRow();
            ImGui::TableSetColumnIndex(0);
            ImGui::PushStyleColor(ImGuiCol_Text, pal.muted);
            ImGui::Text("%d.", m.startFullmove + row);
            ImGui::PopStyleColor();
            for (int col = 0; col < 2; ++col) {
                const int ply = row * 2 + col - first;
                ImGui::TableSetColumnIndex(col + 1);
                if (ply < 0 || ply >= static_cast<int>(m.sans.size())) continue;
                ImGui::PushID(ply);
                const auto judged = static_cast<size_t>(ply) < m.marks.size() ? m.marks[static_cast<size_t>(ply)]
                                                                              : search::MoveJudgement::Good;
                const bool marked = judged != search::MoveJudgement::Good;
                const std::string label = m.sans[static_cast<size_t>(ply)] + search::judgementSymbol(judged);
                if (marked) ImGui::PushStyleColor(ImGuiCol_Text, judgementColor(judged));
                if (ImGui::Selectable(label.c_str(), ply == viewed)) nav.select(ply + 1);
                if (marked) ImGui::PopStyleColor();
                markItem("moves.ply" + std::to_string(ply + 1));
                if (marked) markItem(std::string("moves.mark.") + search::judgementName(judged) + "." + std::to_string(ply + 1));
                if (ply == viewed && lastScrolled != viewed) {
                    ImGui::SetScrollHereY(0.5f);
                    lastScrolled = viewed;
                }
                ImGui::PopID();
            }
        }
        if (!m.result.empty()) {
            ImGui::TableNextRow();
            ImGui::TableSetColumnIndex(1);
            ImGui::PushFont(fonts.bold);
            ImGui::TextUnformatted(m.result.c_str());
            ImGui::PopFont();
        }
        ImGui::EndTable();
        markItem("moves.table"); // the table's outer rectangle (an item once the table ends)
    }
    ImGui::PopFont();
    // Keys after the list: a click on a move and an arrow key in the same frame (a quick press
    // right after the click) step from the clicked move, not from the one shown before it.
    const ImGuiIO& io = ImGui::GetIO();
    if (!io.WantTextInput && !ImGui::IsPopupOpen(nullptr, ImGuiPopupFlags_AnyPopupId)) {
        if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_LeftArrow))) nav.stepBack();
        if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_RightArrow))) nav.stepForward();
        if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Home))) nav.toStart();
        if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_End))) nav.goLive();
    }

}

} // namespace chaiba::ui
