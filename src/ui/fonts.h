// The page's fonts: DejaVu Sans for the UI (with the piece symbols U+2654–U+265F), its bold
// face, DejaVu Sans Mono for data (positions, moves, JSON), and large piece glyphs for boards.
#pragma once

#include <optional>
#include <string>

struct ImFont;
struct ImFontAtlas;

namespace chaiba::ui {

struct Fonts {
    ImFont* ui = nullptr;      // default UI text
    ImFont* bold = nullptr;    // headings, the wordmark
    ImFont* mono = nullptr;    // positions, JSON, numbers in tables
    ImFont* pieces = nullptr;  // piece symbols baked large, drawn scaled to the square size
    float uiSize = 16.0f;      // in pixels, already multiplied by the pixel ratio
    float piecesSize = 96.0f;
};

inline constexpr float kUiFontCssPx = 16.0f;

// Clears the atlas and adds the fonts from fontDir at sizes × pixelRatio. Returns an error
// sentence when a font file is missing or unreadable (the caller shows it; ImGui's own font
// is used then).
std::optional<std::string> loadFonts(ImFontAtlas& atlas, const std::string& fontDir, float pixelRatio,
                                     Fonts& out);

} // namespace chaiba::ui
