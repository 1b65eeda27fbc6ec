// Move notation: SAN (minimal disambiguation, + and #), strict SAN parsing, and UCI (castling as
// king-to-rook in Chess960 mode, king-two-squares in standard mode).
#pragma once

#include "engine/chess/position.h"
#include "engine/chess/types.h"

#include <string>
#include <string_view>

namespace chaiba::chess {

// A parsed move, or why the text is not a legal move in the position.
struct MoveResult {
    Move move;         // valid when error is empty
    std::string error; // e.g. "Nd2 is ambiguous: Nbd2 or Nfd2", "Ke2 is not legal"
    bool ok() const { return error.empty(); }
};

// SAN of the legal move m: "Nf3", "exd5", "e8=Q+", "O-O", "Raxd1#".
std::string toSan(const Position& pos, Move m);
// Strict SAN: piece letters KQRBN, files/ranks, 'x', "=Q" promotions, O-O / O-O-O, an optional
// trailing + or # (not checked against the position) and optional !/? annotations. Redundant
// disambiguation is accepted if it matches; missing disambiguation is an "ambiguous" error.
MoveResult parseSan(const Position& pos, std::string_view san);

// UCI of m: "e2e4", "e7e8q"; castling "e1g1" in standard mode or "e1h1" (king to rook) when
// pos.isChess960().
std::string toUci(const Position& pos, Move m);
// Strict UCI in the position's mode (see toUci); the move must be legal.
MoveResult parseUci(const Position& pos, std::string_view uci);

// SAN if it parses, else UCI (used by the CLI's --apply and by PGN-free scripts).
MoveResult parseSanOrUci(const Position& pos, std::string_view text);

} // namespace chaiba::chess
