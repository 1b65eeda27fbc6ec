// Legal move generation with check and pin masks (no make/unmake legality test), and perft.
#pragma once

#include "engine/chess/position.h"
#include "engine/chess/types.h"

#include <cstdint>

namespace chaiba::chess {

// Appends (after clearing) every legal move of pos. Castling appears once, as king-takes-rook.
void generateLegal(const Position& pos, MoveList& moves);
// Legal captures (incl. en passant) and all promotions (incl. quiet ones): for quiescence search.
// Every move returned is legal.
void generateCaptures(const Position& pos, MoveList& moves);
// Legal non-captures and non-promotions (the complement of generateCaptures within generateLegal).
void generateQuiets(const Position& pos, MoveList& moves);
// Number of legal moves without storing them (fast; used by perft at the last ply).
int countLegal(const Position& pos);
// True if m is legal in pos (e.g. a hash/killer move in search, or a parsed move).
bool isLegal(const Position& pos, Move m);

// Leaf-node count to `depth` (bulk counting at the last ply). pos is restored on return.
uint64_t perft(Position& pos, int depth);

} // namespace chaiba::chess
