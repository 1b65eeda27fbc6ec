// Position: piece placement helpers, make/unmake (incremental Zobrist), attacks, givesCheck, SEE.
// FEN reading/writing and the start positions live in fen.cpp.
#include "engine/chess/position.h"

#include "engine/chess/bitboard.h"

#include <cassert>

namespace chaiba::chess {

namespace {
constexpr int rightIndex(CastlingRight r) {
    return std::countr_zero(unsigned(r));
}
constexpr Square relative(Color c, Square s) {
    return c == Color::White ? s : s ^ 56;
}
const detail::ZobristKeys& Z = detail::zobrist;
} // namespace

void Position::putPiece(Piece p, Square s) {
    board_[s] = p;
    const Bitboard b = squareBit(s);
    byType_[index(typeOf(p))] |= b;
    byColor_[index(colorOf(p))] |= b;
}

void Position::removePiece(Square s) {
    const Piece p = board_[s];
    const Bitboard b = squareBit(s);
    byType_[index(typeOf(p))] ^= b;
    byColor_[index(colorOf(p))] ^= b;
    board_[s] = Piece::None;
}

void Position::movePiece(Square from, Square to) {
    const Piece p = board_[from];
    const Bitboard b = squareBit(from) | squareBit(to);
    byType_[index(typeOf(p))] ^= b;
    byColor_[index(colorOf(p))] ^= b;
    board_[from] = Piece::None;
    board_[to] = p;
}

Square Position::castlingRook(CastlingRight r) const {
    return (castling_ & r) ? castlingRook_[rightIndex(r)] : NoSquare;
}

Bitboard Position::attackersTo(Square s, Bitboard occupied) const {
    return (pawnAttacks(Color::Black, s) & pieces(Color::White, PieceType::Pawn)) |
           (pawnAttacks(Color::White, s) & pieces(Color::Black, PieceType::Pawn)) |
           (knightAttacks(s) & byType_[index(PieceType::Knight)]) |
           (kingAttacks(s) & byType_[index(PieceType::King)]) |
           (rookAttacks(s, occupied) & (byType_[index(PieceType::Rook)] | byType_[index(PieceType::Queen)])) |
           (bishopAttacks(s, occupied) &
            (byType_[index(PieceType::Bishop)] | byType_[index(PieceType::Queen)]));
}

bool Position::isAttacked(Square s, Color by) const {
    return (attackersTo(s, pieces()) & pieces(by)) != 0;
}

Bitboard Position::pinned(Color c) const {
    const Square k = kingSquare(c);
    const Color them = ~c;
    Bitboard snipers =
        ((rookAttacks(k, 0) & (pieces(them, PieceType::Rook) | pieces(them, PieceType::Queen))) |
         (bishopAttacks(k, 0) & (pieces(them, PieceType::Bishop) | pieces(them, PieceType::Queen))));
    Bitboard result = 0;
    const Bitboard occ = pieces();
    while (snipers) {
        const Bitboard b = betweenBB(k, popLsb(snipers)) & occ;
        if (b && !moreThanOne(b) && (b & pieces(c))) result |= b;
    }
    return result;
}

bool Position::epCaptureLegal(Square epSq) const {
    // side_ is the side that would capture; the pawn to be captured stands "behind" epSq.
    const Color us = side_, them = ~side_;
    const Square capSq = us == Color::White ? epSq - 8 : epSq + 8;
    const Square k = kingSquare(us);
    Bitboard candidates = pawnAttacks(them, epSq) & pieces(us, PieceType::Pawn);
    while (candidates) {
        const Square from = popLsb(candidates);
        const Bitboard occ = (pieces() ^ squareBit(from) ^ squareBit(capSq)) | squareBit(epSq);
        const Bitboard attackers =
            (rookAttacks(k, occ) & (pieces(them, PieceType::Rook) | pieces(them, PieceType::Queen))) |
            (bishopAttacks(k, occ) & (pieces(them, PieceType::Bishop) | pieces(them, PieceType::Queen))) |
            (knightAttacks(k) & pieces(them, PieceType::Knight)) |
            (pawnAttacks(us, k) & pieces(them, PieceType::Pawn) & ~squareBit(capSq));
        if (!attackers) return true;
    }
    return false;
}

void Position::updateEpAfterDoublePush(Square epSq) {
    if ((pawnAttacks(~side_, epSq) & pieces(side_, PieceType::Pawn)) && epCaptureLegal(epSq)) {
        epSquare_ = epSq;
        hash_ ^= Z.enPassant[fileOf(epSq)];
    }
}

Undo Position::makeMove(Move m) {
    const Color us = side_, them = ~side_;
    const Square from = m.from(), to = m.to();
    const Piece piece = board_[from];
    assert(piece != Piece::None && colorOf(piece) == us);
    Undo undo{hash_, checkers_, epSquare_, castling_, Piece::None, halfmoveClock_};
    uint64_t h = hash_ ^ Z.side;
    if (epSquare_ != NoSquare) {
        h ^= Z.enPassant[fileOf(epSquare_)];
        epSquare_ = NoSquare;
    }
    ++halfmoveClock_;
    Square doublePushEp = NoSquare;

    if (m.isCastling()) {
        const bool kingSide = to > from;
        const Square kingTo = relative(us, kingSide ? G1 : C1);
        const Square rookTo = relative(us, kingSide ? F1 : D1);
        const Piece rook = board_[to];
        removePiece(from);
        removePiece(to);
        putPiece(piece, kingTo);
        putPiece(rook, rookTo);
        h ^= Z.psq[int(piece)][from] ^ Z.psq[int(piece)][kingTo] ^ Z.psq[int(rook)][to] ^
             Z.psq[int(rook)][rookTo];
        kingSquare_[index(us)] = kingTo;
    } else {
        const Square capSq = m.isEnPassant() ? (us == Color::White ? to - 8 : to + 8) : to;
        const Piece captured = board_[capSq];
        if (captured != Piece::None) {
            removePiece(capSq);
            h ^= Z.psq[int(captured)][capSq];
            halfmoveClock_ = 0;
            undo.captured = captured;
        }
        movePiece(from, to);
        h ^= Z.psq[int(piece)][from] ^ Z.psq[int(piece)][to];
        if (typeOf(piece) == PieceType::Pawn) {
            halfmoveClock_ = 0;
            if ((from ^ to) == 16) {
                doublePushEp = (from + to) / 2;
            } else if (m.isPromotion()) {
                const Piece promo = makePiece(us, m.promotion());
                removePiece(to);
                putPiece(promo, to);
                h ^= Z.psq[int(piece)][to] ^ Z.psq[int(promo)][to];
            }
        } else if (typeOf(piece) == PieceType::King) {
            kingSquare_[index(us)] = to;
        }
    }
    if (castling_) {
        const uint8_t lost = castlingMask_[from] | castlingMask_[to];
        if (castling_ & lost) {
            h ^= Z.castling[castling_];
            castling_ &= uint8_t(~lost);
            h ^= Z.castling[castling_];
        }
    }
    if (us == Color::Black) ++fullmoveNumber_;
    side_ = them;
    hash_ = h;
    checkers_ = attackersTo(kingSquare(them), pieces()) & pieces(us);
    if (doublePushEp != NoSquare) updateEpAfterDoublePush(doublePushEp);
    return undo;
}

void Position::unmakeMove(Move m, const Undo& undo) {
    side_ = ~side_;
    const Color us = side_;
    const Square from = m.from(), to = m.to();
    if (m.isCastling()) {
        const bool kingSide = to > from;
        const Square kingTo = relative(us, kingSide ? G1 : C1);
        const Square rookTo = relative(us, kingSide ? F1 : D1);
        const Piece king = board_[kingTo], rook = board_[rookTo];
        removePiece(kingTo);
        removePiece(rookTo);
        putPiece(king, from);
        putPiece(rook, to);
        kingSquare_[index(us)] = from;
    } else {
        if (m.isPromotion()) {
            removePiece(to);
            putPiece(makePiece(us, PieceType::Pawn), to);
        }
        movePiece(to, from);
        if (typeOf(board_[from]) == PieceType::King) kingSquare_[index(us)] = from;
        if (undo.captured != Piece::None) {
            const Square capSq = m.isEnPassant() ? (us == Color::White ? to - 8 : to + 8) : to;
            putPiece(undo.captured, capSq);
        }
    }
    if (us == Color::Black) --fullmoveNumber_;
    hash_ = undo.hash;
    checkers_ = undo.checkers;
    epSquare_ = undo.epSquare;
    castling_ = undo.castling;
    halfmoveClock_ = undo.halfmoveClock;
}

Undo Position::makeNullMove() {
    assert(!inCheck());
    Undo undo{hash_, checkers_, epSquare_, castling_, Piece::None, halfmoveClock_};
    if (epSquare_ != NoSquare) {
        hash_ ^= Z.enPassant[fileOf(epSquare_)];
        epSquare_ = NoSquare;
    }
    hash_ ^= Z.side;
    ++halfmoveClock_;
    if (side_ == Color::Black) ++fullmoveNumber_;
    side_ = ~side_;
    checkers_ = 0;
    return undo;
}

void Position::unmakeNullMove(const Undo& undo) {
    side_ = ~side_;
    if (side_ == Color::Black) --fullmoveNumber_;
    hash_ = undo.hash;
    checkers_ = undo.checkers;
    epSquare_ = undo.epSquare;
    castling_ = undo.castling;
    halfmoveClock_ = undo.halfmoveClock;
}

uint64_t Position::computeHash() const {
    uint64_t h = 0;
    for (Square s = 0; s < 64; ++s)
        if (board_[s] != Piece::None) h ^= Z.psq[int(board_[s])][s];
    if (epSquare_ != NoSquare) h ^= Z.enPassant[fileOf(epSquare_)];
    h ^= Z.castling[castling_];
    if (side_ == Color::Black) h ^= Z.side;
    return h;
}

bool Position::givesCheck(Move m) const {
    const Color us = side_;
    const Square k = kingSquare(~us);
    const Square from = m.from(), to = m.to();
    const Bitboard fromBB = squareBit(from);
    Bitboard occ = pieces() ^ fromBB;
    Bitboard rooks = pieces(us, PieceType::Rook) | pieces(us, PieceType::Queen);
    Bitboard bishops = pieces(us, PieceType::Bishop) | pieces(us, PieceType::Queen);
    rooks &= ~fromBB;
    bishops &= ~fromBB;
    PieceType moved = m.isPromotion() ? m.promotion() : typeOf(board_[from]);
    Square landing = to;
    if (m.isCastling()) {
        const bool kingSide = to > from;
        const Square kingTo = relative(us, kingSide ? G1 : C1);
        const Square rookTo = relative(us, kingSide ? F1 : D1);
        occ = (occ ^ squareBit(to)) | squareBit(kingTo) | squareBit(rookTo);
        rooks = (rooks & ~squareBit(to)) | squareBit(rookTo);
        moved = PieceType::King;
        landing = kingTo;
    } else {
        occ |= squareBit(to);
        if (m.isEnPassant()) occ ^= squareBit(us == Color::White ? to - 8 : to + 8);
    }
    switch (moved) {
    case PieceType::Pawn:
        if (pawnAttacks(us, landing) & squareBit(k)) return true;
        break;
    case PieceType::Knight:
        if (knightAttacks(landing) & squareBit(k)) return true;
        break;
    case PieceType::Bishop: bishops |= squareBit(landing); break;
    case PieceType::Rook: rooks |= squareBit(landing); break;
    case PieceType::Queen:
        bishops |= squareBit(landing);
        rooks |= squareBit(landing);
        break;
    default: break;
    }
    return (rookAttacks(k, occ) & rooks) || (bishopAttacks(k, occ) & bishops);
}

CheckInfo Position::checkInfo() const {
    const Color us = side_, them = ~side_;
    const Square k = kingSquare(them);
    const Bitboard occ = pieces();
    CheckInfo info;
    info.enemyKing = k;
    info.checkSquares[index(PieceType::Pawn)] = pawnAttacks(them, k);
    info.checkSquares[index(PieceType::Knight)] = knightAttacks(k);
    info.checkSquares[index(PieceType::Bishop)] = bishopAttacks(k, occ);
    info.checkSquares[index(PieceType::Rook)] = rookAttacks(k, occ);
    info.checkSquares[index(PieceType::Queen)] =
        info.checkSquares[index(PieceType::Bishop)] | info.checkSquares[index(PieceType::Rook)];
    // The enemy king is never in check on our move, so a slider of ours on a line to it is blocked;
    // one piece of ours alone in the way uncovers the check by leaving the line.
    Bitboard snipers =
        ((rookAttacks(k, 0) & (pieces(us, PieceType::Rook) | pieces(us, PieceType::Queen))) |
         (bishopAttacks(k, 0) & (pieces(us, PieceType::Bishop) | pieces(us, PieceType::Queen))));
    while (snipers) {
        const Bitboard b = betweenBB(k, popLsb(snipers)) & occ;
        if (b && !moreThanOne(b) && (b & pieces(us))) info.discoverers |= b;
    }
    return info;
}

bool Position::seeGe(Move m, int threshold) const {
    static constexpr int kValue[7] = {0, 100, 320, 330, 500, 900, 20000};
    if (m.kind() != Move::Kind::Normal) return 0 >= threshold;
    const Square from = m.from(), to = m.to();
    int swap = kValue[index(typeOf(board_[to]))] - threshold;
    if (swap < 0) return false;
    swap = kValue[index(typeOf(board_[from]))] - swap;
    if (swap <= 0) return true;
    Bitboard occ = pieces() ^ squareBit(from) ^ squareBit(to);
    Color stm = side_;
    Bitboard attackers = attackersTo(to, occ);
    const Bitboard diag = pieces(PieceType::Bishop) | pieces(PieceType::Queen);
    const Bitboard orth = pieces(PieceType::Rook) | pieces(PieceType::Queen);
    int res = 1;
    while (true) {
        stm = ~stm;
        attackers &= occ;
        Bitboard stmAttackers = attackers & pieces(stm);
        if (!stmAttackers) break;
        res ^= 1;
        PieceType pt = PieceType::Pawn;
        Bitboard bb = 0;
        for (int t = 1; t <= 6; ++t) {
            bb = stmAttackers & byType_[t];
            if (bb) {
                pt = PieceType(t);
                break;
            }
        }
        if (pt == PieceType::King) return (attackers & ~pieces(stm)) ? res ^ 1 : res;
        swap = kValue[index(pt)] - swap;
        if (swap < res) break;
        occ ^= bb & (~bb + 1);
        if (pt == PieceType::Pawn || pt == PieceType::Bishop || pt == PieceType::Queen)
            attackers |= bishopAttacks(to, occ) & diag;
        if (pt == PieceType::Rook || pt == PieceType::Queen) attackers |= rookAttacks(to, occ) & orth;
    }
    return res != 0;
}

bool Position::samePlacement(const Position& o) const {
    for (Square s = 0; s < 64; ++s)
        if (board_[s] != o.board_[s]) return false;
    if (side_ != o.side_ || castling_ != o.castling_ || epSquare_ != o.epSquare_) return false;
    for (int i = 0; i < 4; ++i)
        if ((castling_ & (1 << i)) && castlingRook_[i] != o.castlingRook_[i]) return false;
    return true;
}

} // namespace chaiba::chess
