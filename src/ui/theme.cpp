// Theme: ImGui style colours and sizes, and the board palette.
#include "src/ui/theme.h"

#include "src/ui/fonts.h"

#include <cmath>

namespace chaiba::ui {

namespace {
Palette gPalette;

ImVec4 rgb(int r, int g, int b, float a = 1.0f) { return ImVec4(r / 255.0f, g / 255.0f, b / 255.0f, a); }
} // namespace

const Palette& palette() { return gPalette; }

void applyTheme(Theme theme, float pixelRatio) {
    ImGuiStyle style;  // fresh defaults, then ours, then scaled
    style.WindowRounding = style.ChildRounding = style.FrameRounding = style.PopupRounding = 0.0f;
    style.ScrollbarRounding = style.GrabRounding = style.TabRounding = 0.0f;
    style.WindowBorderSize = 2.0f;
    style.ChildBorderSize = 2.0f;
    style.PopupBorderSize = 2.0f;
    style.FrameBorderSize = 2.0f;
    style.WindowPadding = ImVec2(14, 12);
    style.FramePadding = ImVec2(10, 6);
    style.ItemSpacing = ImVec2(10, 8);
    style.ItemInnerSpacing = ImVec2(8, 6);
    style.ScrollbarSize = 14.0f;
    style.GrabMinSize = 12.0f;
    style.WindowTitleAlign = ImVec2(0.0f, 0.5f);
    ImVec4* c = style.Colors;
    const bool light = theme == Theme::Light;
    const ImVec4 bg = light ? rgb(255, 255, 255) : rgb(22, 22, 24);
    const ImVec4 fg = light ? rgb(0, 0, 0) : rgb(236, 236, 236);
    const ImVec4 border = light ? rgb(0, 0, 0) : rgb(120, 120, 128);
    const ImVec4 hover = light ? rgb(232, 232, 232) : rgb(52, 52, 58);
    const ImVec4 active = light ? rgb(200, 200, 200) : rgb(76, 76, 84);
    const ImVec4 select = light ? rgb(255, 226, 120) : rgb(110, 90, 30);
    c[ImGuiCol_Text] = fg;
    c[ImGuiCol_TextDisabled] = light ? rgb(110, 110, 110) : rgb(140, 140, 140);
    c[ImGuiCol_WindowBg] = c[ImGuiCol_PopupBg] = bg;
    // Child windows show their parent's background (the same colour) instead of painting it again:
    // each opaque child background is another layer the GPU fills (about three screens a frame on
    // the arena's grid, which software rendering pays for in full).
    c[ImGuiCol_ChildBg] = rgb(0, 0, 0, 0.0f);
    c[ImGuiCol_Border] = border;
    c[ImGuiCol_BorderShadow] = rgb(0, 0, 0, 0.0f);
    c[ImGuiCol_FrameBg] = bg;
    c[ImGuiCol_FrameBgHovered] = hover;
    c[ImGuiCol_FrameBgActive] = active;
    c[ImGuiCol_TitleBg] = c[ImGuiCol_TitleBgCollapsed] = bg;
    c[ImGuiCol_TitleBgActive] = light ? rgb(240, 240, 240) : rgb(36, 36, 40);
    c[ImGuiCol_MenuBarBg] = bg;
    c[ImGuiCol_ScrollbarBg] = bg;
    c[ImGuiCol_ScrollbarGrab] = light ? rgb(150, 150, 150) : rgb(90, 90, 96);
    c[ImGuiCol_ScrollbarGrabHovered] = light ? rgb(100, 100, 100) : rgb(120, 120, 128);
    c[ImGuiCol_ScrollbarGrabActive] = fg;
    c[ImGuiCol_CheckMark] = fg;
    // Translucent grabs: the slider's own text (e.g. "Engine · level 4 · ≈1600") stays readable.
    c[ImGuiCol_SliderGrab] = light ? rgb(0, 0, 0, 0.28f) : rgb(255, 255, 255, 0.28f);
    c[ImGuiCol_SliderGrabActive] = light ? rgb(0, 0, 0, 0.45f) : rgb(255, 255, 255, 0.45f);
    c[ImGuiCol_Button] = bg;
    c[ImGuiCol_ButtonHovered] = hover;
    c[ImGuiCol_ButtonActive] = active;
    c[ImGuiCol_Header] = select;
    c[ImGuiCol_HeaderHovered] = hover;
    c[ImGuiCol_HeaderActive] = active;
    c[ImGuiCol_Separator] = c[ImGuiCol_SeparatorHovered] = c[ImGuiCol_SeparatorActive] = border;
    c[ImGuiCol_ResizeGrip] = rgb(0, 0, 0, 0.0f);
    c[ImGuiCol_ResizeGripHovered] = hover;
    c[ImGuiCol_ResizeGripActive] = active;
    c[ImGuiCol_Tab] = bg;
    c[ImGuiCol_TabHovered] = hover;
    c[ImGuiCol_TabActive] = select;
    c[ImGuiCol_TabUnfocused] = bg;
    c[ImGuiCol_TabUnfocusedActive] = select;
    c[ImGuiCol_PlotLines] = c[ImGuiCol_PlotHistogram] = fg;
    c[ImGuiCol_TableHeaderBg] = light ? rgb(240, 240, 240) : rgb(36, 36, 40);
    c[ImGuiCol_TableBorderStrong] = border;
    c[ImGuiCol_TableBorderLight] = light ? rgb(190, 190, 190) : rgb(70, 70, 76);
    c[ImGuiCol_TableRowBg] = rgb(0, 0, 0, 0.0f);
    c[ImGuiCol_TableRowBgAlt] = light ? rgb(0, 0, 0, 0.03f) : rgb(255, 255, 255, 0.03f);
    c[ImGuiCol_TextSelectedBg] = light ? rgb(255, 214, 64, 0.6f) : rgb(200, 160, 40, 0.5f);
    c[ImGuiCol_NavHighlight] = fg;
    c[ImGuiCol_ModalWindowDimBg] = rgb(0, 0, 0, light ? 0.25f : 0.5f);
    style.ScaleAllSizes(pixelRatio);
    // ScaleAllSizes leaves border widths alone; 2 CSS px stay 2 CSS px on HiDPI screens.
    style.WindowBorderSize *= pixelRatio;
    style.ChildBorderSize *= pixelRatio;
    style.PopupBorderSize *= pixelRatio;
    style.FrameBorderSize *= pixelRatio;
    ImGui::GetStyle() = style;

    Palette& p = gPalette;
    p.lastMove = IM_COL32(255, 214, 64, 150);
    p.check = IM_COL32(230, 40, 40, 170);
    p.legalDot = IM_COL32(0, 0, 0, 90);
    p.selection = IM_COL32(40, 120, 255, 110);
    p.whitePiece = IM_COL32(255, 255, 255, 255);
    p.blackPiece = IM_COL32(0, 0, 0, 255);
    p.pieceOutline = IM_COL32(0, 0, 0, 255);
    p.accent = light ? IM_COL32(0, 0, 0, 255) : IM_COL32(236, 236, 236, 255);
    p.muted = light ? IM_COL32(110, 110, 110, 255) : IM_COL32(150, 150, 150, 255);
    p.danger = light ? IM_COL32(190, 0, 0, 255) : IM_COL32(255, 110, 110, 255);
    p.ok = light ? IM_COL32(0, 120, 40, 255) : IM_COL32(110, 220, 140, 255);
    p.warning = light ? IM_COL32(160, 90, 0, 255) : IM_COL32(255, 190, 90, 255);
    p.panelBorder = light ? IM_COL32(0, 0, 0, 255) : IM_COL32(120, 120, 128, 255);
}

namespace {
float smallPaddingY() {
    return std::floor(ImGui::GetStyle().FramePadding.y * 0.34f);
}
} // namespace

float smallButtonHeight() {
    return ImGui::GetFontSize() + smallPaddingY() * 2;
}

void sectionTitle(const Fonts& fonts, const char* title) {
    ImGui::Spacing();
    if (fonts.bold) ImGui::PushFont(fonts.bold);
    ImGui::TextUnformatted(title);
    if (fonts.bold) ImGui::PopFont();
    ImGui::Separator();
}

bool smallButton(const char* label) {
    ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, ImVec2(ImGui::GetStyle().FramePadding.x, smallPaddingY()));
    const bool pressed = ImGui::Button(label);
    ImGui::PopStyleVar();
    return pressed;
}

} // namespace chaiba::ui
