// Tapered PeSTO evaluation, and the full evaluation's extra terms; see evaluation.h.
#include "engine/search/evaluation.h"

#include "engine/chess/bitboard.h"
#include "engine/search/board_glue.h"
#include "engine/search/pesto_tables.h"

#include <algorithm>
#include <array>
#include <cstdint>

namespace chaiba::search {

namespace {
constexpr int kBishopPairMg = 25;
constexpr int kBishopPairEg = 45;
constexpr int kTempo = 10;

// A middle-game and an end-game value in one integer, end game in the high half: sums of packed
// values are the packed sums, so one addition per piece serves both phases. Exact while each
// half of a sum stays within int16 (a whole board is under 10 000 centipawns).
constexpr int32_t pack(int mg, int eg) {
    return static_cast<int32_t>(static_cast<uint32_t>(eg) << 16) + mg;
}
int mgOf(int32_t s) {
    return static_cast<int16_t>(static_cast<uint16_t>(static_cast<uint32_t>(s)));
}
int egOf(int32_t s) {
    return static_cast<int16_t>(static_cast<uint16_t>(static_cast<uint32_t>(s + 0x8000) >> 16));
}

// PeSTO's tables packed, with White's values positive and Black's negative (squares mirrored),
// indexed [color][piece][square].
struct SignedTables {
    std::array<std::array<std::array<int32_t, 64>, 6>, 2> v{};
    SignedTables() {
        const PestoTables& t = pestoTables();
        for (int piece = 0; piece < 6; ++piece)
            for (int sq = 0; sq < 64; ++sq) {
                v[0][piece][sq] = pack(t.middleGame[piece][sq], t.endGame[piece][sq]);
                v[1][piece][sq] = -pack(t.middleGame[piece][sq ^ 56], t.endGame[piece][sq ^ 56]);
            }
    }
};
const SignedTables kSigned;

// Step 2 terms (the full evaluation), packed mg/eg, for one side; values after common practice
// (Chess Programming Wiki, PeSTO-based engines) and then checked in self-play.
// Mobility: squares a piece attacks that hold no own piece and no enemy-pawn attack, by count.
constexpr int32_t kMobility[4] = {pack(4, 4), pack(5, 5), pack(2, 4), pack(1, 2)}; // N B R Q
constexpr int kMobilityCentre[4] = {4, 7, 7, 14};
// Passed pawns by relative rank (0 = own back rank).
// PeSTO's pawn table already pays for advancing, so these are about half the usual figures.
constexpr int32_t kPassed[8] = {0, pack(2, 5), pack(4, 8), pack(8, 15), pack(15, 30), pack(30, 55),
                                pack(50, 90), 0};
constexpr int32_t kDoubled = pack(-10, -20);
constexpr int32_t kIsolated = pack(-10, -12);
constexpr int32_t kRookOpen = pack(25, 10);
constexpr int32_t kRookSemiOpen = pack(12, 6);
constexpr int32_t kShieldPawn = pack(12, 0);
// King danger: weighted attacks on the squares around the king, turned into a penalty that grows
// quadratically with the attack (a lone attacker is harmless).
constexpr int kAttackWeight[4] = {2, 2, 3, 5}; // N B R Q

using chess::Bitboard;

Bitboard forwardFill(int color, Bitboard b) {
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
Bitboard adjacentFiles(Bitboard files) {
    return ((files << 1) & ~chess::fileBB(0)) | ((files >> 1) & ~chess::fileBB(7));
}
Bitboard pawnAttacksOf(int color, Bitboard pawns) {
    if (color == 0) return ((pawns << 7) & ~chess::fileBB(7)) | ((pawns << 9) & ~chess::fileBB(0));
    return ((pawns >> 9) & ~chess::fileBB(7)) | ((pawns >> 7) & ~chess::fileBB(0));
}

// Pawn-structure terms for `color`: doubled, isolated, passed. They depend on the pawns alone.
int32_t pawnTerms(int color, Bitboard ownPawns, Bitboard enemyPawns) {
    int32_t s = 0;
    for (Bitboard b = ownPawns; b;) {
        const int sq = chess::popLsb(b);
        const int file = chess::fileOf(sq);
        const Bitboard fileMask = chess::fileBB(file);
        const Bitboard ahead = forwardFill(color, chess::squareBit(sq)) & ~chess::squareBit(sq);
        if (ahead & ownPawns) s += kDoubled;
        if (!(adjacentFiles(fileMask) & ownPawns)) s += kIsolated;
        const Bitboard front = forwardFill(color, ahead | adjacentFiles(ahead));
        if (!(front & enemyPawns) && !(ahead & ownPawns)) {
            const int relRank = color == 0 ? chess::rankOf(sq) : 7 - chess::rankOf(sq);
            s += kPassed[relRank];
        }
    }
    return s;
}

// The pawn terms of both sides (White minus Black), cached by the two pawn bitboards: a small
// direct-mapped table per thread; a hit returns exactly what the computation would.
int32_t pawnStructure(Bitboard white, Bitboard black) {
    struct Entry {
        Bitboard white = ~0ull, black = ~0ull;
        int32_t score = 0;
    };
    static thread_local std::array<Entry, 4096> cache;
    const uint64_t h = (white * 0x9E3779B97F4A7C15ull) ^ (black * 0xC2B2AE3D27D4EB4Full);
    Entry& e = cache[(h >> 52) & 4095];
    if (e.white != white || e.black != black) {
        e.white = white;
        e.black = black;
        e.score = pawnTerms(0, white, black) - pawnTerms(1, black, white);
    }
    return e.score;
}

// The full evaluation's piece terms for `color`, packed, from that side's view.
int32_t sideTerms(const chess::Position& pos, int color, Bitboard ownPawns, Bitboard enemyPawns,
                  Bitboard enemyPawnAttacks) {
    using chess::PieceType;
    const chess::Color us = static_cast<chess::Color>(color);
    const chess::Color them = static_cast<chess::Color>(color ^ 1);
    const Bitboard occupied = pos.pieces();
    const Bitboard own = pos.pieces(us);
    int32_t s = 0;

    // Pieces: mobility, rooks on open files, attacks on the enemy king's zone.
    const Bitboard safe = ~own & ~enemyPawnAttacks;
    const chess::Square enemyKing = pos.kingSquare(them);
    const Bitboard kingZone = chess::kingAttacks(enemyKing) | chess::squareBit(enemyKing);
    int attackers = 0;
    int attackUnits = 0;
    const PieceType types[4] = {PieceType::Knight, PieceType::Bishop, PieceType::Rook, PieceType::Queen};
    for (int t = 0; t < 4; ++t) {
        for (Bitboard b = pos.pieces(us, types[t]); b;) {
            const int sq = chess::popLsb(b);
            Bitboard att;
            switch (t) {
            case 0: att = chess::knightAttacks(sq); break;
            case 1: att = chess::bishopAttacks(sq, occupied); break;
            case 2: att = chess::rookAttacks(sq, occupied); break;
            default: att = chess::queenAttacks(sq, occupied); break;
            }
            s += kMobility[t] * (chess::popCount(att & safe) - kMobilityCentre[t]);
            if (const Bitboard zone = att & kingZone) {
                ++attackers;
                attackUnits += kAttackWeight[t] * chess::popCount(zone);
            }
            if (t == 2) {
                const Bitboard fileMask = chess::fileBB(chess::fileOf(sq));
                if (!(fileMask & ownPawns)) s += (fileMask & enemyPawns) ? kRookSemiOpen : kRookOpen;
            }
        }
    }
    if (attackers >= 2 && pos.pieces(us, PieceType::Queen)) {
        const int danger = attackUnits * attackUnits / 4;
        s += pack(std::min(danger, 500), 0);
    }

    // Our own king's pawn shield (the three files around it, one or two ranks ahead).
    const chess::Square king = pos.kingSquare(us);
    const int kingFile = chess::fileOf(king);
    const Bitboard files = chess::fileBB(kingFile) | adjacentFiles(chess::fileBB(kingFile));
    const int kingRank = chess::rankOf(king);
    Bitboard shieldRanks = 0;
    if (color == 0 && kingRank <= 1) shieldRanks = chess::rankBB(kingRank + 1) | chess::rankBB(kingRank + 2);
    if (color == 1 && kingRank >= 6) shieldRanks = chess::rankBB(kingRank - 1) | chess::rankBB(kingRank - 2);
    s += kShieldPawn * chess::popCount(ownPawns & files & shieldRanks);
    return s;
}

} // namespace

int evaluate(const chess::Position& position, EvalTerms terms) {
    int32_t packed = 0; // White minus Black
    int phase = 0;
    int bishops[2] = {0, 0};
    glue::forEachPiece(position, [&](int color, int piece, int square) {
        packed += kSigned.v[color][piece][square];
        phase += kPhaseWeight[piece];
        if (piece == static_cast<int>(PestoPiece::Bishop)) ++bishops[color];
    });
    if (bishops[0] >= 2) packed += pack(kBishopPairMg, kBishopPairEg);
    if (bishops[1] >= 2) packed -= pack(kBishopPairMg, kBishopPairEg);
    if (terms == EvalTerms::Full) {
        const Bitboard white = position.pieces(chess::Color::White, chess::PieceType::Pawn);
        const Bitboard black = position.pieces(chess::Color::Black, chess::PieceType::Pawn);
        packed += pawnStructure(white, black);
        packed += sideTerms(position, 0, white, black, pawnAttacksOf(1, black));
        packed -= sideTerms(position, 1, black, white, pawnAttacksOf(0, white));
    }
    const int sign = glue::sideIndex(position) == 0 ? 1 : -1;
    const int mgPhase = std::min(phase, kFullPhase);
    const int score = sign * (mgOf(packed) * mgPhase + egOf(packed) * (kFullPhase - mgPhase)) / kFullPhase;
    return score + kTempo;
}

} // namespace chaiba::search
