// The two looks of the page. Light (default): white, 2px black borders, sharp corners, in the
// spirit of a printed score sheet. Dark: the same geometry on near-black.
#pragma once

#include "src/ui/format.h"

#include <imgui.h>

namespace chaiba::ui {

// Colours the board and panels use beyond ImGui's own style (the squares' colours are the board
// theme's, chosen apart from the page's theme).
struct Palette {
    ImU32 lastMove, check, legalDot, selection;
    ImU32 whitePiece, blackPiece, pieceOutline;
    ImU32 accent, muted, danger, ok, warning;
    ImU32 panelBorder;
};

const Palette& palette();

// Applies the theme to ImGui's style, scaled by pixelRatio (HiDPI).
void applyTheme(Theme theme, float pixelRatio);

// ImGui::SmallButton with a little room between its label and the thick frame (ImGui's has none,
// and the label touched the border). Same width as ImGui's, a few pixels taller.
bool smallButton(const char* label);
float smallButtonHeight(); // its frame height at the current font

struct Fonts;
// A section's title in bold with a rule under it (the Settings window's sections).
void sectionTitle(const Fonts& fonts, const char* title);

} // namespace chaiba::ui
