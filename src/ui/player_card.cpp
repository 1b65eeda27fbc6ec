// Player card: a bordered child region, two lines of text and a status line.
#include "src/ui/player_card.h"

#include "src/ui/format.h"
#include "src/ui/fonts.h"
#include "src/ui/item_registry.h"
#include "src/ui/text_fit.h"
#include "src/ui/theme.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>

namespace chaiba::ui {

CardAction drawPlayerCard(const Fonts& fonts, const PlayerCardModel& m, float width, const char* id) {
    const Palette& pal = palette();
    CardAction action = CardAction::None;
    const float lineH = ImGui::GetTextLineHeightWithSpacing();
    const float buttonsExtra = m.isLlm ? std::max(0.0f, smallButtonHeight() - ImGui::GetTextLineHeight()) : 0.0f;
    const float height =
        lineH * 3.0f + buttonsExtra + ImGui::GetStyle().WindowPadding.y * 2 + ImGui::GetStyle().ItemSpacing.y;
    ImGui::PushStyleVar(ImGuiStyleVar_ChildBorderSize, ImGui::GetStyle().ChildBorderSize * (m.toMove ? 1.6f : 0.6f));
    ImGui::BeginChild(id, ImVec2(width, height), true, ImGuiWindowFlags_NoScrollbar);
    ImGui::PopStyleVar();
    markWindow(std::string(id));
    // Line 1: the colour disc, the name.
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float r = fonts.uiSize * 0.38f;
    const ImVec2 c(p.x + r, p.y + ImGui::GetTextLineHeight() * 0.5f);
    dl->AddCircleFilled(c, r, m.white ? IM_COL32(255, 255, 255, 255) : IM_COL32(0, 0, 0, 255), 20);
    dl->AddCircle(c, r, pal.panelBorder, 20, std::max(1.0f, fonts.uiSize / 12.0f));
    ImGui::Dummy(ImVec2(r * 2, ImGui::GetTextLineHeight()));
    ImGui::SameLine();
    ImGui::PushFont(fonts.bold);
    ImGui::TextUnformatted(m.name.c_str());
    ImGui::PopFont();
    // Line 2: what it is (an LLM: cost and tokens so far), and its buttons at the right.
    ImGui::PushStyleColor(ImGuiCol_Text, pal.muted);
    if (m.isLlm) {
        ImGui::Text("%s \xC2\xB7 %s tokens", formatCost(m.costUsd).c_str(),
                    formatTokens(static_cast<uint64_t>(m.tokens)).c_str());
    } else {
        ImGui::TextUnformatted(m.detail.c_str());
    }
    ImGui::PopStyleColor();
    if (m.isLlm) {
        const ImGuiStyle& style = ImGui::GetStyle();
        const float buttons = ImGui::CalcTextSize("Prompt").x + ImGui::CalcTextSize("Log").x +
                              style.FramePadding.x * 4 + style.ItemSpacing.x;
        const float x = ImGui::GetWindowContentRegionMax().x - buttons;
        ImGui::SameLine();
        if (x > ImGui::GetCursorPosX()) ImGui::SetCursorPosX(x);
        else ImGui::NewLine();
        if (chaiba::ui::smallButton("Prompt")) action = CardAction::EditInstructions;
        markItem(std::string(id) + ".prompt");
        ImGui::SameLine();
        if (chaiba::ui::smallButton("Log")) action = CardAction::ShowDebug;
        markItem(std::string(id) + ".log");
    }
    // Line 3: status.
    if (m.thinking && !m.retryWait.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, pal.warning);
        const ImVec2 at = ImGui::GetCursorScreenPos();
        bool truncated = false;
        const float w = fitText(ImGui::GetWindowDrawList(), ImGui::GetFont(), ImGui::GetFontSize(), at, pal.warning,
                                m.retryWait, ImGui::GetContentRegionAvail().x, truncated);
        ImGui::Dummy(ImVec2(std::max(1.0f, w), ImGui::GetTextLineHeight()));
        ImGui::PopStyleColor();
        markItem(std::string(id) + ".retryWait");
        if (truncated && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", m.retryWait.c_str());
    } else if (m.thinking) {
        const char* dots[] = {"   ", ".  ", ".. ", "..."};
        const int phase = static_cast<int>(std::fmod(m.thinkingMs / 350.0, 4.0));
        if (m.isLlm && m.attempt > 1)
            ImGui::Text("thinking%s %s \xC2\xB7 retry %d of %d", dots[phase], formatElapsed(m.thinkingMs).c_str(),
                        m.attempt - 1, m.maxAttempts - 1);
        else ImGui::Text("thinking%s %s", dots[phase], formatElapsed(m.thinkingMs).c_str());
    } else {
        // One line, cut with "…" to the card's width (the whole text on hover), never clipped.
        const ImU32 colour = m.error ? pal.danger : m.toMove ? pal.accent : pal.muted;
        const ImVec2 at = ImGui::GetCursorScreenPos();
        const float room = ImGui::GetContentRegionAvail().x;
        bool truncated = false;
        const float w = fitText(ImGui::GetWindowDrawList(), ImGui::GetFont(), ImGui::GetFontSize(), at, colour,
                                m.status, room, truncated);
        ImGui::Dummy(ImVec2(std::max(1.0f, w), ImGui::GetTextLineHeight()));
        markItem(std::string(id) + ".status");
        if (truncated && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", m.status.c_str());
    }
    ImGui::EndChild();
    return action;
}

} // namespace chaiba::ui
