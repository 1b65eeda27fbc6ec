// The Story column's dice: a twist of fate drawn as a band bar (each band its share of 1-100, the
// band rolled filled, a marker at the roll), then each band's outcome with the one rolled in bold.
#include "src/modes/story/ui/markdown_view.h"
#include "src/modes/story/ui/story_screen.h"

#include "src/ui/fonts.h"
#include "src/ui/format.h"
#include "src/ui/item_registry.h"
#include "src/ui/theme.h"

#include <imgui.h>

#include <string>

namespace chaiba::story {

void StoryScreen::drawDice(const TwistOfFate& twist, float width) {
    const ui::Fonts& fonts = *context_.fonts;
    const ui::Palette& colors = ui::palette();
    ImGui::Dummy(ImVec2(width, fonts.uiSize * 0.2f));
    const std::string title = "Twist of fate: rolled " + std::to_string(twist.roll) + " on 1–100";
    if (fonts.bold) ImGui::PushFont(fonts.bold);
    ImGui::TextUnformatted(title.c_str());
    if (fonts.bold) ImGui::PopFont();
    ImDrawList* list = ImGui::GetWindowDrawList();
    const ImVec2 at = ImGui::GetCursorScreenPos();
    const float barHeight = fonts.uiSize * 1.1f;
    const float span = width - 2;
    for (std::size_t i = 0; i < twist.bands.size(); ++i) {
        const StakeBand& band = twist.bands[i];
        const float x0 = at.x + span * static_cast<float>(band.low - 1) / 100.0f;
        const float x1 = at.x + span * static_cast<float>(band.high) / 100.0f;
        const bool hit = i == twist.hitIndex;
        list->AddRectFilled(ImVec2(x0, at.y), ImVec2(x1, at.y + barHeight),
                            hit ? colors.accent
                                : (i % 2 ? colors.muted : ImGui::GetColorU32(ImGuiCol_FrameBgHovered)));
        list->AddRect(ImVec2(x0, at.y), ImVec2(x1, at.y + barHeight), ImGui::GetColorU32(ImGuiCol_Border));
        const std::string range = std::to_string(band.low) + "–" + std::to_string(band.high);
        const ImVec2 size = ImGui::CalcTextSize(range.c_str());
        if (size.x < x1 - x0 - 4)
            list->AddText(ImVec2(x0 + 4, at.y + (barHeight - size.y) / 2),
                          hit ? IM_COL32_WHITE : ImGui::GetColorU32(ImGuiCol_Text), range.c_str());
    }
    const float rollX = at.x + span * (static_cast<float>(twist.roll) - 0.5f) / 100.0f;
    list->AddTriangleFilled(ImVec2(rollX - 6, at.y + barHeight + 9), ImVec2(rollX + 6, at.y + barHeight + 9),
                            ImVec2(rollX, at.y + barHeight + 1), colors.danger);
    list->AddLine(ImVec2(rollX, at.y - 2), ImVec2(rollX, at.y + barHeight + 2), colors.danger, 2.0f);
    ImGui::Dummy(ImVec2(width, barHeight + 12));
    ui::markItem("story.dice");
    for (std::size_t i = 0; i < twist.bands.size(); ++i) {
        const StakeBand& band = twist.bands[i];
        const bool hit = i == twist.hitIndex;
        const std::string line = std::to_string(band.low) + "–" + std::to_string(band.high) + " (" +
                                 std::to_string(band.width()) + "%): " + band.outcome +
                                 (hit ? "  ◄ rolled " + std::to_string(twist.roll) : "");
        ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width);
        if (hit) {
            if (fonts.bold) ImGui::PushFont(fonts.bold);
            ImGui::TextUnformatted(line.c_str());
            if (fonts.bold) ImGui::PopFont();
        } else {
            ui::mutedText(line);
        }
        ImGui::PopTextWrapPos();
    }
    ImGui::Dummy(ImVec2(width, fonts.uiSize * 0.4f));
}

} // namespace chaiba::story
