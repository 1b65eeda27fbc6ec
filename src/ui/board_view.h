// The chess board widget: squares, coordinates, pieces (filled glyph + outline glyph), and
// highlights. Pure drawing: it reads a placement and draws; moves come from the caller.
#pragma once

#include "src/ui/fonts.h"

#include <array>
#include <optional>
#include <string_view>

namespace chaiba::ui {

// 64 squares a1..h8 (index = rank*8 + file); FEN letters ('P','n',...) or '.' for empty.
using BoardPieces = std::array<char, 64>;

// Reads the placement field of a FEN (the part before the first space); nothing if malformed.
std::optional<BoardPieces> piecesFromFen(std::string_view fen);

struct BoardHighlights {
    int lastFrom = -1, lastTo = -1;  // squares of the last move
    int checkSquare = -1;            // king in check
    int selected = -1;
};

struct BoardView {
    bool flipped = false;      // black at the bottom
    bool showCoordinates = true;

    // Draws at the cursor in a square of `size` pixels and advances the cursor.
    void draw(const Fonts& fonts, const BoardPieces& pieces, const BoardHighlights& highlights, float size);
};

} // namespace chaiba::ui
