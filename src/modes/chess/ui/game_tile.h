// One live game in the arena's grid: Black's name row, a small static board, White's name row, a
// coloured status line with the last move, and a footer. The whole tile is one button. It scales
// from about 140 to 450 CSS pixels wide and is cheap enough to draw 16 of them every frame.
#pragma once

#include "engine/chess/position.h"
#include "engine/chess/types.h"

#include <string>

namespace chaiba::ui {

struct Fonts;

struct GameTileModel {
    chess::Position position = chess::Position::startPosition(); // the board to show
    chess::Move lastMove;                                        // highlighted; chess::Move() for none
    std::string white, black;             // display names ("openai/gpt-4o", "Engine · level 4")
    std::string whiteRating, blackRating; // "1612" or "" (shown small after the names)
    std::string lastMoveText;             // "23... Nf6" or "" (right end of the status line)
    int lastMoveJudgement = 0;            // search::MoveJudgement of the last move (0: none or good):
                                          // its mark ("?!", "?", "??") follows the move, coloured
    std::string quality;                  // "blunders 1–0 · mistakes 0–2" (White–Black) or ""
    int moveNumber = 1;                   // full-move number (in the tooltip)
    enum class Status { Thinking, Waiting, Retrying, Finished, Paused };
    Status status = Status::Waiting;
    bool whiteToMove = true; // whose row gets the bold name and the status dot
    std::string statusText;  // "thinking 12 s", "retry in 4 s", "1-0 · checkmate"
    std::string footer;      // "game 14 · round 3 · $0.0123" (may be empty)
    bool selected = false;   // thick frame
};

// Draws the tile at the cursor, `width` pixels wide and gameTileHeight(fonts, width) high, and
// advances the cursor. Returns true when clicked. `id` is the ImGui ID of the tile's button and
// its name in the item registry (e.g. "arena.tile.3"); unique within the window.
bool drawGameTile(const Fonts& fonts, const GameTileModel& model, float width, const char* id);
// The height of a tile of this width (the board is square; text rows scale with the width).
float gameTileHeight(const Fonts& fonts, float width);

} // namespace chaiba::ui
