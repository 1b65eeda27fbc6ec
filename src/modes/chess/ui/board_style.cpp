// BoardStyle: the board themes' colours and the piece sets' files; one current look per page.
#include "src/modes/chess/ui/board_style.h"

#include <cmath>
#include <string_view>

namespace chaiba::ui {

using chessmode::BoardTheme;
using chessmode::PieceSet;

namespace {

struct Look {
    PieceSet pieces = PieceSet::Cburnett;
    BoardColours colours = boardThemeColours(BoardTheme::Brown, Theme::Light);
    ImageAtlases* atlases = nullptr;
};
Look gLook;

// The same order as pieceImageIndex: colour (white, black), then king, queen, rook, bishop, knight, pawn.
constexpr std::string_view kCburnett[] = {
    "pieces/cburnett/wk.svg", "pieces/cburnett/wq.svg", "pieces/cburnett/wr.svg", "pieces/cburnett/wb.svg",
    "pieces/cburnett/wn.svg", "pieces/cburnett/wp.svg", "pieces/cburnett/bk.svg", "pieces/cburnett/bq.svg",
    "pieces/cburnett/br.svg", "pieces/cburnett/bb.svg", "pieces/cburnett/bn.svg", "pieces/cburnett/bp.svg"};
constexpr std::string_view kMerida[] = {
    "pieces/merida/wk.svg", "pieces/merida/wq.svg", "pieces/merida/wr.svg", "pieces/merida/wb.svg",
    "pieces/merida/wn.svg", "pieces/merida/wp.svg", "pieces/merida/bk.svg", "pieces/merida/bq.svg",
    "pieces/merida/br.svg", "pieces/merida/bb.svg", "pieces/merida/bn.svg", "pieces/merida/bp.svg"};
constexpr const char* kIndexUrl = "pieces/index.json"; // written by web/web.cmake: the sets the build has
const ImageSet kCburnettSet{"cburnett", kIndexUrl, kCburnett};
const ImageSet kMeridaSet{"merida", kIndexUrl, kMerida};

} // namespace

BoardColours boardThemeColours(BoardTheme theme, Theme pageTheme) {
    switch (theme) {
    case BoardTheme::Brown: return {IM_COL32(240, 217, 181, 255), IM_COL32(181, 136, 99, 255)};
    case BoardTheme::Blue: return {IM_COL32(222, 227, 230, 255), IM_COL32(140, 162, 173, 255)};
    case BoardTheme::Green: return {IM_COL32(255, 255, 221, 255), IM_COL32(134, 166, 102, 255)};
    case BoardTheme::Grey: break;
    }
    // The page's original board: a printed diagram's greys, a shade darker on the dark page.
    return pageTheme == Theme::Light ? BoardColours{IM_COL32(240, 236, 226, 255), IM_COL32(160, 160, 160, 255)}
                                     : BoardColours{IM_COL32(198, 198, 204, 255), IM_COL32(128, 128, 138, 255)};
}

void setBoardLook(PieceSet pieces, BoardTheme theme, Theme pageTheme, ImageAtlases* atlases) {
    gLook.pieces = pieces;
    gLook.colours = boardThemeColours(theme, pageTheme);
    gLook.atlases = atlases;
}

const BoardColours& boardColours() { return gLook.colours; }

const ImageSet* pieceImageSet(PieceSet set) {
    switch (set) {
    case PieceSet::Cburnett: return &kCburnettSet;
    case PieceSet::Merida: return &kMeridaSet;
    case PieceSet::Glyphs: break;
    }
    return nullptr;
}

int pieceImageIndex(chess::Piece piece) {
    int kind = 0;
    switch (chess::typeOf(piece)) {
    case chess::PieceType::King: kind = 0; break;
    case chess::PieceType::Queen: kind = 1; break;
    case chess::PieceType::Rook: kind = 2; break;
    case chess::PieceType::Bishop: kind = 3; break;
    case chess::PieceType::Knight: kind = 4; break;
    case chess::PieceType::Pawn: kind = 5; break;
    case chess::PieceType::None: IM_ASSERT(false && "pieceImageIndex needs a piece, not an empty square"); break;
    }
    return (chess::colorOf(piece) == chess::Color::White ? 0 : 6) + kind;
}

const ImageAtlas* pieceAtlas(float squarePx) {
    const ImageSet* set = pieceImageSet(gLook.pieces);
    if (!set || !gLook.atlases || squarePx < 1.0f) return nullptr;
    return gLook.atlases->find(*set, static_cast<int>(std::lround(squarePx)));
}

} // namespace chaiba::ui
