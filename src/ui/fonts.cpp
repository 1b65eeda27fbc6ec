// Font loading for the page: glyph ranges for the games (piece symbols, arrows, dashes, ≈, ✓/✗).
#include "src/ui/fonts.h"

#include <imgui.h>

#include <cstdio>

namespace chaiba::ui {

namespace {

// ImGui keeps pointers to these ranges: they must outlive the atlas.
const ImWchar kUiRanges[] = {
    0x0020, 0x00FF,  // Basic Latin + Latin-1
    0x2010, 0x2027,  // dashes, quotes, bullet, ellipsis
    0x2190, 0x2199,  // arrows
    0x2212, 0x2212,  // − (the planner's net change, "−1 task")
    0x2248, 0x2248,  // ≈ (ratings)
    0x25A0, 0x25CF,  // squares, triangles, circles
    0x2654, 0x265F,  // piece symbols
    0x2713, 0x2717,  // check and cross marks
    0,
};
const ImWchar kPieceRanges[] = {0x2654, 0x265F, 0x25CF, 0x25CF, 0};

bool readable(const std::string& path) {
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) return false;
    std::fclose(f);
    return true;
}

} // namespace

std::optional<std::string> loadFonts(ImFontAtlas& atlas, const std::string& fontDir, float pixelRatio,
                                     Fonts& out) {
    atlas.Clear();
    out = Fonts{};
    out.uiSize = kUiFontCssPx * pixelRatio;
    out.piecesSize = 88.0f * pixelRatio;
    const std::string sans = fontDir + "/DejaVuSans.ttf";
    const std::string bold = fontDir + "/DejaVuSans-Bold.ttf";
    const std::string mono = fontDir + "/DejaVuSansMono.ttf";
    for (const std::string* path : {&sans, &bold, &mono}) {
        if (!readable(*path)) {
            out.ui = out.bold = out.mono = out.pieces = atlas.AddFontDefault();
            return "font file " + *path + " is missing; using ImGui's built-in font";
        }
    }
    ImFontConfig config;
    config.OversampleH = 2;
    config.OversampleV = 1;
    out.ui = atlas.AddFontFromFileTTF(sans.c_str(), out.uiSize, &config, kUiRanges);
    out.bold = atlas.AddFontFromFileTTF(bold.c_str(), out.uiSize, &config, kUiRanges);
    out.mono = atlas.AddFontFromFileTTF(mono.c_str(), out.uiSize * 0.95f, &config, kUiRanges);
    // Mono has no piece symbols: merge them in from Sans so "♘f3" reads right in logs.
    ImFontConfig merge;
    merge.MergeMode = true;
    static const ImWchar kChessOnly[] = {0x2654, 0x265F, 0x2190, 0x2199, 0x2713, 0x2717, 0};
    atlas.AddFontFromFileTTF(sans.c_str(), out.uiSize * 0.95f, &merge, kChessOnly);
    ImFontConfig large;
    large.OversampleH = 1;
    large.OversampleV = 1;
    out.pieces = atlas.AddFontFromFileTTF(sans.c_str(), out.piecesSize, &large, kPieceRanges);
    if (!out.ui || !out.bold || !out.mono || !out.pieces) {
        atlas.Clear();
        out.ui = out.bold = out.mono = out.pieces = atlas.AddFontDefault();
        return "the DejaVu fonts could not be read; using ImGui's built-in font";
    }
    return std::nullopt;
}

} // namespace chaiba::ui
