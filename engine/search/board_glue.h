// Thin helpers between the search and the rules engine (engine/chess): move-ordering facts,
// parsing/printing in the position's mode, and the end-of-game check used by games we play.
#pragma once

#include "engine/chess/game.h"
#include "engine/chess/movegen.h"
#include "engine/chess/notation.h"
#include "engine/chess/position.h"
#include "engine/search/pesto_tables.h"

#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace chaiba::search::glue {

// Move list with int indices and swap, for the move picker.
class MoveBuffer {
public:
    int size() const { return static_cast<int>(list_.size()); }
    chess::Move operator[](int i) const { return list_[static_cast<std::size_t>(i)]; }
    void swap(int a, int b) {
        std::swap(list_[static_cast<std::size_t>(a)], list_[static_cast<std::size_t>(b)]);
    }
    chess::MoveList& list() { return list_; }

private:
    chess::MoveList list_;
};

inline void generateLegal(const chess::Position& pos, MoveBuffer& moves) {
    chess::generateLegal(pos, moves.list());
}
inline void generateCaptures(const chess::Position& pos, MoveBuffer& moves) {
    chess::generateCaptures(pos, moves.list());
}

inline uint64_t key(const chess::Position& pos) {
    return pos.hash();
}
inline bool inCheck(const chess::Position& pos) {
    return pos.inCheck();
}
inline int halfmoveClock(const chess::Position& pos) {
    return pos.halfmoveClock();
}
inline bool insufficientMaterial(const chess::Position& pos) {
    return chess::insufficientMaterial(pos);
}
inline int sideIndex(const chess::Position& pos) {
    return chess::index(pos.sideToMove());
}
inline int fromIndex(chess::Move m) {
    return m.from();
}
inline int toIndex(chess::Move m) {
    return m.to();
}
inline bool isPromotion(chess::Move m) {
    return m.isPromotion();
}
inline bool isCaptureOrPromotion(const chess::Position& pos, chess::Move m) {
    return m.isPromotion() || pos.isCapture(m);
}
// PeSTO piece index 0..5 (pawn..king) of a piece type.
inline int pestoIndex(chess::PieceType t) {
    return chess::index(t) - 1;
}
inline int capturedValue(const chess::Position& pos, chess::Move m) {
    if (m.isEnPassant()) return kPieceValue[0];
    if (!pos.isCapture(m)) return 0;
    return kPieceValue[static_cast<std::size_t>(pestoIndex(chess::typeOf(pos.pieceOn(m.to()))))];
}
inline int moverIndex(const chess::Position& pos, chess::Move m) {
    return pestoIndex(chess::typeOf(pos.movedPiece(m)));
}
inline int promotionValue(chess::Move m) {
    return m.isPromotion() ? kPieceValue[static_cast<std::size_t>(pestoIndex(m.promotion()))] : 0;
}
inline chess::Move moveFromRaw(uint32_t raw) {
    return chess::Move::fromRaw(static_cast<uint16_t>(raw));
}
inline uint32_t moveToRaw(chess::Move m) {
    return m.raw();
}
inline bool hasNonPawnMaterial(const chess::Position& pos) {
    const chess::Color us = pos.sideToMove();
    return (pos.pieces(us) & ~pos.pieces(chess::PieceType::Pawn) & ~pos.pieces(chess::PieceType::King)) != 0;
}

// Calls f(colorIndex, pestoPieceIndex, square) for every piece.
template <class F> void forEachPiece(const chess::Position& pos, F&& f) {
    for (int c = 0; c < 2; ++c)
        for (int t = 1; t <= 6; ++t) {
            chess::Bitboard b = pos.pieces(static_cast<chess::Color>(c), static_cast<chess::PieceType>(t));
            while (b) {
                const int sq = __builtin_ctzll(b);
                b &= b - 1;
                f(c, t - 1, sq);
            }
        }
}

inline chess::Position startPosition() {
    return chess::Position::startPosition();
}
inline chess::Position chess960Position(int number) {
    return chess::Position::chess960(number);
}
inline std::optional<chess::Position> positionFromFen(std::string_view fen, bool chess960,
                                                      std::string& error) {
    chess::FenResult r = chess::Position::fromFen(fen, chess960);
    if (!r.ok()) {
        error = r.error;
        return std::nullopt;
    }
    return r.position;
}
inline std::string toFen(const chess::Position& pos, bool /*chess960: the position knows its mode*/) {
    return pos.fen();
}
// UCI in the position's own mode (castling king-to-rook when pos.isChess960()).
inline std::string moveToUci(const chess::Position& pos, chess::Move m, bool /*chess960*/) {
    return chess::toUci(pos, m);
}
inline std::optional<chess::Move> parseUciMove(const chess::Position& pos, std::string_view text,
                                               bool /*chess960*/) {
    const chess::MoveResult r = chess::parseUci(pos, text);
    if (!r.ok()) return std::nullopt;
    return r.move;
}
inline void makeMove(chess::Position& pos, chess::Move m) {
    pos.makeMove(m);
}

} // namespace chaiba::search::glue
