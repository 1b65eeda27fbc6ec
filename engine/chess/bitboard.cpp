// Attack tables: leapers precomputed, sliders through "fancy" magic bitboards whose multipliers
// are found at start-up by a seeded search (a few milliseconds, deterministic).
#include "engine/chess/bitboard.h"

#include <cstdlib>

namespace chaiba::chess {

namespace detail {
Magic rookMagics[64];
Magic bishopMagics[64];
Bitboard pawnAttacks[2][64];
Bitboard knightAttacks[64];
Bitboard kingAttacks[64];
Bitboard between[64][64];
Bitboard line[64][64];
ZobristKeys zobrist;
} // namespace detail

namespace {

Bitboard rookTable[0x19000];
Bitboard bishopTable[0x1480];

// xorshift64* (Vigna), the generator Stockfish uses for its magic search.
struct Prng {
    uint64_t s;
    uint64_t next() {
        s ^= s >> 12;
        s ^= s << 25;
        s ^= s >> 27;
        return s * 2685821657736338717ULL;
    }
    uint64_t sparse() { return next() & next() & next(); }
};

Bitboard slidingAttack(const int (*deltas)[2], Square s, Bitboard occupied) {
    Bitboard attack = 0;
    for (int d = 0; d < 4; ++d) {
        int f = fileOf(s) + deltas[d][0], r = rankOf(s) + deltas[d][1];
        while (f >= 0 && f < 8 && r >= 0 && r < 8) {
            const Square t = makeSquare(f, r);
            attack |= squareBit(t);
            if (occupied & squareBit(t)) break;
            f += deltas[d][0];
            r += deltas[d][1];
        }
    }
    return attack;
}

constexpr int kRookDeltas[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
constexpr int kBishopDeltas[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

void initMagics(const int (*deltas)[2], Bitboard* table, detail::Magic* magics) {
    constexpr uint64_t kSeeds[8] = {728, 10316, 55013, 32803, 12281, 15100, 16645, 255};
    static Bitboard occupancy[4096], reference[4096];
    static int epoch[4096];
    int currentEpoch = 0;
    Bitboard* next = table;
    for (Square s = 0; s < 64; ++s) {
        const Bitboard edges =
            ((rankBB(0) | rankBB(7)) & ~rankBB(rankOf(s))) | ((fileBB(0) | fileBB(7)) & ~fileBB(fileOf(s)));
        detail::Magic& m = magics[s];
        m.mask = slidingAttack(deltas, s, 0) & ~edges;
        m.shift = 64 - popCount(m.mask);
        m.attacks = next;
        int size = 0;
        Bitboard b = 0;
        do { // Carry-Rippler: enumerate every subset of the mask.
            occupancy[size] = b;
            reference[size] = slidingAttack(deltas, s, b);
            ++size;
            b = (b - m.mask) & m.mask;
        } while (b);
        Prng rng{kSeeds[rankOf(s)]};
        for (int i = 0; i < size;) {
            for (m.magic = 0; popCount((m.magic * m.mask) >> 56) < 6;) m.magic = rng.sparse();
            ++currentEpoch;
            for (i = 0; i < size; ++i) {
                const unsigned idx = m.index(occupancy[i]);
                if (epoch[idx] < currentEpoch) {
                    epoch[idx] = currentEpoch;
                    next[idx] = reference[i];
                } else if (next[idx] != reference[i]) {
                    break;
                }
            }
        }
        next += size;
    }
}

bool initialised = false;

struct AutoInit {
    AutoInit() { initBitboards(); }
} autoInit;

} // namespace

void initBitboards() {
    if (initialised) return;
    initialised = true;
    for (Square s = 0; s < 64; ++s) {
        const int f = fileOf(s), r = rankOf(s);
        auto add = [&](Bitboard& bb, int df, int dr) {
            if (f + df >= 0 && f + df < 8 && r + dr >= 0 && r + dr < 8)
                bb |= squareBit(makeSquare(f + df, r + dr));
        };
        detail::pawnAttacks[0][s] = detail::pawnAttacks[1][s] = 0;
        add(detail::pawnAttacks[0][s], -1, 1);
        add(detail::pawnAttacks[0][s], 1, 1);
        add(detail::pawnAttacks[1][s], -1, -1);
        add(detail::pawnAttacks[1][s], 1, -1);
        constexpr int kKnight[8][2] = {{1, 2},   {2, 1},   {2, -1}, {1, -2},
                                       {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
        constexpr int kKing[8][2] = {{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
        for (const auto& d : kKnight) add(detail::knightAttacks[s], d[0], d[1]);
        for (const auto& d : kKing) add(detail::kingAttacks[s], d[0], d[1]);
    }
    Prng keys{1070372};
    for (auto& piece : detail::zobrist.psq)
        for (auto& key : piece) key = keys.next();
    for (auto& key : detail::zobrist.enPassant) key = keys.next();
    for (auto& key : detail::zobrist.castling) key = keys.next();
    detail::zobrist.side = keys.next();
    initMagics(kRookDeltas, rookTable, detail::rookMagics);
    initMagics(kBishopDeltas, bishopTable, detail::bishopMagics);
    for (Square a = 0; a < 64; ++a) {
        for (Square b = 0; b < 64; ++b) {
            detail::between[a][b] = detail::line[a][b] = 0;
            if (a == b) continue;
            for (int kind = 0; kind < 2; ++kind) {
                const bool rook = kind == 0;
                const Bitboard fromA = rook ? rookAttacks(a, 0) : bishopAttacks(a, 0);
                if (!(fromA & squareBit(b))) continue;
                const Bitboard fromB = rook ? rookAttacks(b, 0) : bishopAttacks(b, 0);
                detail::line[a][b] = (fromA & fromB) | squareBit(a) | squareBit(b);
                detail::between[a][b] = rook
                                            ? rookAttacks(a, squareBit(b)) & rookAttacks(b, squareBit(a))
                                            : bishopAttacks(a, squareBit(b)) & bishopAttacks(b, squareBit(a));
            }
        }
    }
}

Bitboard attacksOf(PieceType t, Square s, Bitboard occupied) {
    switch (t) {
    case PieceType::Knight: return knightAttacks(s);
    case PieceType::Bishop: return bishopAttacks(s, occupied);
    case PieceType::Rook: return rookAttacks(s, occupied);
    case PieceType::Queen: return queenAttacks(s, occupied);
    case PieceType::King: return kingAttacks(s);
    default: return 0;
    }
}

} // namespace chaiba::chess
