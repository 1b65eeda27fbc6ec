// BoardView: drawn with ImDrawList only, so it scales to any size and stays crisp on HiDPI: the
// pieces are images rasterised at the square's size in device pixels (board_style), or glyphs.
// Input: one invisible button covers the board; clicks, drags and the promotion chooser are
// decoded from the mouse against the legal moves of the position (premoves: against the pieces'
// geometry); the right button draws arrows and circles.
#include "src/modes/chess/ui/board_view.h"

#include "engine/chess/movegen.h"
#include "src/modes/chess/ui/board_style.h"
#include "src/ui/item_registry.h"
#include "src/ui/theme.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace chaiba::ui {

using chess::Color;
using chess::Move;
using chess::Piece;
using chess::PieceType;
using chess::Square;

namespace {

// White glyphs are outlines (U+2654..), black glyphs are filled (U+265A..).
const char* outlineGlyph(PieceType t) {
    switch (t) {
    case PieceType::King: return "\xE2\x99\x94";
    case PieceType::Queen: return "\xE2\x99\x95";
    case PieceType::Rook: return "\xE2\x99\x96";
    case PieceType::Bishop: return "\xE2\x99\x97";
    case PieceType::Knight: return "\xE2\x99\x98";
    case PieceType::Pawn: return "\xE2\x99\x99";
    case PieceType::None: break;
    }
    return nullptr;
}

const char* filledGlyph(PieceType t) {
    switch (t) {
    case PieceType::King: return "\xE2\x99\x9A";
    case PieceType::Queen: return "\xE2\x99\x9B";
    case PieceType::Rook: return "\xE2\x99\x9C";
    case PieceType::Bishop: return "\xE2\x99\x9D";
    case PieceType::Knight: return "\xE2\x99\x9E";
    case PieceType::Pawn: return "\xE2\x99\x9F";
    case PieceType::None: break;
    }
    return nullptr;
}

// One piece centred at `centre` on a square of `squarePx`: the set's image when `atlas` has one (at
// its own pixel size on whole pixels when it was made for this square size, so it is sampled 1:1),
// else the font's glyphs (a filled one, outlined for white).
void drawPiece(ImDrawList* dl, const Fonts& fonts, Piece piece, ImVec2 centre, float squarePx,
               const ImageAtlas* atlas) {
    const PieceType t = chess::typeOf(piece);
    const char* filled = filledGlyph(t);
    if (!filled) return;
    if (atlas) {
        const int index = pieceImageIndex(piece);
        const bool exact = atlas->cellPx == static_cast<int>(std::lround(squarePx));
        const float side = exact ? static_cast<float>(atlas->cellPx) : squarePx;
        ImVec2 a(centre.x - side * 0.5f, centre.y - side * 0.5f);
        if (exact) a = ImVec2(std::floor(a.x + 0.5f), std::floor(a.y + 0.5f));
        dl->AddImage(atlas->texture, a, ImVec2(a.x + side, a.y + side), atlas->uvMin(index), atlas->uvMax(index));
        return;
    }
    const Palette& pal = palette();
    const float glyph = squarePx * 0.86f;
    const ImVec2 ext = fonts.pieces->CalcTextSizeA(glyph, FLT_MAX, 0.0f, filled);
    const ImVec2 at(centre.x - ext.x * 0.5f, centre.y - ext.y * 0.5f);
    const bool white = chess::colorOf(piece) == Color::White;
    dl->AddText(fonts.pieces, glyph, at, white ? pal.whitePiece : pal.blackPiece, filled);
    if (white) dl->AddText(fonts.pieces, glyph, at, pal.pieceOutline, outlineGlyph(t));
}

// Where a move visibly lands: castling (stored king-takes-rook) shows the king on the g/c file.
Square kingTarget(Move m) {
    if (!m.isCastling()) return m.to();
    const int rank = chess::rankOf(m.from());
    return chess::makeSquare(m.to() > m.from() ? 6 : 2, rank);
}

Square rookTarget(Move m) {
    const int rank = chess::rankOf(m.from());
    return chess::makeSquare(m.to() > m.from() ? 5 : 3, rank);
}

// Screen geometry of one drawn board: where each square is, either way up.
struct Geometry {
    ImVec2 origin;
    float sq = 0;
    bool flipped = false;
    const ImageAtlas* pieces = nullptr; // null: glyphs

    ImVec2 corner(Square s) const {
        const int col = flipped ? 7 - chess::fileOf(s) : chess::fileOf(s);
        const int row = flipped ? chess::rankOf(s) : 7 - chess::rankOf(s);
        return ImVec2(origin.x + col * sq, origin.y + row * sq);
    }
    ImVec2 centre(Square s) const {
        const ImVec2 a = corner(s);
        return ImVec2(a.x + sq * 0.5f, a.y + sq * 0.5f);
    }
};

// Everything under the pieces: squares, last move, selection, check and coordinates.
void drawBoardBase(ImDrawList* dl, const Fonts& fonts, const chess::Position& pos, Move lastMove,
                   const Geometry& g, bool coordinates, Square selected) {
    const Palette& pal = palette();
    const BoardColours& board = boardColours();
    const float sq = g.sq;
    // One light rectangle, then the 32 dark squares over it (the corners a1/h8 are dark).
    dl->AddRectFilled(g.origin, ImVec2(g.origin.x + 8 * sq, g.origin.y + 8 * sq), board.light);
    for (Square s = 0; s < 64; ++s) {
        if ((chess::fileOf(s) + chess::rankOf(s)) % 2 == 1) continue;
        const ImVec2 a = g.corner(s);
        dl->AddRectFilled(a, ImVec2(a.x + sq, a.y + sq), board.dark);
    }
    auto mark = [&](Square s, ImU32 colour) {
        const ImVec2 a = g.corner(s);
        dl->AddRectFilled(a, ImVec2(a.x + sq, a.y + sq), colour);
    };
    if (lastMove) {
        mark(lastMove.from(), pal.lastMove);
        if (kingTarget(lastMove) != lastMove.from()) mark(kingTarget(lastMove), pal.lastMove);
    }
    if (selected != chess::NoSquare) mark(selected, pal.selection);
    if (pos.inCheck())
        dl->AddCircleFilled(g.centre(pos.kingSquare(pos.sideToMove())), sq * 0.48f, pal.check, 32);
    if (!coordinates) return;
    const float fs = std::max(fonts.uiSize * 0.7f, std::min(sq * 0.2f, fonts.uiSize * 1.1f));
    for (int i = 0; i < 8; ++i) {
        const char fileName[2] = {static_cast<char>('a' + (g.flipped ? 7 - i : i)), 0};
        const char rankName[2] = {static_cast<char>('1' + (g.flipped ? i : 7 - i)), 0};
        // Bottom-left and top-right corners are dark either way up; text takes the other colour.
        const ImU32 fileColour = (i % 2) == 1 ? board.dark : board.light;
        const ImU32 rankColour = (i % 2) == 0 ? board.dark : board.light;
        dl->AddText(fonts.bold, fs,
                    ImVec2(g.origin.x + (i + 1) * sq - fs * 0.75f, g.origin.y + 8 * sq - fs * 1.15f),
                    fileColour, fileName);
        dl->AddText(fonts.bold, fs, ImVec2(g.origin.x + fs * 0.3f, g.origin.y + i * sq + fs * 0.2f),
                    rankColour, rankName);
    }
}

// Every piece except those on up to three squares (sliding or dragged pieces are drawn later).
void drawPieces(ImDrawList* dl, const Fonts& fonts, const chess::Position& pos, const Geometry& g,
                Square skipA = chess::NoSquare, Square skipB = chess::NoSquare,
                Square skipC = chess::NoSquare) {
    for (Square s = 0; s < 64; ++s) {
        const Piece piece = pos.pieceOn(s);
        if (piece == Piece::None || s == skipA || s == skipB || s == skipC) continue;
        drawPiece(dl, fonts, piece, g.centre(s), g.sq, g.pieces);
    }
}

void drawFrame(ImDrawList* dl, ImVec2 origin, float size, float border) {
    dl->AddRect(ImVec2(origin.x - border * 0.5f, origin.y - border * 0.5f),
                ImVec2(origin.x + size + border * 0.5f, origin.y + size + border * 0.5f),
                palette().panelBorder, 0.0f, 0, border);
}

// Legal moves from `from` that a release/click on `square` means (castling: the king's target
// or the rook's square; promotions: up to four moves).
std::vector<Move> movesTo(const chess::MoveList& legal, Square from, Square square) {
    std::vector<Move> out;
    for (Move m : legal)
        if (m.from() == from && (m.to() == square || kingTarget(m) == square)) out.push_back(m);
    return out;
}

// lichess's premove squares: translucent navy.
constexpr ImU32 kPremove = IM_COL32(20, 30, 85, 128);

// Where a piece may premove: every square its kind of move reaches on an open board (as on
// lichess: the position changes before the turn comes), castling as the king's two-square step or
// onto its own rook. Whether the move is legal is known only when it is played.
bool premoveReaches(const chess::Position& pos, Square from, Square to) {
    const Piece p = pos.pieceOn(from);
    if (p == Piece::None || from == to) return false;
    const Color c = chess::colorOf(p);
    const int df = chess::fileOf(to) - chess::fileOf(from), dr = chess::rankOf(to) - chess::rankOf(from);
    const int af = std::abs(df), ar = std::abs(dr);
    switch (chess::typeOf(p)) {
    case PieceType::Pawn: {
        const int ahead = c == Color::White ? dr : -dr;
        return (ahead == 1 && af <= 1) || (ahead == 2 && af == 0 && chess::rankOf(from) == (c == Color::White ? 1 : 6));
    }
    case PieceType::Knight: return af * ar == 2;
    case PieceType::Bishop: return af == ar;
    case PieceType::Rook: return af == 0 || ar == 0;
    case PieceType::Queen: return af == ar || af == 0 || ar == 0;
    case PieceType::King:
        return std::max(af, ar) == 1 || (ar == 0 && chess::rankOf(from) == (c == Color::White ? 0 : 7) &&
                                         (af == 2 || pos.pieceOn(to) == chess::makePiece(c, PieceType::Rook)));
    case PieceType::None: break;
    }
    return false;
}

// An arrow or a circle with lichess's brushes and proportions (a line a sixth of a square wide,
// a head three lines long whose tip is the target's centre), translucent over the pieces.
void drawShape(ImDrawList* dl, const Geometry& g, const BoardShape& s) {
    static constexpr ImU32 colours[] = {IM_COL32(21, 120, 27, 170), IM_COL32(136, 32, 32, 170),
                                        IM_COL32(0, 48, 136, 170)};
    const ImU32 colour = colours[static_cast<int>(s.brush)];
    const float w = g.sq * 10.0f / 64.0f;
    const ImVec2 a = g.centre(s.from), b = g.centre(s.to);
    if (s.from == s.to) return dl->AddCircle(a, g.sq * 0.5f - w * 0.2f, colour, 0, w * 0.4f);
    const float len = std::hypot(b.x - a.x, b.y - a.y);
    const ImVec2 d((b.x - a.x) / len, (b.y - a.y) / len), n(-d.y, d.x);
    const ImVec2 base(b.x - d.x * 3 * w, b.y - d.y * 3 * w);
    auto side = [&](ImVec2 p, float by) { return ImVec2(p.x + n.x * by, p.y + n.y * by); };
    // One clockwise polygon, star-shaped from the tip (ImGui fills fans from point 0): two
    // translucent pieces would show a seam where the shaft meets the head.
    const ImVec2 points[7] = {b, side(base, 2 * w), side(base, w * 0.5f), side(a, w * 0.5f),
                              side(a, -w * 0.5f), side(base, -w * 0.5f), side(base, -2 * w)};
    dl->AddConvexPolyFilled(points, 7, colour);
}

} // namespace

const char* brushName(BoardShape::Brush brush) {
    return brush == BoardShape::Brush::Red ? "red" : brush == BoardShape::Brush::Blue ? "blue" : "green";
}

int BoardView::squareAt(float x, float y) const {
    if (square_ <= 0) return chess::NoSquare;
    const int col = static_cast<int>(std::floor((x - originX_) / square_));
    const int row = static_cast<int>(std::floor((y - originY_) / square_));
    if (col < 0 || col > 7 || row < 0 || row > 7) return chess::NoSquare;
    const int file = flipped ? 7 - col : col;
    const int rank = flipped ? row : 7 - row;
    return chess::makeSquare(file, rank);
}

void BoardView::dropPick() {
    selected_ = chess::NoSquare;
    dragging_ = false;
    promotionFrom_ = promotionTo_ = chess::NoSquare;
}

void BoardView::clearSelection() {
    dropPick();
    premoveFrom_ = premoveTo_ = chess::NoSquare;
}

std::optional<std::pair<Square, Square>> BoardView::premove() const {
    if (premoveFrom_ == chess::NoSquare) return std::nullopt;
    return std::make_pair(premoveFrom_, premoveTo_);
}

// Drawing a shape again removes it; the same squares in another colour replace it (lichess).
void BoardView::toggleShape(BoardShape shape) {
    std::size_t at = 0;
    while (at < shapeCount_ && (shapes_[at].from != shape.from || shapes_[at].to != shape.to)) ++at;
    const bool same = at < shapeCount_ && shapes_[at].brush == shape.brush;
    if (at == kMaxShapes) at = 0; // full: the oldest goes
    if (at < shapeCount_) std::copy(shapes_ + at + 1, shapes_ + shapeCount_--, shapes_ + at);
    if (!same) shapes_[shapeCount_++] = shape;
}

void BoardView::animate(const chess::Position& before, Move move, double nowMs) {
    animFrom_ = move.from();
    animTo_ = kingTarget(move);
    animPiece_ = before.pieceOn(move.from());
    animRookFrom_ = move.isCastling() ? move.to() : chess::NoSquare;
    animRookTo_ = move.isCastling() ? rookTarget(move) : chess::NoSquare;
    animStartMs_ = nowMs;
}

bool BoardView::busy(double nowMs) const {
    return dragging_ || drawing_.from != chess::NoSquare || nowMs - animStartMs_ < animationMs;
}

std::optional<Move> BoardView::draw(const Fonts& fonts, const chess::Position& pos, Move lastMove, float size,
                                    bool interactive, double nowMs) {
    const Palette& pal = palette();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    originX_ = origin.x;
    originY_ = origin.y;
    square_ = size / 8.0f;
    const float sq = square_;
    const float border = ImGui::GetStyle().FrameBorderSize;
    if (pos.hash() != positionKey_) { // a premove waits for exactly this change
        positionKey_ = pos.hash();
        dropPick();
        shapeCount_ = 0;
    }

    ImGui::InvisibleButton("##board", ImVec2(size, size));
    markItem("board");
    const ImGuiIO& io = ImGui::GetIO();
    const ImVec2 mouse = io.MousePos;
    // Premoving: the person's pieces move while the other side is to move.
    const bool premoving = premoveColor && *premoveColor != pos.sideToMove();
    if (!premoveColor) premoveFrom_ = premoveTo_ = chess::NoSquare;
    chess::MoveList legal;
    if (interactive) chess::generateLegal(pos, legal);
    else if (!premoving) dropPick();

    const Geometry geometry{origin, sq, flipped, pieceAtlas(sq)};
    pieceImagesPx_ = geometry.pieces ? geometry.pieces->cellPx : 0;

    // Step 1. Input. The right button draws (a press and release on one square: a circle) and
    // cancels a premove (unless Ctrl is held); a left click wipes the drawing. Then a premove that is due, the promotion
    // chooser, clicks and drags.
    if (ImGui::IsItemClicked(ImGuiMouseButton_Right)) {
        drawing_ = {squareAt(mouse.x, mouse.y), chess::NoSquare,
                    io.KeyShift ? BoardShape::Brush::Red : io.KeyAlt ? BoardShape::Brush::Blue : BoardShape::Brush::Green};
        if (io.KeyCtrl) dropPick(); // Ctrl keeps the premove (lichess)
        else clearSelection();
    }
    if (drawing_.from != chess::NoSquare) {
        drawing_.to = squareAt(mouse.x, mouse.y);
        if (!ImGui::IsMouseDown(ImGuiMouseButton_Right)) {
            if (drawing_.to != chess::NoSquare) toggleShape(drawing_);
            drawing_.from = chess::NoSquare;
        }
    }
    if (ImGui::IsItemClicked(ImGuiMouseButton_Left)) shapeCount_ = 0;
    std::optional<Move> chosen;
    if (interactive && premoveFrom_ != chess::NoSquare) {
        for (Move m : movesTo(legal, premoveFrom_, premoveTo_))
            if (!m.isPromotion() || m.promotion() == PieceType::Queen) chosen = m;
        clearSelection();
    }
    const PieceType promoOrder[4] = {PieceType::Queen, PieceType::Rook, PieceType::Bishop, PieceType::Knight};
    const bool promotionOpen = promotionFrom_ != chess::NoSquare;
    auto promotionBox = [&](int i) {
        // Boxes stack from the promotion square towards the middle of the board.
        const ImVec2 a = geometry.corner(promotionTo_);
        const bool down = a.y < origin.y + size * 0.5f;
        return ImVec2(a.x, a.y + (down ? i : -i) * sq);
    };
    auto tryMove = [&](Square from, Square to) -> std::optional<Move> {
        std::vector<Move> ms = movesTo(legal, from, to);
        if (ms.empty()) return std::nullopt;
        if (ms.size() > 1 && ms[0].isPromotion()) {
            promotionFrom_ = from;
            promotionTo_ = ms[0].to();
            return std::nullopt;
        }
        clearSelection();
        return ms[0];
    };
    // A click or a drop on `to`: the move (or the premove) when the piece gets there.
    auto reaches = [&](Square from, Square to) {
        return to != chess::NoSquare && to != from &&
               (premoving ? premoveReaches(pos, from, to) : !movesTo(legal, from, to).empty());
    };
    auto pick = [&](Square from, Square to) -> std::optional<Move> {
        if (!premoving) return tryMove(from, to);
        dropPick();
        premoveFrom_ = from;
        premoveTo_ = to;
        return std::nullopt;
    };
    if (!chosen && interactive && promotionOpen) {
        if (ImGui::IsItemClicked(ImGuiMouseButton_Left)) {
            for (int i = 0; i < 4; ++i) {
                const ImVec2 a = promotionBox(i);
                if (mouse.x >= a.x && mouse.x < a.x + sq && mouse.y >= a.y && mouse.y < a.y + sq) {
                    for (Move m : legal)
                        if (m.from() == promotionFrom_ && m.to() == promotionTo_ && m.promotion() == promoOrder[i])
                            chosen = m;
                }
            }
            clearSelection();  // chosen, or a click elsewhere cancels the promotion
        }
    } else if (!chosen && (interactive || premoving)) {
        const Color mover = premoving ? *premoveColor : pos.sideToMove();
        if (ImGui::IsItemClicked(ImGuiMouseButton_Left)) {
            const int s = squareAt(mouse.x, mouse.y);
            const Piece p = s != chess::NoSquare ? pos.pieceOn(s) : Piece::None;
            const bool own = p != Piece::None && chess::colorOf(p) == mover;
            if (selected_ != chess::NoSquare && reaches(selected_, s)) {
                chosen = pick(selected_, s);
            } else if (own) {
                selected_ = s;
                dragging_ = true;
            } else {
                clearSelection(); // an empty square (or the opponent's piece) cancels a premove too
            }
        }
        if (dragging_ && !ImGui::IsMouseDown(ImGuiMouseButton_Left)) {
            dragging_ = false;
            const int s = squareAt(mouse.x, mouse.y);
            if (selected_ != chess::NoSquare && reaches(selected_, s)) chosen = pick(selected_, s);
        }
    }
    const bool dragVisible = dragging_ && ImGui::IsMouseDragging(ImGuiMouseButton_Left, sq * 0.1f);

    // Step 2. Squares and highlights.
    drawBoardBase(dl, fonts, pos, lastMove, geometry, showCoordinates, selected_);
    for (Square s : {premoveFrom_, premoveTo_}) {
        if (s == chess::NoSquare) continue;
        const ImVec2 a = geometry.corner(s);
        dl->AddRectFilled(a, ImVec2(a.x + sq, a.y + sq), kPremove);
    }

    // Step 3. Pieces (the sliding and the dragged one last, on top).
    const double animT = (nowMs - animStartMs_) / animationMs;
    const bool animating = animT >= 0.0 && animT < 1.0;
    drawPieces(dl, fonts, pos, geometry, animating ? animTo_ : chess::NoSquare,
               animating ? animRookTo_ : chess::NoSquare, dragVisible ? selected_ : chess::NoSquare);
    if (animating) {
        const float t = static_cast<float>(1.0 - std::pow(1.0 - animT, 3.0));  // ease-out
        auto slide = [&](Square from, Square to) {
            if (from == chess::NoSquare || to == chess::NoSquare) return;
            const Piece piece = pos.pieceOn(to);
            if (piece == Piece::None) return;
            const ImVec2 a = geometry.centre(from), b = geometry.centre(to);
            drawPiece(dl, fonts, piece, ImVec2(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t), sq, geometry.pieces);
        };
        slide(animRookFrom_, animRookTo_);
        slide(animFrom_, animTo_);
    }
    // Legal-target dots for the selected piece (rings on captures; premoves: navy dots).
    if (selected_ != chess::NoSquare && premoving) {
        for (Square t = 0; t < 64; ++t)
            if (premoveReaches(pos, selected_, t)) dl->AddCircleFilled(geometry.centre(t), sq * 0.15f, kPremove, 24);
    } else if (selected_ != chess::NoSquare && !promotionOpen) {
        for (Move m : legal) {
            if (m.from() != selected_) continue;
            const Square t = kingTarget(m);
            const ImVec2 c = geometry.centre(t);
            if (pos.isCapture(m)) dl->AddCircle(c, sq * 0.44f, pal.legalDot, 32, sq * 0.07f);
            else dl->AddCircleFilled(c, sq * 0.15f, pal.legalDot, 24);
        }
    }
    // Step 4. Arrows and circles (and the one being drawn) over the pieces, under a dragged one.
    for (const BoardShape& shape : shapes()) drawShape(dl, geometry, shape);
    if (drawing_.from != chess::NoSquare && drawing_.to != chess::NoSquare) drawShape(dl, geometry, drawing_);
    if (dragVisible && selected_ != chess::NoSquare)
        drawPiece(dl, fonts, pos.pieceOn(selected_), mouse, sq * 1.08f, geometry.pieces);

    // Step 5. The promotion chooser over the board.
    if (promotionFrom_ != chess::NoSquare) {
        dl->AddRectFilled(origin, ImVec2(origin.x + size, origin.y + size), IM_COL32(0, 0, 0, 90));
        const Color side = pos.sideToMove();
        for (int i = 0; i < 4; ++i) {
            const ImVec2 a = promotionBox(i);
            const ImVec2 b(a.x + sq, a.y + sq);
            const bool hover = mouse.x >= a.x && mouse.x < b.x && mouse.y >= a.y && mouse.y < b.y;
            dl->AddRectFilled(a, b, hover ? boardColours().light : IM_COL32(255, 255, 255, 255));
            dl->AddRect(a, b, pal.panelBorder, 0.0f, 0, border);
            drawPiece(dl, fonts, chess::makePiece(side, promoOrder[i]), ImVec2(a.x + sq * 0.5f, a.y + sq * 0.5f), sq,
                      geometry.pieces);
        }
    }
    drawFrame(dl, origin, size, border);
    return chosen;
}

void drawBoardStatic(ImDrawList* dl, const Fonts& fonts, const chess::Position& pos, Move lastMove,
                     ImVec2 topLeft, float size, bool flipped, bool coordinates) {
    const Geometry geometry{topLeft, size / 8.0f, flipped, pieceAtlas(size / 8.0f)};
    drawBoardBase(dl, fonts, pos, lastMove, geometry, coordinates, chess::NoSquare);
    drawPieces(dl, fonts, pos, geometry);
    // The page's 2 px frame, thinner on small boards so it does not eat the edge squares.
    const float border = std::min(ImGui::GetStyle().FrameBorderSize, std::max(1.0f, size / 160.0f));
    drawFrame(dl, topLeft, size, border);
}

} // namespace chaiba::ui
