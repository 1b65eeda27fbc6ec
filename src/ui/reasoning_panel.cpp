// Reasoning panel: wrapped text blocks in a scrolling child; sticks to the bottom while the user
// has not scrolled up (the ExampleAppConsole idiom).
#include "src/ui/reasoning_panel.h"

#include "src/ui/fonts.h"
#include "src/ui/item_registry.h"
#include "src/ui/text_fit.h"
#include "src/ui/theme.h"

#include <imgui.h>

namespace chaiba::ui {

namespace {

void wrapped(const std::string& text, ImU32 colour) {
    ImGui::PushStyleColor(ImGuiCol_Text, colour);
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(text.c_str(), text.c_str() + text.size());
    ImGui::PopTextWrapPos();
    ImGui::PopStyleColor();
}

} // namespace

void drawReasoningPanel(const Fonts& fonts, const ReasoningPanelModel& m, float width, float height, const char* id,
                        int viewedPly) {
    const Palette& pal = palette();
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
    ImGui::BeginChild(id, ImVec2(width, height), true);
    markWindow(id);
    ImGui::PushFont(fonts.bold);
    {
        // A long title ("White · Engine · level 7 · ≈2100" in a narrow column) is cut with "…",
        // and the whole of it shows on hover.
        const float avail = ImGui::GetContentRegionAvail().x;
        bool cut = false;
        fitText(ImGui::GetWindowDrawList(), ImGui::GetFont(), ImGui::GetFontSize(), ImGui::GetCursorScreenPos(), text,
                m.title, avail, cut);
        ImGui::Dummy(ImVec2(avail, ImGui::GetTextLineHeight()));
        if (cut && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", m.title.c_str());
    }
    ImGui::PopFont();
    ImGui::Separator();
    ImGui::BeginChild("##scroll", ImVec2(0, 0), false);
    if (m.entries.empty() && !m.thinking && m.closing.empty()) wrapped(m.emptyText, pal.muted);
    for (const ReasoningEntry& e : m.entries) {
        ImGui::PushID(e.ply);
        const bool viewed = e.ply == viewedPly;
        if (viewed) {
            const ImVec2 a = ImGui::GetCursorScreenPos();
            ImGui::GetWindowDrawList()->AddRectFilled(
                a, ImVec2(a.x + ImGui::GetContentRegionAvail().x, a.y + ImGui::GetTextLineHeight()), pal.lastMove);
        }
        ImGui::PushFont(fonts.bold);
        ImGui::TextUnformatted(e.label.c_str());
        ImGui::PopFont();
        for (size_t i = 0; i < e.failed.size(); ++i) {
            const FailedAttempt& f = e.failed[i];
            wrapped("\xE2\x9C\x97 attempt " + std::to_string(i + 1) + ": " + (f.answer.empty() ? "(no move)" : f.answer),
                    pal.danger);
            if (!f.feedback.empty()) wrapped("  \xE2\x86\x92 " + f.feedback, pal.muted);
        }
        if (!e.modelReasoning.empty()) {
            if (ImGui::TreeNodeEx("model reasoning", ImGuiTreeNodeFlags_SpanAvailWidth)) {
                ImGui::PushFont(fonts.mono);
                wrapped(e.modelReasoning, pal.muted);
                ImGui::PopFont();
                ImGui::TreePop();
            }
        }
        if (!e.reasoning.empty()) wrapped(e.reasoning, text);
        ImGui::Spacing();
        ImGui::PopID();
    }
    if (m.thinking) {
        ImGui::PushFont(fonts.bold);
        ImGui::TextUnformatted("thinking\xE2\x80\xA6");
        ImGui::PopFont();
        if (!m.liveReasoning.empty()) {
            ImGui::PushFont(fonts.mono);
            wrapped(m.liveReasoning, pal.muted);
            ImGui::PopFont();
        }
        if (!m.liveText.empty()) wrapped(m.liveText, text);
    }
    if (!m.closing.empty()) wrapped(m.closing, pal.danger);
    // Stick to the bottom unless the user scrolled up to read.
    if (ImGui::GetScrollY() >= ImGui::GetScrollMaxY() - ImGui::GetTextLineHeight() * 2) ImGui::SetScrollHereY(1.0f);
    ImGui::EndChild();
    ImGui::EndChild();
}

} // namespace chaiba::ui
