// Legal move generation: check mask (block or capture the checker), pin lines (a pinned piece
// moves only along the line to its king), king targets tested with the king lifted off the board,
// en passant tested exactly. Count mode adds popcounts instead of storing moves (perft leaves).
#include "engine/chess/movegen.h"

#include "engine/chess/bitboard.h"

namespace chaiba::chess {

namespace {

enum class Gen { All, Captures, Quiets };

template <int D> constexpr Bitboard shift(Bitboard b) {
    return D > 0 ? b << D : b >> -D;
}

template <Color Us> constexpr Square relativeSq(Square s) {
    return Us == Color::White ? s : s ^ 56;
}

// Either stores moves into a list or just counts them.
template <bool Count> struct Sink {
    MoveList* list;
    int count = 0;
    void add(Move m) {
        if constexpr (Count)
            ++count;
        else
            list->push(m);
    }
    void addTargets(Square from, Bitboard targets) {
        if constexpr (Count)
            count += popCount(targets);
        else
            while (targets) list->push(Move(from, popLsb(targets)));
    }
    void addPromotions(Square from, Square to) {
        if constexpr (Count)
            count += 4;
        else
            for (PieceType t : {PieceType::Queen, PieceType::Knight, PieceType::Rook, PieceType::Bishop})
                list->push(Move::make(from, to, Move::Kind::Promotion, t));
    }
};

template <Color Us> bool attackedBy(const Position& pos, Square s, Bitboard occ) {
    constexpr Color Them = ~Us;
    return (pawnAttacks(Us, s) & pos.pieces(Them, PieceType::Pawn)) ||
           (knightAttacks(s) & pos.pieces(Them, PieceType::Knight)) ||
           (kingAttacks(s) & pos.pieces(Them, PieceType::King)) ||
           (bishopAttacks(s, occ) &
            (pos.pieces(Them, PieceType::Bishop) | pos.pieces(Them, PieceType::Queen))) ||
           (rookAttacks(s, occ) & (pos.pieces(Them, PieceType::Rook) | pos.pieces(Them, PieceType::Queen)));
}

template <Color Us> bool epLegal(const Position& pos, Square from, Square ep) {
    constexpr Color Them = ~Us;
    const Square capSq = Us == Color::White ? ep - 8 : ep + 8;
    const Square k = pos.kingSquare(Us);
    const Bitboard occ = (pos.pieces() ^ squareBit(from) ^ squareBit(capSq)) | squareBit(ep);
    return !(
        (rookAttacks(k, occ) & (pos.pieces(Them, PieceType::Rook) | pos.pieces(Them, PieceType::Queen))) ||
        (bishopAttacks(k, occ) &
         (pos.pieces(Them, PieceType::Bishop) | pos.pieces(Them, PieceType::Queen))) ||
        (knightAttacks(k) & pos.pieces(Them, PieceType::Knight)) ||
        (pawnAttacks(Us, k) & pos.pieces(Them, PieceType::Pawn) & ~squareBit(capSq)));
}

template <Color Us, Gen G, bool Count> int generate(const Position& pos, MoveList* list) {
    constexpr Color Them = ~Us;
    constexpr int Up = Us == Color::White ? 8 : -8;
    constexpr int UpLeft = Us == Color::White ? 7 : -9;  // towards file a
    constexpr int UpRight = Us == Color::White ? 9 : -7; // towards file h
    constexpr Bitboard Rank3 = rankBB(Us == Color::White ? 2 : 5);
    constexpr Bitboard Rank7 = rankBB(Us == Color::White ? 6 : 1);
    constexpr Bitboard NotFileA = ~fileBB(0), NotFileH = ~fileBB(7);

    Sink<Count> sink{list};
    const Square k = pos.kingSquare(Us);
    const Bitboard occ = pos.pieces();
    const Bitboard ours = pos.pieces(Us), theirs = pos.pieces(Them);
    const Bitboard empty = ~occ;
    const Bitboard checkers = pos.checkers();
    Bitboard targetMask = G == Gen::All ? ~ours : (G == Gen::Captures ? theirs : empty);

    // King moves: every target tested with the king removed (so it cannot hide behind itself).
    {
        Bitboard targets = kingAttacks(k) & targetMask;
        const Bitboard occNoKing = occ ^ squareBit(k);
        while (targets) {
            const Square to = popLsb(targets);
            if (!attackedBy<Us>(pos, to, occNoKing)) sink.add(Move(k, to));
        }
    }
    if (moreThanOne(checkers)) return sink.count;

    const Bitboard checkMask = checkers ? (betweenBB(k, lsb(checkers)) | checkers) : ~Bitboard(0);

    // Pinned pieces and castling are rare; pins are found from the enemy sliders' x-rays.
    Bitboard pinned = 0;
    {
        Bitboard snipers =
            (rookAttacks(k, 0) & (pos.pieces(Them, PieceType::Rook) | pos.pieces(Them, PieceType::Queen))) |
            (bishopAttacks(k, 0) &
             (pos.pieces(Them, PieceType::Bishop) | pos.pieces(Them, PieceType::Queen)));
        while (snipers) {
            const Bitboard b = betweenBB(k, popLsb(snipers)) & occ;
            if (b && !moreThanOne(b)) pinned |= b & ours;
        }
    }

    // Pawns.
    {
        const Bitboard pawns = pos.pieces(Us, PieceType::Pawn) & ~pinned;
        const Bitboard pawnsOn7 = pawns & Rank7, pawnsNot7 = pawns & ~Rank7;
        if constexpr (G != Gen::Captures) {
            Bitboard push1 = shift<Up>(pawnsNot7) & empty;
            Bitboard push2 = shift<Up>(push1 & Rank3) & empty & checkMask;
            push1 &= checkMask;
            if constexpr (Count) {
                sink.count += popCount(push1) + popCount(push2);
            } else {
                while (push1) {
                    const Square to = popLsb(push1);
                    sink.add(Move(to - Up, to));
                }
                while (push2) {
                    const Square to = popLsb(push2);
                    sink.add(Move(to - 2 * Up, to));
                }
            }
        }
        if constexpr (G != Gen::Quiets) {
            Bitboard capL = shift<UpLeft>(pawnsNot7 & NotFileA) & theirs & checkMask;
            Bitboard capR = shift<UpRight>(pawnsNot7 & NotFileH) & theirs & checkMask;
            if constexpr (Count) {
                sink.count += popCount(capL) + popCount(capR);
            } else {
                while (capL) {
                    const Square to = popLsb(capL);
                    sink.add(Move(to - UpLeft, to));
                }
                while (capR) {
                    const Square to = popLsb(capR);
                    sink.add(Move(to - UpRight, to));
                }
            }
            if (pawnsOn7) {
                Bitboard promoPush = shift<Up>(pawnsOn7) & empty & checkMask;
                Bitboard promoL = shift<UpLeft>(pawnsOn7 & NotFileA) & theirs & checkMask;
                Bitboard promoR = shift<UpRight>(pawnsOn7 & NotFileH) & theirs & checkMask;
                while (promoPush) {
                    const Square to = popLsb(promoPush);
                    sink.addPromotions(to - Up, to);
                }
                while (promoL) {
                    const Square to = popLsb(promoL);
                    sink.addPromotions(to - UpLeft, to);
                }
                while (promoR) {
                    const Square to = popLsb(promoR);
                    sink.addPromotions(to - UpRight, to);
                }
            }
            const Square ep = pos.epSquare();
            if (ep != NoSquare) {
                Bitboard epPawns = pawnAttacks(Them, ep) & pos.pieces(Us, PieceType::Pawn);
                while (epPawns) {
                    const Square from = popLsb(epPawns);
                    if (epLegal<Us>(pos, from, ep)) sink.add(Move::make(from, ep, Move::Kind::EnPassant));
                }
            }
        }
        // Pinned pawns (never useful when in check): move only along the pin line.
        if (!checkers) {
            Bitboard pinnedPawns = pos.pieces(Us, PieceType::Pawn) & pinned;
            while (pinnedPawns) {
                const Square from = popLsb(pinnedPawns);
                const Bitboard line = lineBB(k, from);
                Bitboard targets = 0;
                if constexpr (G != Gen::Captures) {
                    const Bitboard p1 = shift<Up>(squareBit(from)) & empty;
                    targets |= p1 | (shift<Up>(p1 & Rank3) & empty);
                }
                if constexpr (G != Gen::Quiets) targets |= pawnAttacks(Us, from) & theirs;
                targets &= line;
                if (squareBit(from) & Rank7) {
                    Bitboard promos = targets;
                    if constexpr (G == Gen::Quiets) promos = 0;
                    if constexpr (G == Gen::Captures)
                        promos = (shift<Up>(squareBit(from)) & empty & line) | targets;
                    while (promos) sink.addPromotions(from, popLsb(promos));
                } else {
                    sink.addTargets(from, targets);
                }
            }
        }
    }

    // Knights, bishops, rooks, queens.
    targetMask &= checkMask;
    {
        Bitboard knights = pos.pieces(Us, PieceType::Knight) & ~pinned;
        while (knights) {
            const Square from = popLsb(knights);
            sink.addTargets(from, knightAttacks(from) & targetMask);
        }
        Bitboard diag = (pos.pieces(Us, PieceType::Bishop) | pos.pieces(Us, PieceType::Queen));
        while (diag) {
            const Square from = popLsb(diag);
            Bitboard t = bishopAttacks(from, occ) & targetMask;
            if (squareBit(from) & pinned) t &= lineBB(k, from);
            sink.addTargets(from, t);
        }
        Bitboard orth = (pos.pieces(Us, PieceType::Rook) | pos.pieces(Us, PieceType::Queen));
        while (orth) {
            const Square from = popLsb(orth);
            Bitboard t = rookAttacks(from, occ) & targetMask;
            if (squareBit(from) & pinned) t &= lineBB(k, from);
            sink.addTargets(from, t);
        }
    }

    // Castling: path empty, king's walk (incl. start and target) safe with king and rook lifted.
    if constexpr (G != Gen::Captures) {
        if (!checkers && (pos.castlingRights() & (Us == Color::White ? (WhiteKingSide | WhiteQueenSide)
                                                                     : (BlackKingSide | BlackQueenSide)))) {
            constexpr CastlingRight kRights[2] = {Us == Color::White ? WhiteKingSide : BlackKingSide,
                                                  Us == Color::White ? WhiteQueenSide : BlackQueenSide};
            for (const CastlingRight r : kRights) {
                const Square rook = pos.castlingRook(r);
                if (rook == NoSquare || (pos.castlingPath(r) & occ)) continue;
                const Square kingTo = relativeSq<Us>(rook > k ? G1 : C1);
                const Bitboard occLifted = occ ^ squareBit(k) ^ squareBit(rook);
                Bitboard walk = betweenBB(k, kingTo) | squareBit(kingTo) | squareBit(k);
                bool safe = true;
                while (walk && safe) safe = !attackedBy<Us>(pos, popLsb(walk), occLifted);
                if (safe) sink.add(Move::make(k, rook, Move::Kind::Castling));
            }
        }
    }
    return sink.count;
}

template <Gen G, bool Count> int dispatch(const Position& pos, MoveList* list) {
    return pos.sideToMove() == Color::White ? generate<Color::White, G, Count>(pos, list)
                                            : generate<Color::Black, G, Count>(pos, list);
}

} // namespace

void generateLegal(const Position& pos, MoveList& moves) {
    moves.clear();
    dispatch<Gen::All, false>(pos, &moves);
}

void generateCaptures(const Position& pos, MoveList& moves) {
    moves.clear();
    dispatch<Gen::Captures, false>(pos, &moves);
}

void generateQuiets(const Position& pos, MoveList& moves) {
    moves.clear();
    dispatch<Gen::Quiets, false>(pos, &moves);
}

int countLegal(const Position& pos) {
    return dispatch<Gen::All, true>(pos, nullptr);
}

bool isLegal(const Position& pos, Move m) {
    if (m.isNone()) return false;
    const Piece p = pos.pieceOn(m.from());
    if (p == Piece::None || colorOf(p) != pos.sideToMove()) return false;
    MoveList moves;
    generateLegal(pos, moves);
    return moves.contains(m);
}

uint64_t perft(Position& pos, int depth) {
    if (depth <= 0) return 1;
    if (depth == 1) return uint64_t(countLegal(pos));
    MoveList moves;
    generateLegal(pos, moves);
    uint64_t nodes = 0;
    for (const Move m : moves) {
        const Undo u = pos.makeMove(m);
        nodes += perft(pos, depth - 1);
        pos.unmakeMove(m, u);
    }
    return nodes;
}

} // namespace chaiba::chess
