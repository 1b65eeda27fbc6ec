// Basic chess value types: colors, pieces, squares (a1=0 .. h8=63), bitboards, the 16-bit Move and
// the fixed-capacity MoveList. Everything here is trivially copyable and cheap to pass by value.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace chaiba::chess {

// Bit i set = square i occupied/attacked (a1 = bit 0, h1 = bit 7, a8 = bit 56).
using Bitboard = uint64_t;

enum class Color : uint8_t { White = 0, Black = 1 };
constexpr Color operator~(Color c) {
    return Color(uint8_t(c) ^ 1);
}
constexpr int index(Color c) {
    return int(c);
}

// PieceType: None = 0, then Pawn..King (1..6), so arrays can be indexed by type directly.
enum class PieceType : uint8_t { None = 0, Pawn = 1, Knight = 2, Bishop = 3, Rook = 4, Queen = 5, King = 6 };
constexpr int index(PieceType t) {
    return int(t);
}

// Piece bit layout: bit 3 = color (0 white, 1 black), bits 0-2 = PieceType. None = 0.
enum class Piece : uint8_t {
    None = 0,
    WhitePawn = 1,
    WhiteKnight,
    WhiteBishop,
    WhiteRook,
    WhiteQueen,
    WhiteKing,
    BlackPawn = 9,
    BlackKnight,
    BlackBishop,
    BlackRook,
    BlackQueen,
    BlackKing
};
constexpr Piece makePiece(Color c, PieceType t) {
    return Piece((int(c) << 3) | int(t));
}
constexpr PieceType typeOf(Piece p) {
    return PieceType(int(p) & 7);
}
constexpr Color colorOf(Piece p) {
    return Color(int(p) >> 3);
}
// 'P','N',..,'K' for white, lowercase for black, '.' for None.
char pieceChar(Piece p);
// Inverse of pieceChar for the twelve piece letters; Piece::None otherwise.
Piece pieceFromChar(char c);

// Square: 0..63, file = sq & 7, rank = sq >> 3. NoSquare = 64 means "none".
using Square = int;
enum : Square {
    A1,
    B1,
    C1,
    D1,
    E1,
    F1,
    G1,
    H1,
    A2,
    B2,
    C2,
    D2,
    E2,
    F2,
    G2,
    H2,
    A3,
    B3,
    C3,
    D3,
    E3,
    F3,
    G3,
    H3,
    A4,
    B4,
    C4,
    D4,
    E4,
    F4,
    G4,
    H4,
    A5,
    B5,
    C5,
    D5,
    E5,
    F5,
    G5,
    H5,
    A6,
    B6,
    C6,
    D6,
    E6,
    F6,
    G6,
    H6,
    A7,
    B7,
    C7,
    D7,
    E7,
    F7,
    G7,
    H7,
    A8,
    B8,
    C8,
    D8,
    E8,
    F8,
    G8,
    H8,
    NoSquare = 64
};
constexpr int fileOf(Square s) {
    return s & 7;
}
constexpr int rankOf(Square s) {
    return s >> 3;
}
constexpr Square makeSquare(int file, int rank) {
    return rank * 8 + file;
}
constexpr Bitboard squareBit(Square s) {
    return Bitboard(1) << s;
}
// "e4"; "-" for NoSquare.
std::string squareName(Square s);
// "e4" -> E4; NoSquare for anything that is not exactly a file letter a-h and a rank digit 1-8.
Square parseSquare(std::string_view text);

// Move: 16 bits. bits 0-5 = from, bits 6-11 = to, bits 12-13 = promotion piece - Knight
// (0 Knight .. 3 Queen), bits 14-15 = kind. Castling is stored as "king captures own rook":
// from = king square, to = rook square (works for Chess960 and standard alike; notation.h writes
// UCI e1g1 or e1h1 as the mode asks). En passant: to = the empty target square.
// Move() (raw 0) is the null/none move; it is never a legal move (from == to).
class Move {
public:
    enum class Kind : uint8_t { Normal = 0, Promotion = 1, EnPassant = 2, Castling = 3 };

    constexpr Move() = default;
    constexpr Move(Square from, Square to) : data_(uint16_t(from | (to << 6))) {}
    static constexpr Move make(Square from, Square to, Kind kind, PieceType promo = PieceType::Knight) {
        Move m;
        m.data_ =
            uint16_t(from | (to << 6) | ((int(promo) - int(PieceType::Knight)) << 12) | (int(kind) << 14));
        return m;
    }
    static constexpr Move none() { return Move(); }
    // Distinct from none(); used by search for null-move pruning, never played on a Position.
    static constexpr Move nullMove() { return Move(B1, B1); }

    constexpr Square from() const { return data_ & 63; }
    constexpr Square to() const { return (data_ >> 6) & 63; }
    constexpr Kind kind() const { return Kind(data_ >> 14); }
    // PieceType::None unless kind() == Promotion.
    constexpr PieceType promotion() const {
        return kind() == Kind::Promotion ? PieceType(((data_ >> 12) & 3) + int(PieceType::Knight))
                                         : PieceType::None;
    }
    constexpr bool isCastling() const { return kind() == Kind::Castling; }
    constexpr bool isEnPassant() const { return kind() == Kind::EnPassant; }
    constexpr bool isPromotion() const { return kind() == Kind::Promotion; }
    constexpr bool isNone() const { return data_ == 0; }
    constexpr explicit operator bool() const { return data_ != 0; }
    constexpr uint16_t raw() const { return data_; }
    static constexpr Move fromRaw(uint16_t raw) {
        Move m;
        m.data_ = raw;
        return m;
    }
    constexpr bool operator==(const Move&) const = default;

private:
    uint16_t data_ = 0;
};

// Fixed-capacity list of moves (no allocation). 256 > the 218 maximum of legal chess moves.
class MoveList {
public:
    static constexpr size_t kCapacity = 256;
    void push(Move m) { moves_[size_++] = m; }
    void clear() { size_ = 0; }
    size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    Move operator[](size_t i) const { return moves_[i]; }
    Move& operator[](size_t i) { return moves_[i]; }
    const Move* begin() const { return moves_.data(); }
    const Move* end() const { return moves_.data() + size_; }
    Move* begin() { return moves_.data(); }
    Move* end() { return moves_.data() + size_; }
    bool contains(Move m) const {
        for (size_t i = 0; i < size_; ++i)
            if (moves_[i] == m) return true;
        return false;
    }

private:
    std::array<Move, kCapacity> moves_;
    size_t size_ = 0;
};

} // namespace chaiba::chess
