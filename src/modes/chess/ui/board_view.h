// The chess board widget: squares, coordinates, pieces (the chosen set's images, or a filled glyph +
// an outline glyph; see board_style.h), last-move
// and check highlights, legal-target dots, click-click and drag-and-drop moves, a promotion
// chooser, a short slide animation, lichess's annotations (right-drag arrows, right-click circles)
// and premoves. It reads a Position and returns the move a person made; it never changes the game.
#pragma once

#include "engine/chess/position.h"
#include "engine/chess/types.h"
#include "src/ui/fonts.h"

#include <imgui.h>

#include <cstdint>
#include <cstddef>
#include <optional>
#include <span>
#include <utility>

namespace chaiba::ui {

// Draws a non-interactive board into `dl`: squares, the last-move and check highlights, optional
// coordinates, the pieces and a border; no ImGui item is submitted (the caller owns the layout and
// any button). Cheap enough for a grid of many small boards (no allocations).
void drawBoardStatic(ImDrawList* dl, const Fonts& fonts, const chess::Position& pos, chess::Move lastMove,
                     ImVec2 topLeft, float size, bool flipped, bool coordinates);

// An annotation drawn with the right mouse button: an arrow, or a circle when from == to.
struct BoardShape {
    enum class Brush : uint8_t { Green, Red, Blue }; // plain, Shift, Alt (as on lichess)
    chess::Square from = chess::NoSquare, to = chess::NoSquare;
    Brush brush = Brush::Green;
};
const char* brushName(BoardShape::Brush brush); // "green", "red", "blue"

struct BoardView {
    bool flipped = false;  // black at the bottom
    bool showCoordinates = true;
    float animationMs = 160.0f;
    // The colour a person may premove with while the other side is to move (none: no premoves).
    // A premove is kept across the opponent's move and returned by draw() as soon as `interactive`
    // and legal (a promotion becomes a queen); an illegal one is dropped silently.
    std::optional<chess::Color> premoveColor;

    // Draws `pos` at the cursor in a square of `size` pixels and advances the cursor. When
    // `interactive`, the side to move can be moved by mouse/touch; the chosen legal move is
    // returned (after the promotion chooser when needed). `lastMove` is highlighted.
    std::optional<chess::Move> draw(const Fonts& fonts, const chess::Position& pos, chess::Move lastMove,
                                    float size, bool interactive, double nowMs);

    // Starts the slide of `move` (already played in the position drawn next).
    void animate(const chess::Position& before, chess::Move move, double nowMs);
    // True while a slide runs, a piece is dragged or an arrow drawn (the page keeps full frame rate).
    bool busy(double nowMs) const;
    // Drops a selection, drag or premove (e.g. when the game is replaced or taken back).
    void clearSelection();

    // The annotations on the board (cleared by a left click and when the position changes) and the
    // pending premove (from, to), for the automation API.
    std::span<const BoardShape> shapes() const { return {shapes_, shapeCount_}; }
    std::optional<std::pair<chess::Square, chess::Square>> premove() const;

    // What the last draw showed, for the automation API: the square's size in device pixels and
    // the size the piece images were rasterised at (0: glyphs were drawn).
    float squarePx() const { return square_; }
    int pieceImagesPx() const { return pieceImagesPx_; }

private:
    int squareAt(float x, float y) const;
    void dropPick(); // selection, drag and promotion chooser; the premove stays
    void toggleShape(BoardShape shape);

    // Screen geometry of the last draw.
    float originX_ = 0, originY_ = 0, square_ = 0;
    int pieceImagesPx_ = 0;
    chess::Square selected_ = chess::NoSquare;
    bool dragging_ = false;
    chess::Square promotionFrom_ = chess::NoSquare, promotionTo_ = chess::NoSquare;
    // Animation.
    chess::Square animFrom_ = chess::NoSquare, animTo_ = chess::NoSquare;
    chess::Piece animPiece_ = chess::Piece::None;
    chess::Square animRookFrom_ = chess::NoSquare, animRookTo_ = chess::NoSquare;
    double animStartMs_ = -1e9;
    uint64_t positionKey_ = 0;
    chess::Square premoveFrom_ = chess::NoSquare, premoveTo_ = chess::NoSquare;
    static constexpr std::size_t kMaxShapes = 32; // more: the oldest goes
    BoardShape shapes_[kMaxShapes];
    std::size_t shapeCount_ = 0;
    BoardShape drawing_; // the right-button drag under way (from: NoSquare when none)
};

} // namespace chaiba::ui
