// Tapered PeSTO evaluation, and the full evaluation's extra terms; see evaluation.h.
#include "engine/search/evaluation.h"

#include "engine/chess/bitboard.h"
#include "engine/search/board_glue.h"
#include "engine/search/eval_bits.h"
#include "engine/search/eval_params.h"
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
    using Table = std::array<std::array<int16_t, 64>, 6>;
    std::array<std::array<std::array<int32_t, 64>, 6>, 2> v{};
    SignedTables(const Table& mg, const Table& eg) {
        for (int piece = 0; piece < 6; ++piece)
            for (int sq = 0; sq < 64; ++sq) {
                v[0][piece][sq] = pack(mg[piece][sq], eg[piece][sq]);
                v[1][piece][sq] = -pack(mg[piece][sq ^ 56], eg[piece][sq ^ 56]);
            }
    }
};
const SignedTables kSigned(pestoTables().middleGame, pestoTables().endGame);

// The full evaluation's numbers (eval_params.h), packed once: tables signed and mirrored as
// above, the terms as packed mg/eg pairs for one side.
struct FullTerms {
    SignedTables pst;
    int32_t bishopPair = 0;
    int32_t mobility[4] = {}; // N B R Q
    int32_t passed[8] = {};
    int32_t doubled = 0, isolated = 0, rookOpen = 0, rookSemiOpen = 0, shieldPawn = 0;
    int kingDangerScale = 64;
    explicit FullTerms(const EvalParams& p) : pst(p.pstMg, p.pstEg) {
        bishopPair = pack(p.bishopPairMg, p.bishopPairEg);
        for (int t = 0; t < 4; ++t) mobility[t] = pack(p.mobilityMg[t], p.mobilityEg[t]);
        for (int r = 0; r < 8; ++r) passed[r] = pack(p.passedMg[r], p.passedEg[r]);
        doubled = pack(p.doubledMg, p.doubledEg);
        isolated = pack(p.isolatedMg, p.isolatedEg);
        rookOpen = pack(p.rookOpenMg, p.rookOpenEg);
        rookSemiOpen = pack(p.rookSemiOpenMg, p.rookSemiOpenEg);
        shieldPawn = pack(p.shieldMg, p.shieldEg);
        kingDangerScale = p.kingDangerScale;
    }
};
const FullTerms kFullHandSet(handSetEvalParams());
const FullTerms kFullTuned(tunedEvalParams());

using chess::Bitboard;

// Pawn-structure terms for `color`: doubled, isolated, passed. They depend on the pawns alone.
int32_t pawnTerms(const FullTerms& terms, int color, Bitboard ownPawns, Bitboard enemyPawns) {
    int32_t s = 0;
    for (Bitboard b = ownPawns; b;) {
        const int sq = chess::popLsb(b);
        const int file = chess::fileOf(sq);
        const Bitboard fileMask = chess::fileBB(file);
        const Bitboard ahead = forwardFill(color, chess::squareBit(sq)) & ~chess::squareBit(sq);
        if (ahead & ownPawns) s += terms.doubled;
        if (!(adjacentFiles(fileMask) & ownPawns)) s += terms.isolated;
        const Bitboard front = forwardFill(color, ahead | adjacentFiles(ahead));
        if (!(front & enemyPawns) && !(ahead & ownPawns)) {
            const int relRank = color == 0 ? chess::rankOf(sq) : 7 - chess::rankOf(sq);
            s += terms.passed[relRank];
        }
    }
    return s;
}

// Both sides' passed pawns.
// Pawns that defend each other or stand side by side (FullMore): worth more the further they are,
// less when an enemy pawn blocks their file.
int32_t connectedPawns(int color, Bitboard ownPawns, Bitboard enemyPawns) {
    constexpr int kConnected[8] = {0, 2, 3, 4, 10, 17, 34, 0};
    int32_t s = 0;
    for (Bitboard b = ownPawns; b;) {
        const int sq = chess::popLsb(b);
        const Bitboard bit = chess::squareBit(sq);
        const int support = chess::popCount(pawnAttacksOf(color ^ 1, bit) & ownPawns);
        const bool phalanx = (adjacentFiles(bit) & ownPawns) != 0;
        if (!support && !phalanx) continue;
        const bool opposed = (forwardFill(color, bit) & ~bit & enemyPawns) != 0;
        const int r = color == 0 ? chess::rankOf(sq) : 7 - chess::rankOf(sq);
        const int v = kConnected[r] * (2 + phalanx - opposed) + 12 * support;
        s += pack(v, r > 2 ? v * (r - 2) / 4 : 0);
    }
    return s;
}

Bitboard passedPawns(int color, Bitboard ownPawns, Bitboard enemyPawns) {
    Bitboard passed = 0;
    for (Bitboard b = ownPawns; b;) {
        const int sq = chess::popLsb(b);
        const Bitboard ahead = forwardFill(color, chess::squareBit(sq)) & ~chess::squareBit(sq);
        const Bitboard front = forwardFill(color, ahead | adjacentFiles(ahead));
        if (!(front & enemyPawns) && !(ahead & ownPawns)) passed |= chess::squareBit(sq);
    }
    return passed;
}

// The pawn terms of both sides (White minus Black), cached by the two pawn bitboards: a small
// direct-mapped table per thread and set of numbers; a hit returns exactly what the computation
// would. `passed`, when asked for, gets both sides' passed pawns. An empty entry stands for "no
// pawns", whose terms are indeed 0, so the tables start as zeros (no data in the binary: a
// non-zero start cost the page 10+ KB gzipped).
int32_t pawnStructure(const FullTerms& terms, Bitboard white, Bitboard black, Bitboard* passed = nullptr,
                      bool more = false) {
    struct Entry {
        Bitboard white = 0, black = 0, passed = 0;
        int32_t score = 0, connected = 0;
        bool passedKnown = false, connectedKnown = false;
    };
    static thread_local std::array<std::array<Entry, 4096>, 2> caches;
    const uint64_t h = (white * 0x9E3779B97F4A7C15ull) ^ (black * 0xC2B2AE3D27D4EB4Full);
    Entry& e = caches[&terms == &kFullTuned ? 1 : 0][(h >> 52) & 4095];
    if (e.white != white || e.black != black) {
        e.white = white;
        e.black = black;
        e.score = pawnTerms(terms, 0, white, black) - pawnTerms(terms, 1, black, white);
        e.passedKnown = false;
        e.connectedKnown = false;
    }
    if (more && !e.connectedKnown) {
        e.connected = connectedPawns(0, white, black) - connectedPawns(1, black, white);
        e.connectedKnown = true;
    }
    if (passed) {
        if (!e.passedKnown) {
            e.passed = passedPawns(0, white, black) | passedPawns(1, black, white);
            e.passedKnown = true;
        }
        *passed = e.passed;
    }
    return more ? e.score + e.connected : e.score;
}

// The squares one side attacks, by the attacking piece (FullPlus's threats).
struct AttackMap {
    Bitboard pawns = 0, minors = 0, rooks = 0, queens = 0, king = 0;
    Bitboard knights = 0, bishops = 0; // the minors apart (FullKing's safe checks)
    Bitboard all() const { return pawns | minors | rooks | queens | king; }
};

// Safe checks (FullKing): squares from which a piece of `color` would check the enemy king that the
// enemy does not guard, each kind of piece counted once.
int32_t safeChecks(const chess::Position& pos, int color, const AttackMap& ours, const AttackMap& theirs) {
    const chess::Color us = static_cast<chess::Color>(color);
    const chess::Color them = static_cast<chess::Color>(color ^ 1);
    const int king = pos.kingSquare(them);
    const Bitboard occupied = pos.pieces();
    const Bitboard safe = ~pos.pieces(us) & ~theirs.all();
    const Bitboard diagonal = chess::bishopAttacks(king, occupied), straight = chess::rookAttacks(king, occupied);
    int32_t s = 0;
    if (chess::knightAttacks(king) & ours.knights & safe) s += pack(40, 5);
    if (diagonal & ours.bishops & safe) s += pack(25, 5);
    if (straight & ours.rooks & safe) s += pack(45, 5);
    if ((diagonal | straight) & ours.queens & safe) s += pack(35, 5);
    return s;
}

// The full evaluation's piece terms for `color`, packed, from that side's view; the squares its
// pieces attack go to `attacks` when given.
int32_t sideTerms(const FullTerms& terms, const chess::Position& pos, int color, Bitboard ownPawns,
                  Bitboard enemyPawns, Bitboard enemyPawnAttacks, AttackMap* attacks = nullptr, bool more = false) {
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
            const Bitboard att = pieceAttacks(t, sq, occupied);
            if (attacks) {
                (t < 2 ? attacks->minors : t == 2 ? attacks->rooks : attacks->queens) |= att;
                if (t < 2) (t == 0 ? attacks->knights : attacks->bishops) |= att;
            }
            s += terms.mobility[t] * (chess::popCount(att & safe) - kMobilityCentre[t]);
            if (const Bitboard zone = att & kingZone) {
                ++attackers;
                attackUnits += kAttackWeight[t] * chess::popCount(zone);
            }
            if (more) {
                const int r = color == 0 ? chess::rankOf(sq) : 7 - chess::rankOf(sq);
                const Bitboard bit = chess::squareBit(sq);
                // An outpost: a minor on the 4th-6th rank, defended by a pawn, that no enemy pawn
                // can ever chase away.
                if (t < 2 && r >= 3 && r <= 5 && (pawnAttacksOf(color, ownPawns) & bit) &&
                    !(forwardFill(color, adjacentFiles(bit)) & enemyPawns))
                    s += t == 0 ? pack(30, 20) : pack(15, 8);
                // A rook on the 7th with the enemy king behind it or pawns to eat.
                if (t == 2 && r == 6) {
                    const int enemyKingRank = color == 0 ? chess::rankOf(enemyKing) : 7 - chess::rankOf(enemyKing);
                    if (enemyKingRank == 7 || (enemyPawns & chess::rankBB(color == 0 ? 6 : 1))) s += pack(15, 30);
                }
            }
            if (t == 2) {
                const Bitboard fileMask = chess::fileBB(chess::fileOf(sq));
                if (!(fileMask & ownPawns))
                    s += (fileMask & enemyPawns) ? terms.rookSemiOpen : terms.rookOpen;
            }
        }
    }
    if (attackers >= 2 && pos.pieces(us, PieceType::Queen)) {
        const int danger = attackUnits * attackUnits / 4;
        s += pack(std::min(danger, 500) * terms.kingDangerScale / 64, 0);
    }

    // Our own king's pawn shield (the three files around it, one or two ranks ahead).
    const chess::Square king = pos.kingSquare(us);
    const int kingFile = chess::fileOf(king);
    const Bitboard files = chess::fileBB(kingFile) | adjacentFiles(chess::fileBB(kingFile));
    const int kingRank = chess::rankOf(king);
    Bitboard shieldRanks = 0;
    if (color == 0 && kingRank <= 1) shieldRanks = chess::rankBB(kingRank + 1) | chess::rankBB(kingRank + 2);
    if (color == 1 && kingRank >= 6) shieldRanks = chess::rankBB(kingRank - 1) | chess::rankBB(kingRank - 2);
    s += terms.shieldPawn * chess::popCount(ownPawns & files & shieldRanks);
    return s;
}

// FullPlus's threats by `color` on the other side's pieces, packed, from `color`'s view: a piece
// attacked by a pawn, a rook or queen attacked by a minor, a queen by a rook, and a piece the
// other side does not defend. Numbers of the size engines of this strength use, hand-set.
int32_t threats(const chess::Position& pos, int color, const AttackMap& ours, const AttackMap& theirs) {
    using chess::PieceType;
    const chess::Color them = static_cast<chess::Color>(color ^ 1);
    const Bitboard minors = pos.pieces(them, PieceType::Knight) | pos.pieces(them, PieceType::Bishop);
    const Bitboard rooks = pos.pieces(them, PieceType::Rook);
    const Bitboard queens = pos.pieces(them, PieceType::Queen);
    const Bitboard pieces = minors | rooks | queens;
    int32_t s = 0;
    s += pack(60, 40) * chess::popCount(ours.pawns & pieces);
    s += pack(40, 45) * chess::popCount(ours.minors & (rooks | queens));
    s += pack(40, 30) * chess::popCount(ours.rooks & queens);
    const Bitboard undefended = (pieces | pos.pieces(them, PieceType::Pawn)) & ~theirs.all();
    s += pack(25, 15) * chess::popCount(ours.all() & undefended);
    return s;
}

// FullPlus's passed-pawn terms of `color`, packed (end game only), from its view: the enemy king
// far from the square in front of the pawn and our king close to it count more the further the
// pawn has come.
int32_t passedKingTerms(const chess::Position& pos, int color, Bitboard passed, bool more = false) {
    const chess::Color us = static_cast<chess::Color>(color);
    const chess::Color them = static_cast<chess::Color>(color ^ 1);
    const int ourKing = pos.kingSquare(us), theirKing = pos.kingSquare(them);
    auto distance = [](int a, int b) {
        return std::max(std::abs(chess::fileOf(a) - chess::fileOf(b)), std::abs(chess::rankOf(a) - chess::rankOf(b)));
    };
    int eg = 0, mg = 0;
    for (Bitboard b = passed & pos.pieces(us, chess::PieceType::Pawn); b;) {
        const int sq = chess::popLsb(b);
        const int relRank = color == 0 ? chess::rankOf(sq) : 7 - chess::rankOf(sq);
        if (relRank < 3) continue;
        const int front = color == 0 ? sq + 8 : sq - 8;
        const int weight = relRank - 2; // 1 on the 4th rank ... 4 on the 7th
        eg += weight * (5 * std::min(distance(theirKing, front), 5) - 2 * std::min(distance(ourKing, front), 5));
        // A passer whose next square is taken moves no further for now.
        if (more && (pos.pieces() & chess::squareBit(front))) {
            eg -= weight * 10;
            mg -= weight * 4;
        }
    }
    return pack(mg, eg);
}

// FullPlus's end-game scale in 64ths for the side the end-game score favours: material that
// cannot force a win without pawns, and opposite-coloured bishops alone, are drawn towards 0.
int endGameScale(const chess::Position& pos, int egScore) {
    using chess::PieceType;
    const chess::Color strong = egScore >= 0 ? chess::Color::White : chess::Color::Black;
    const chess::Color weak = strong == chess::Color::White ? chess::Color::Black : chess::Color::White;
    auto nonPawn = [&](chess::Color c) {
        return 320 * chess::popCount(pos.pieces(c, PieceType::Knight)) +
               330 * chess::popCount(pos.pieces(c, PieceType::Bishop)) +
               500 * chess::popCount(pos.pieces(c, PieceType::Rook)) +
               950 * chess::popCount(pos.pieces(c, PieceType::Queen));
    };
    if (!pos.pieces(strong, PieceType::Pawn) && nonPawn(strong) - nonPawn(weak) <= 330)
        return nonPawn(strong) < 400 ? 0 : 12; // a lone minor cannot mate; a minor up rarely wins
    const Bitboard bishops = pos.pieces(PieceType::Bishop);
    const Bitboard others = pos.pieces(PieceType::Knight) | pos.pieces(PieceType::Rook) | pos.pieces(PieceType::Queen);
    if (!others && chess::popCount(pos.pieces(strong, PieceType::Bishop)) == 1 &&
        chess::popCount(pos.pieces(weak, PieceType::Bishop)) == 1) {
        constexpr Bitboard kDark = 0xAA55AA55AA55AA55ull;
        if (chess::popCount(bishops & kDark) == 1) return 32; // one bishop on each colour
    }
    return 64;
}

int evaluateUncached(const chess::Position& position, EvalTerms terms);
EvalParts partsOf(const chess::Position& position, EvalTerms terms);

// The full evaluations' results, cached by the position's Zobrist key mixed with the set of terms:
// a direct-mapped table per thread, 8 bytes an entry (the key's top 48 bits and the score; the
// bottom 16 bits are the index, so the whole 64-bit key is matched). A hit returns exactly what the
// computation would (the key covers the pieces and the side to move, all the evaluation reads), so
// a search with the cache visits the same tree as one without it, only sooner: the bench
// signatures pin that. The search evaluates a position again across its iterations, at re-searches
// and transpositions: about a fifth of the strongest level's evaluations hit (2^14 entries: 16%,
// 2^16: 21%, 2^18: 29%). PeSTO alone costs less than a probe and goes uncached. The table starts
// as zeros, which match no key whose top 48 bits are not all zero.
thread_local std::array<uint64_t, 1 << 16> evalCache;
uint64_t evalCacheKey(uint64_t positionKey, EvalTerms terms) {
    return positionKey ^ ((static_cast<uint64_t>(terms) + 1) * 0x9E3779B97F4A7C15ull);
}

int evaluateCached(const chess::Position& position, EvalTerms terms) {
    const uint64_t key = evalCacheKey(position.hash(), terms);
    uint64_t& e = evalCache[key & (evalCache.size() - 1)];
    if ((e >> 16) == (key >> 16)) return static_cast<int16_t>(static_cast<uint16_t>(e));
    const int score = evaluateUncached(position, terms);
    if (score < -32768 || score > 32767) return score; // never on a real board; not stored if it were
    e = (key & ~uint64_t{0xFFFF}) | static_cast<uint16_t>(static_cast<int16_t>(score));
    return score;
}

} // namespace

void prefetchEvaluation(uint64_t positionKey, EvalTerms terms) {
    if (terms != EvalTerms::Pesto)
        __builtin_prefetch(&evalCache[evalCacheKey(positionKey, terms) & (evalCache.size() - 1)]);
}

int evaluate(const chess::Position& position, EvalTerms terms) {
    return terms == EvalTerms::Pesto ? evaluateUncached(position, terms) : evaluateCached(position, terms);
}

EvalParts evaluateParts(const chess::Position& position, EvalTerms terms) {
    return partsOf(position, terms);
}

namespace {

EvalParts partsOf(const chess::Position& position, EvalTerms terms) {
    int32_t packed = 0; // White minus Black
    int phase = 0;
    int bishops[2] = {0, 0};
    const bool king = terms == EvalTerms::FullKing || terms == EvalTerms::FullKingTuned;
    const FullTerms& full =
        terms == EvalTerms::FullTuned || terms == EvalTerms::FullKingTuned ? kFullTuned : kFullHandSet;
    const bool more = terms == EvalTerms::FullMore || king;
    const bool plus = terms == EvalTerms::FullPlus || more;
    const SignedTables& tables = terms == EvalTerms::Pesto ? kSigned : full.pst;
    glue::forEachPiece(position, [&](int color, int piece, int square) {
        packed += tables.v[color][piece][square];
        phase += kPhaseWeight[piece];
        if (piece == static_cast<int>(PestoPiece::Bishop)) ++bishops[color];
    });
    if (terms != EvalTerms::Pesto) {
        if (bishops[0] >= 2) packed += full.bishopPair;
        if (bishops[1] >= 2) packed -= full.bishopPair;
        const Bitboard white = position.pieces(chess::Color::White, chess::PieceType::Pawn);
        const Bitboard black = position.pieces(chess::Color::Black, chess::PieceType::Pawn);
        Bitboard passed = 0;
        packed += pawnStructure(full, white, black, plus ? &passed : nullptr, more);
        AttackMap attacks[2];
        attacks[0].pawns = pawnAttacksOf(0, white);
        attacks[1].pawns = pawnAttacksOf(1, black);
        packed += sideTerms(full, position, 0, white, black, attacks[1].pawns, plus ? &attacks[0] : nullptr, more);
        packed -= sideTerms(full, position, 1, black, white, attacks[0].pawns, plus ? &attacks[1] : nullptr, more);
        if (plus) {
            attacks[0].king = chess::kingAttacks(position.kingSquare(chess::Color::White));
            attacks[1].king = chess::kingAttacks(position.kingSquare(chess::Color::Black));
            packed += threats(position, 0, attacks[0], attacks[1]) - threats(position, 1, attacks[1], attacks[0]);
            packed += passedKingTerms(position, 0, passed, more) - passedKingTerms(position, 1, passed, more);
            if (king)
                packed += safeChecks(position, 0, attacks[0], attacks[1]) - safeChecks(position, 1, attacks[1], attacks[0]);
        }
    } else {
        if (bishops[0] >= 2) packed += pack(kBishopPairMg, kBishopPairEg);
        if (bishops[1] >= 2) packed -= pack(kBishopPairMg, kBishopPairEg);
    }
    return {mgOf(packed), egOf(packed), std::min(phase, kFullPhase),
            plus ? endGameScale(position, egOf(packed)) : 64};
}

int evaluateUncached(const chess::Position& position, EvalTerms terms) {
    const EvalParts p = partsOf(position, terms);
    const int sign = glue::sideIndex(position) == 0 ? 1 : -1;
    const int eg = p.eg * p.egScale / 64;
    const int score = sign * (p.mg * p.phase + eg * (kFullPhase - p.phase)) / kFullPhase;
    return score + kTempo;
}

} // namespace

} // namespace chaiba::search
