// The look every board is drawn with, as chosen in Settings: the squares' colours of the board
// theme, and the pieces — the chosen SVG set rasterised by the platform at the square size
// (ui::ImageAtlases), or the font's glyphs while the set loads, when it failed or when chosen.
// The app sets it once per frame; the board widgets (board_view) read it.
#pragma once

#include "engine/chess/types.h"
#include "src/modes/chess/board_look.h"
#include "src/ui/format.h"
#include "src/ui/image_atlas.h"

#include <imgui.h>

namespace chaiba::ui {

struct BoardColours {
    ImU32 light, dark;
};

// `atlases` may be null (no platform pictures: glyphs are drawn).
void setBoardLook(chessmode::PieceSet pieces, chessmode::BoardTheme theme, Theme pageTheme, ImageAtlases* atlases);

const BoardColours& boardColours();
BoardColours boardThemeColours(chessmode::BoardTheme theme, Theme pageTheme);

// The SVG files of a set (pieces/<name>/wk.svg …, white then black, king to pawn); null for Glyphs.
const ImageSet* pieceImageSet(chessmode::PieceSet set);
// Where `piece` sits in a set's atlas (its index in pieceImageSet's urls).
int pieceImageIndex(chess::Piece piece);

// The current set's atlas for squares of `squarePx` device pixels (the exact size once it is made,
// the nearest one meanwhile), or null: draw glyphs. Call it for every board drawn, every frame.
const ImageAtlas* pieceAtlas(float squarePx);

} // namespace chaiba::ui
