// A row of buttons that wraps onto the next line when the window is too narrow (phones), instead
// of running off the edge: call place(label) before each button.
#pragma once

#include <imgui.h>

namespace chaiba::ui {

struct FlowRow {
    bool first = true;
    bool small = false;  // SmallButton sizing
    float indent = 0.0f; // where a wrapped line starts (window coordinates; 0: the window's padding)

    // Positions the cursor for a button with this label (same line if it fits, else a new line).
    void place(const char* label, float extraWidth = 0.0f) {
        const ImGuiStyle& style = ImGui::GetStyle();
        placeWidth(ImGui::CalcTextSize(label, nullptr, true).x + style.FramePadding.x * 2 + extraWidth);
    }
    // For a radio button or a checkbox with this label (the box, then the label).
    void placeToggle(const char* label) {
        placeWidth(ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(label, nullptr, true).x);
    }
    // The same for an item `w` pixels wide (a combo or an input of a set width).
    void placeWidth(float w) {
        if (!first) {
            ImGui::SameLine();
            const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
            if (ImGui::GetCursorScreenPos().x + w > right) {
                ImGui::NewLine();
                if (indent > 0.0f) ImGui::SetCursorPosX(indent);
            }
        }
        first = false;
    }
};

} // namespace chaiba::ui
