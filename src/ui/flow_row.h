// A row of buttons that wraps onto the next line when the window is too narrow (phones), instead
// of running off the edge: call place(label) before each button.
#pragma once

#include <imgui.h>

namespace chaiba::ui {

struct FlowRow {
    bool first = true;
    bool small = false;  // SmallButton sizing

    // Positions the cursor for a button with this label (same line if it fits, else a new line).
    void place(const char* label, float extraWidth = 0.0f) {
        const ImGuiStyle& style = ImGui::GetStyle();
        const float w = ImGui::CalcTextSize(label, nullptr, true).x + style.FramePadding.x * 2 + extraWidth;
        if (!first) {
            ImGui::SameLine();
            const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
            if (ImGui::GetCursorScreenPos().x + w > right) ImGui::NewLine();
        }
        first = false;
    }
};

} // namespace chaiba::ui
