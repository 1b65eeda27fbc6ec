// Bitboard helpers of the full evaluation's pawn and king terms (evaluation.cpp), shared with the
// tool that fits its numbers (tests/calibrate/texel_tune.cpp), which must count the same terms.
#pragma once

#include "engine/chess/bitboard.h"

namespace chaiba::search {

// Every square ahead of the given ones (towards the enemy), the squares themselves included.
inline chess::Bitboard forwardFill(int color, chess::Bitboard b) {
    if (color == 0) {
        b |= b << 8;
        b |= b << 16;
        b |= b << 32;
    } else {
        b |= b >> 8;
        b |= b >> 16;
        b |= b >> 32;
    }
    return b;
}
// The files next to the given ones.
inline chess::Bitboard adjacentFiles(chess::Bitboard files) {
    return ((files << 1) & ~chess::fileBB(0)) | ((files >> 1) & ~chess::fileBB(7));
}
// The squares `color`'s pawns attack.
inline chess::Bitboard pawnAttacksOf(int color, chess::Bitboard pawns) {
    if (color == 0) return ((pawns << 7) & ~chess::fileBB(7)) | ((pawns << 9) & ~chess::fileBB(0));
    return ((pawns >> 9) & ~chess::fileBB(7)) | ((pawns >> 7) & ~chess::fileBB(0));
}

} // namespace chaiba::search
