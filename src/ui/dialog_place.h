// Dialog windows on any page. Where one appears: centred, `topEms` below the top of the page, `widthEms` by
// `heightEms` but never larger than the page (a phone): its rows wrap or it scrolls instead of
// running off the screen. The size is kept no larger than the page after it appears too (a phone
// turned, a window made smaller).
#pragma once

#include <imgui.h>

#include <algorithm>

namespace chaiba::ui {

inline void placeDialog(float uiSize, float widthEms, float heightEms, float topEms) {
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    const ImVec2 most(std::max(uiSize * 10, vp->WorkSize.x - uiSize),
                      std::max(uiSize * 10, vp->WorkSize.y - uiSize * (topEms + 1)));
    ImGui::SetNextWindowSize(ImVec2(std::min(uiSize * widthEms, most.x), std::min(uiSize * heightEms, most.y)),
                             ImGuiCond_Appearing);
    ImGui::SetNextWindowSizeConstraints(ImVec2(0, 0), most);
    ImGui::SetNextWindowPos(ImVec2(vp->WorkPos.x + vp->WorkSize.x * 0.5f, vp->WorkPos.y + uiSize * topEms),
                            ImGuiCond_Appearing, ImVec2(0.5f, 0));
}

// Whether Esc closes the dialog whose Begin() just ran: not while a field is being edited (Esc
// leaves the field), nor while a dropdown is open or was open last frame (keyboard navigation
// closes it before this frame: pass that frame's IsPopupOpen), nor when another window has focus.
inline bool escapeClosesDialog(bool popupWasOpen = false) {
    return ImGui::IsWindowFocused(ImGuiFocusedFlags_RootAndChildWindows) &&
           ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape), false) && !ImGui::IsAnyItemActive() &&
           !popupWasOpen && !ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId);
}

} // namespace chaiba::ui
