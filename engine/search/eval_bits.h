// The full evaluation's fixed shapes (evaluation.cpp): bitboard helpers of its pawn, piece and king
// terms and the constants that are not fitted, shared with the tool that fits its numbers
// (tests/calibrate/texel_tune.cpp), which must count the same terms.
#pragma once

#include "engine/chess/bitboard.h"

namespace chaiba::search {

// Mobility counts safe squares (no own piece, no enemy-pawn attack) beyond these, N B R Q.
inline constexpr int kMobilityCentre[4] = {4, 7, 7, 14};
// King danger: weighted attacks on the squares around the king, turned into a penalty that grows
// quadratically with the attack (a lone attacker is harmless).
inline constexpr int kAttackWeight[4] = {2, 2, 3, 5}; // N B R Q

// The squares a knight (0), bishop (1), rook (2) or queen (3) on `sq` attacks.
inline chess::Bitboard pieceAttacks(int type, int sq, chess::Bitboard occupied) {
    switch (type) {
    case 0: return chess::knightAttacks(sq);
    case 1: return chess::bishopAttacks(sq, occupied);
    case 2: return chess::rookAttacks(sq, occupied);
    default: return chess::queenAttacks(sq, occupied);
    }
}

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
