// Bitboard helpers and precomputed attack tables (magic bitboards for sliders), initialised once
// at program start (initBitboards() is idempotent and also called by Position's factories).
#pragma once

#include "engine/chess/types.h"

#include <bit>
#include <cstdint>

namespace chaiba::chess {

void initBitboards();

constexpr Bitboard kFileA = 0x0101010101010101ULL;
constexpr Bitboard kRank1 = 0xFFULL;
constexpr Bitboard fileBB(int file) {
    return kFileA << file;
}
constexpr Bitboard rankBB(int rank) {
    return kRank1 << (8 * rank);
}

// Generic x86-64 has no popcnt instruction: there std::popcount is a call into libgcc (about 5% of
// the strongest search's time), and the same bit-twiddling count inline is cheaper. Targets with
// the instruction (WASM, ARM, x86-64 built with -mpopcnt) keep it.
inline int popCount(Bitboard b) {
#if (defined(__x86_64__) || defined(__i386__)) && !defined(__POPCNT__)
    b -= (b >> 1) & 0x5555555555555555ULL;
    b = (b & 0x3333333333333333ULL) + ((b >> 2) & 0x3333333333333333ULL);
    b = (b + (b >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return static_cast<int>((b * 0x0101010101010101ULL) >> 56);
#else
    return std::popcount(b);
#endif
}
inline Square lsb(Bitboard b) {
    return std::countr_zero(b);
}
inline Square popLsb(Bitboard& b) {
    Square s = lsb(b);
    b &= b - 1;
    return s;
}
constexpr bool moreThanOne(Bitboard b) {
    return (b & (b - 1)) != 0;
}

namespace detail {
struct Magic {
    Bitboard mask;
    Bitboard magic;
    const Bitboard* attacks;
    int shift;
    unsigned index(Bitboard occupied) const { return unsigned(((occupied & mask) * magic) >> shift); }
};
extern Magic rookMagics[64];
extern Magic bishopMagics[64];
extern Bitboard pawnAttacks[2][64];
extern Bitboard knightAttacks[64];
extern Bitboard kingAttacks[64];
extern Bitboard between[64][64]; // squares strictly between a and b on a line, else 0
extern Bitboard line[64][64];    // the full line through a and b (incl. them), else 0
// Zobrist keys: piece (by Piece value 0..15) on square, en-passant file, castling rights, side.
struct ZobristKeys {
    uint64_t psq[16][64];
    uint64_t enPassant[8];
    uint64_t castling[16];
    uint64_t side;
};
extern ZobristKeys zobrist;
} // namespace detail

inline Bitboard pawnAttacks(Color c, Square s) {
    return detail::pawnAttacks[index(c)][s];
}
inline Bitboard knightAttacks(Square s) {
    return detail::knightAttacks[s];
}
inline Bitboard kingAttacks(Square s) {
    return detail::kingAttacks[s];
}
inline Bitboard rookAttacks(Square s, Bitboard occupied) {
    const detail::Magic& m = detail::rookMagics[s];
    return m.attacks[m.index(occupied)];
}
inline Bitboard bishopAttacks(Square s, Bitboard occupied) {
    const detail::Magic& m = detail::bishopMagics[s];
    return m.attacks[m.index(occupied)];
}
inline Bitboard queenAttacks(Square s, Bitboard occupied) {
    return rookAttacks(s, occupied) | bishopAttacks(s, occupied);
}
// Attacks of a piece type (not pawns) from s.
Bitboard attacksOf(PieceType t, Square s, Bitboard occupied);
inline Bitboard betweenBB(Square a, Square b) {
    return detail::between[a][b];
}
inline Bitboard lineBB(Square a, Square b) {
    return detail::line[a][b];
}

} // namespace chaiba::chess
