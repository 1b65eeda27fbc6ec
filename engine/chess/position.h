// Position: the board (bitboards + mailbox), side to move, castling rights (Chess960-capable),
// en-passant square, clocks and an incrementally updated Zobrist hash. FEN read/write, make/unmake.
#pragma once

#include "engine/chess/bitboard.h"
#include "engine/chess/types.h"

#include <bit>
#include <optional>
#include <string>
#include <string_view>

namespace chaiba::chess {

struct FenResult;

// Castling right bits (which rook may still castle; rook squares are kept per right).
enum CastlingRight : uint8_t {
    NoCastling = 0,
    WhiteKingSide = 1,
    WhiteQueenSide = 2,
    BlackKingSide = 4,
    BlackQueenSide = 8,
    AnyCastling = 15
};

// What makeMove returns and unmakeMove needs back: the state a move destroys.
struct Undo {
    uint64_t hash = 0;
    Bitboard checkers = 0;
    Square epSquare = NoSquare;
    uint8_t castling = 0;
    Piece captured = Piece::None;
    int halfmoveClock = 0;
};

// What Position::givesCheck(m, info) needs of a position, worked out once for many moves: the
// squares each piece type of the side to move would check the enemy king from, and that side's
// pieces that alone stand between one of its sliders and the enemy king.
struct CheckInfo {
    Bitboard checkSquares[7] = {}; // by PieceType; none for the king
    Bitboard discoverers = 0;
    Square enemyKing = NoSquare;
};

class Position {
public:
    // Parses FEN. Castling field: KQkq (X-FEN: outermost rook, or a file letter when inner rook),
    // or Shredder-FEN file letters (HAha). The position becomes Chess960 when `chess960` is true or
    // when the castling rights need it (king/rook off the standard squares). An en-passant field
    // that is valid but allows no legal capture is accepted and dropped (as after makeMove).
    // Accepts 6 fields, or 4 (clocks default to "0 1"). Every malformation gets its own message.
    static FenResult fromFen(std::string_view fen, bool chess960 = false);
    // FEN of this position. Castling: KQkq for outermost rooks, file letters for inner ones
    // (X-FEN); identical to standard FEN for standard chess.
    std::string fen() const;

    static Position startPosition();
    // Chess960 start position by Scharnagl number 0..959 (518 = the standard setup); isChess960()
    // is true. Numbers outside the range are clamped by assert; check before calling.
    static Position chess960(int number);
    // A Chess960 start position chosen uniformly at random (std::random_device).
    static Position chess960Random();

    // Plays a legal move (from generateLegal / parsers). Returns what unmakeMove needs.
    Undo makeMove(Move m);
    void unmakeMove(Move m, const Undo& undo);
    // Passes the turn (for null-move pruning). Must not be called when in check.
    Undo makeNullMove();
    void unmakeNullMove(const Undo& undo);

    Color sideToMove() const { return side_; }
    bool inCheck() const { return checkers_ != 0; }
    Bitboard checkers() const { return checkers_; }
    uint64_t hash() const { return hash_; }
    // The hash after move m, computed without playing it, for prefetching what the search will
    // look up for the child. Exact for every move but castling, promotions, en-passant captures
    // and a double push that allows an en-passant capture (close enough for a prefetch).
    uint64_t keyAfter(Move m) const {
        const detail::ZobristKeys& z = detail::zobrist;
        const Square from = m.from(), to = m.to();
        const Piece piece = board_[from], captured = board_[to];
        uint64_t h = hash_ ^ z.side ^ z.psq[int(piece)][from] ^ z.psq[int(piece)][to];
        if (epSquare_ != NoSquare) h ^= z.enPassant[fileOf(epSquare_)];
        if (captured != Piece::None) h ^= z.psq[int(captured)][to];
        if (const uint8_t lost = castling_ & (castlingMask_[from] | castlingMask_[to]))
            h ^= z.castling[castling_] ^ z.castling[castling_ & uint8_t(~lost)];
        return h;
    }
    // Zobrist hash recomputed from scratch (tests: must equal hash()).
    uint64_t computeHash() const;
    Piece pieceOn(Square s) const { return board_[s]; }
    Bitboard pieces() const { return byColor_[0] | byColor_[1]; }
    Bitboard pieces(Color c) const { return byColor_[index(c)]; }
    Bitboard pieces(PieceType t) const { return byType_[index(t)]; }
    Bitboard pieces(Color c, PieceType t) const { return byColor_[index(c)] & byType_[index(t)]; }
    Square kingSquare(Color c) const { return kingSquare_[index(c)]; }
    // En-passant target square, only set when a legal en-passant capture exists; else NoSquare.
    Square epSquare() const { return epSquare_; }
    uint8_t castlingRights() const { return castling_; }
    // Rook square of a single right (WhiteKingSide etc.); NoSquare if that right is absent.
    Square castlingRook(CastlingRight r) const;
    // Squares that must be empty to castle with right r (king and rook excluded).
    Bitboard castlingPath(CastlingRight r) const { return castlingPath_[std::countr_zero(unsigned(r))]; }
    int halfmoveClock() const { return halfmoveClock_; }
    int fullmoveNumber() const { return fullmoveNumber_; }
    bool isChess960() const { return chess960_; }
    void setChess960(bool on) { chess960_ = on; }
    // Number of plies since the start (2 * (fullmove - 1) + (black to move)).
    int gamePly() const { return 2 * (fullmoveNumber_ - 1) + index(side_); }

    // Squares attacked by `by` given occupancy `occupied` (slider rays stop at occupied squares).
    Bitboard attackersTo(Square s, Bitboard occupied) const;
    bool isAttacked(Square s, Color by) const;
    // Pieces of side `c` that are pinned to their own king.
    Bitboard pinned(Color c) const;

    bool isCapture(Move m) const {
        return m.isEnPassant() || (!m.isCastling() && board_[m.to()] != Piece::None);
    }
    // True if the legal move m gives check (direct, discovered, promotion, castling, en passant).
    bool givesCheck(Move m) const;
    CheckInfo checkInfo() const;
    // The same answer from checkInfo() of this position, cheaper when asked for many moves.
    bool givesCheck(Move m, const CheckInfo& info) const {
        if (m.kind() != Move::Kind::Normal) return givesCheck(m);
        const Square from = m.from(), to = m.to();
        if (info.checkSquares[index(typeOf(board_[from]))] & squareBit(to)) return true;
        // A discovered check, unless the piece stays on the line (it never leaves its segment).
        return (info.discoverers & squareBit(from)) && !(lineBB(from, info.enemyKing) & squareBit(to));
    }
    // Static exchange evaluation: true if m's exchange balance is >= threshold (centipawn values
    // 100/320/330/500/900). Legal moves only.
    bool seeGe(Move m, int threshold) const;
    // The piece moved by m (the king for castling).
    Piece movedPiece(Move m) const { return board_[m.from()]; }

    // Compares the full board state (not clocks): for tests and repetition checks.
    bool samePlacement(const Position& o) const;

private:
    Position() = default;
    void putPiece(Piece p, Square s);
    void removePiece(Square s);
    void movePiece(Square from, Square to);
    void addCastlingRight(Color c, Square rookSq);
    void updateEpAfterDoublePush(Square epSq);
    bool epCaptureLegal(Square epSq) const;
    friend class FenParser;

    Bitboard byType_[7] = {};
    Bitboard byColor_[2] = {};
    Piece board_[64] = {};
    Square kingSquare_[2] = {NoSquare, NoSquare};
    Bitboard checkers_ = 0;
    uint64_t hash_ = 0;
    Color side_ = Color::White;
    Square epSquare_ = NoSquare;
    uint8_t castling_ = 0;
    Square castlingRook_[4] = {NoSquare, NoSquare, NoSquare, NoSquare}; // by bit index of right
    uint8_t castlingMask_[64] = {}; // rights lost when a piece moves from/to a square
    Bitboard castlingPath_[4] = {}; // squares that must be empty (except king and rook)
    int halfmoveClock_ = 0;
    int fullmoveNumber_ = 1;
    bool chess960_ = false;
};

// Result of Position::fromFen: a position, or a specific message naming what is malformed.
struct FenResult {
    std::optional<Position> position; // set on success
    std::string error;                // empty on success
    bool ok() const { return error.empty(); }
};

} // namespace chaiba::chess
