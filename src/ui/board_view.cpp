// BoardView: draws with ImDrawList only, so it scales to any size and stays crisp on HiDPI.
#include "src/ui/board_view.h"

#include "src/ui/theme.h"

#include <imgui.h>

#include <algorithm>
#include <cctype>

namespace chaiba::ui {

namespace {

// White glyphs are outlines (U+2654..), black glyphs are filled (U+265A..).
const char* outlineGlyph(char piece) {
    switch (std::tolower(static_cast<unsigned char>(piece))) {
    case 'k': return "\xE2\x99\x94";
    case 'q': return "\xE2\x99\x95";
    case 'r': return "\xE2\x99\x96";
    case 'b': return "\xE2\x99\x97";
    case 'n': return "\xE2\x99\x98";
    case 'p': return "\xE2\x99\x99";
    }
    return nullptr;
}

const char* filledGlyph(char piece) {
    switch (std::tolower(static_cast<unsigned char>(piece))) {
    case 'k': return "\xE2\x99\x9A";
    case 'q': return "\xE2\x99\x9B";
    case 'r': return "\xE2\x99\x9C";
    case 'b': return "\xE2\x99\x9D";
    case 'n': return "\xE2\x99\x9E";
    case 'p': return "\xE2\x99\x9F";
    }
    return nullptr;
}

} // namespace

std::optional<BoardPieces> piecesFromFen(std::string_view fen) {
    BoardPieces pieces;
    pieces.fill('.');
    int rank = 7, file = 0;
    for (char ch : fen) {
        if (ch == ' ') break;
        if (ch == '/') {
            if (file != 8 || rank == 0) return std::nullopt;
            --rank;
            file = 0;
        } else if (ch >= '1' && ch <= '8') {
            file += ch - '0';
            if (file > 8) return std::nullopt;
        } else if (std::string_view("pnbrqkPNBRQK").find(ch) != std::string_view::npos) {
            if (file > 7) return std::nullopt;
            pieces[static_cast<size_t>(rank * 8 + file)] = ch;
            ++file;
        } else {
            return std::nullopt;
        }
    }
    if (rank != 0 || file != 8) return std::nullopt;
    return pieces;
}

void BoardView::draw(const Fonts& fonts, const BoardPieces& pieces, const BoardHighlights& hl, float size) {
    const Palette& pal = palette();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const float sq = size / 8.0f;
    const float border = ImGui::GetStyle().FrameBorderSize;
    auto squareRect = [&](int square, ImVec2& a, ImVec2& b) {
        const int file = square % 8, rank = square / 8;
        const int col = flipped ? 7 - file : file;
        const int row = flipped ? rank : 7 - rank;
        a = ImVec2(origin.x + col * sq, origin.y + row * sq);
        b = ImVec2(a.x + sq, a.y + sq);
    };
    for (int s = 0; s < 64; ++s) {
        ImVec2 a, b;
        squareRect(s, a, b);
        const bool light = ((s / 8) + (s % 8)) % 2 == 1;
        dl->AddRectFilled(a, b, light ? pal.lightSquare : pal.darkSquare);
        if (s == hl.lastFrom || s == hl.lastTo) dl->AddRectFilled(a, b, pal.lastMove);
        if (s == hl.selected) dl->AddRectFilled(a, b, pal.selection);
        if (s == hl.checkSquare) {
            const ImVec2 c((a.x + b.x) * 0.5f, (a.y + b.y) * 0.5f);
            dl->AddCircleFilled(c, sq * 0.48f, pal.check, 32);
        }
    }
    if (showCoordinates) {
        const float fs = std::max(fonts.uiSize * 0.7f, std::min(sq * 0.2f, fonts.uiSize * 1.1f));
        for (int i = 0; i < 8; ++i) {
            const char fileName[2] = {static_cast<char>('a' + (flipped ? 7 - i : i)), 0};
            const char rankName[2] = {static_cast<char>('1' + (flipped ? i : 7 - i)), 0};
            // Bottom-left and top-right corners are dark either way up; text takes the other colour.
            const bool fileLight = (i % 2) == 1;
            const bool rankLight = (i % 2) == 0;
            dl->AddText(fonts.bold, fs, ImVec2(origin.x + (i + 1) * sq - fs * 0.75f, origin.y + 8 * sq - fs * 1.15f),
                        fileLight ? pal.darkSquare : pal.lightSquare, fileName);
            dl->AddText(fonts.bold, fs, ImVec2(origin.x + fs * 0.3f, origin.y + i * sq + fs * 0.2f),
                        rankLight ? pal.darkSquare : pal.lightSquare, rankName);
        }
    }
    const float glyph = sq * 0.86f;
    for (int s = 0; s < 64; ++s) {
        const char piece = pieces[static_cast<size_t>(s)];
        if (piece == '.') continue;
        ImVec2 a, b;
        squareRect(s, a, b);
        const char* filled = filledGlyph(piece);
        const char* outline = outlineGlyph(piece);
        if (!filled) continue;
        const ImVec2 ext = fonts.pieces->CalcTextSizeA(glyph, FLT_MAX, 0.0f, filled);
        const ImVec2 at(a.x + (sq - ext.x) * 0.5f, a.y + (sq - ext.y) * 0.5f);
        const bool white = std::isupper(static_cast<unsigned char>(piece)) != 0;
        dl->AddText(fonts.pieces, glyph, at, white ? pal.whitePiece : pal.blackPiece, filled);
        if (white) dl->AddText(fonts.pieces, glyph, at, pal.pieceOutline, outline);
    }
    dl->AddRect(ImVec2(origin.x - border * 0.5f, origin.y - border * 0.5f),
                ImVec2(origin.x + size + border * 0.5f, origin.y + size + border * 0.5f), pal.panelBorder, 0.0f, 0,
                border);
    ImGui::Dummy(ImVec2(size, size));
}

} // namespace chaiba::ui
