// Attack tables: leapers precomputed, sliders through "fancy" magic bitboards. The multipliers are
// the ones a seeded search finds (the search below, Stockfish's generator and seeds), written out:
// searched at every start-up they cost each process about 50-70 ms natively (popcount is a library
// call in this build), most of `chaiba --help`'s time and of each unit test's; filled from the
// stored numbers the whole start-up takes about 6 ms. Each stored number is checked as its table
// is filled, and a square whose number collides is searched for as before.
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

// What the seeded search finds for each square (a1 = 0 ... h8 = 63).
constexpr uint64_t kRookMagics[64] = {
    0x0a80004000801220ull, 0x8040004010002008ull, 0x2080200010008008ull, 0x1100100008210004ull,
    0xc200209084020008ull, 0x2100010004000208ull, 0x0400081000822421ull, 0x0200010422048844ull,
    0x0800800080400024ull, 0x0001402000401000ull, 0x3000801000802001ull, 0x4400800800100083ull,
    0x0904802402480080ull, 0x4040800400020080ull, 0x0018808042000100ull, 0x4040800080004100ull,
    0x0040048001458024ull, 0x00a0004000205000ull, 0x3100808010002000ull, 0x4825010010000820ull,
    0x5004808008000401ull, 0x2024818004000a00ull, 0x0005808002000100ull, 0x2100060004806104ull,
    0x0080400880008421ull, 0x4062220600410280ull, 0x010a004a00108022ull, 0x0000100080080080ull,
    0x0021000500080010ull, 0x0044000202001008ull, 0x0000100400080102ull, 0xc020128200040545ull,
    0x0080002000400040ull, 0x0000804000802004ull, 0x0000120022004080ull, 0x010a386103001001ull,
    0x9010080080800400ull, 0x8440020080800400ull, 0x0004228824001001ull, 0x000000490a000084ull,
    0x0080002000504000ull, 0x200020005000c000ull, 0x0012088020420010ull, 0x0010010080080800ull,
    0x0085001008010004ull, 0x0002000204008080ull, 0x0040413002040008ull, 0x0000304081020004ull,
    0x0080204000800080ull, 0x3008804000290100ull, 0x1010100080200080ull, 0x2008100208028080ull,
    0x5000850800910100ull, 0x8402019004680200ull, 0x0120911028020400ull, 0x0000008044010200ull,
    0x0020850200244012ull, 0x0020850200244012ull, 0x0000102001040841ull, 0x140900040a100021ull,
    0x000200282410a102ull, 0x000200282410a102ull, 0x000200282410a102ull, 0x4048240043802106ull
};
constexpr uint64_t kBishopMagics[64] = {
    0x9060124418008010ull, 0x0020010250810120ull, 0x2010010220280081ull, 0x002806004050c040ull,
    0x0002021018000000ull, 0x2001112010000400ull, 0x0881010120218080ull, 0x1030820110010500ull,
    0x0000120222042400ull, 0x2000020404040044ull, 0x8000480094208000ull, 0x0003422a02000001ull,
    0x000a220210100040ull, 0x8004820202226000ull, 0x0018234854100800ull, 0x0100004042101040ull,
    0x0004001004082820ull, 0x0010000810010048ull, 0x1014004208081300ull, 0x2080818802044202ull,
    0x0040880c00a00100ull, 0x0080400200522010ull, 0x0001000188180b04ull, 0x0080249202020204ull,
    0x1004400004100410ull, 0x00013100a0022206ull, 0x2148500001040080ull, 0x4241080011004300ull,
    0x4020848004002000ull, 0x10101380d1004100ull, 0x0008004422020284ull, 0x01010a1041008080ull,
    0x0808080400082121ull, 0x0808080400082121ull, 0x0091128200100c00ull, 0x0202200802010104ull,
    0x8c0a020200440085ull, 0x01a0008080b10040ull, 0x0889520080122800ull, 0x100902022202010aull,
    0x04081a0816002000ull, 0x0000681208005000ull, 0x8170840041008802ull, 0x0a00004200810805ull,
    0x0830404408210100ull, 0x2602208106006102ull, 0x1048300680802628ull, 0x2602208106006102ull,
    0x0602010120110040ull, 0x0941010801043000ull, 0x000040440a210428ull, 0x0008240020880021ull,
    0x0400002012048200ull, 0x00ac102001210220ull, 0x0220021002009900ull, 0x84440c080a013080ull,
    0x0001008044200440ull, 0x0004c04410841000ull, 0x2000500104011130ull, 0x1a0c010011c20229ull,
    0x0044800112202200ull, 0x0434804908100424ull, 0x0300404822c08200ull, 0x48081010008a2a80ull
};

constexpr int kRookDeltas[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
constexpr int kBishopDeltas[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

void initMagics(const int (*deltas)[2], const uint64_t* known, Bitboard* table, detail::Magic* magics) {
    constexpr uint64_t kSeeds[8] = {728, 10316, 55013, 32803, 12281, 15100, 16645, 255};
    static Bitboard occupancy[4096], reference[4096];
    // The epoch of each slot's last write, counted across both calls (rooks, then bishops): counted
    // afresh per call, the rooks' later epochs made the bishops' first tries look like collisions.
    static int epoch[4096];
    static int currentEpoch = 0;
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
        bool tryKnown = true;
        for (int i = 0; i < size;) {
            if (tryKnown) {
                m.magic = known[s];
                tryKnown = false;
            } else {
                for (m.magic = 0; popCount((m.magic * m.mask) >> 56) < 6;) m.magic = rng.sparse();
            }
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
    initMagics(kRookDeltas, kRookMagics, rookTable, detail::rookMagics);
    initMagics(kBishopDeltas, kBishopMagics, bishopTable, detail::bishopMagics);
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
