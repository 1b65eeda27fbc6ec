// FEN reading (strict, one message per kind of malformation; X-FEN and Shredder-FEN castling),
// FEN writing, and the standard and Chess960 (Scharnagl-numbered) start positions.
#include "engine/chess/bitboard.h"
#include "engine/chess/position.h"

#include <cassert>
#include <cctype>
#include <charconv>
#include <random>
#include <vector>

namespace chaiba::chess {

namespace {

std::vector<std::string_view> splitFields(std::string_view text) {
    std::vector<std::string_view> fields;
    size_t i = 0;
    while (i < text.size()) {
        while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
        const size_t start = i;
        while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i]))) ++i;
        if (i > start) fields.push_back(text.substr(start, i - start));
    }
    return fields;
}

std::optional<int> parseNumber(std::string_view s) {
    int value = 0;
    if (s.empty() || s.size() > 6) return std::nullopt;
    auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
    if (ec != std::errc() || ptr != s.data() + s.size()) return std::nullopt;
    return value;
}

const char* colorName(Color c) {
    return c == Color::White ? "white" : "black";
}

} // namespace

// Builds a Position from FEN fields; a friend of Position.
class FenParser {
public:
    static FenResult parse(std::string_view fen, bool chess960);
};

void Position::addCastlingRight(Color c, Square rookSq) {
    const Square k = kingSquare(c);
    const bool kingSide = rookSq > k;
    const CastlingRight right = c == Color::White ? (kingSide ? WhiteKingSide : WhiteQueenSide)
                                                  : (kingSide ? BlackKingSide : BlackQueenSide);
    const int i = std::countr_zero(unsigned(right));
    castling_ |= right;
    castlingRook_[i] = rookSq;
    castlingMask_[k] |= right;
    castlingMask_[rookSq] |= right;
    const Square base = c == Color::White ? 0 : 56;
    const Square kingTo = base + (kingSide ? 6 : 2), rookTo = base + (kingSide ? 5 : 3);
    castlingPath_[i] =
        (betweenBB(k, kingTo) | squareBit(kingTo) | betweenBB(rookSq, rookTo) | squareBit(rookTo)) &
        ~(squareBit(k) | squareBit(rookSq));
}

FenResult FenParser::parse(std::string_view fen, bool chess960) {
    initBitboards();
    auto fail = [](std::string message) { return FenResult{std::nullopt, std::move(message)}; };
    const auto fields = splitFields(fen);
    if (fields.empty()) return fail("empty FEN");
    if (fields.size() != 6 && fields.size() != 4)
        return fail("FEN has " + std::to_string(fields.size()) +
                    " fields; expected 6 (placement, side, castling, en passant, halfmove, fullmove)");
    Position pos;
    // 1. Placement.
    int rank = 7, file = 0;
    for (const char ch : fields[0]) {
        if (ch == '/') {
            if (file != 8)
                return fail("rank " + std::to_string(rank + 1) + " of the placement has " +
                            std::to_string(file) + " squares; expected 8");
            if (--rank < 0) return fail("placement has more than 8 ranks");
            file = 0;
        } else if (ch >= '1' && ch <= '8') {
            file += ch - '0';
            if (file > 8)
                return fail("rank " + std::to_string(rank + 1) + " of the placement has more than 8 squares");
        } else {
            const Piece p = pieceFromChar(ch);
            if (p == Piece::None)
                return fail(std::string("bad piece character '") + ch + "' in the placement");
            if (file >= 8)
                return fail("rank " + std::to_string(rank + 1) + " of the placement has more than 8 squares");
            pos.putPiece(p, makeSquare(file, rank));
            ++file;
        }
    }
    if (rank != 0) return fail("placement has " + std::to_string(8 - rank) + " ranks; expected 8");
    if (file != 8)
        return fail("rank 1 of the placement has " + std::to_string(file) + " squares; expected 8");
    for (Color c : {Color::White, Color::Black}) {
        const int kings = popCount(pos.pieces(c, PieceType::King));
        if (kings == 0) return fail(std::string("missing ") + colorName(c) + " king");
        if (kings > 1) return fail(std::string(colorName(c)) + " has " + std::to_string(kings) + " kings");
        pos.kingSquare_[index(c)] = lsb(pos.pieces(c, PieceType::King));
        if (popCount(pos.pieces(c, PieceType::Pawn)) > 8)
            return fail(std::string(colorName(c)) + " has more than 8 pawns");
        if (popCount(pos.pieces(c)) > 16) return fail(std::string(colorName(c)) + " has more than 16 pieces");
    }
    if (Bitboard b = pos.pieces(PieceType::Pawn) & (rankBB(0) | rankBB(7)))
        return fail("pawn on " + squareName(lsb(b)) + " (pawns cannot stand on the first or last rank)");
    // 2. Side to move.
    if (fields[1] == "w")
        pos.side_ = Color::White;
    else if (fields[1] == "b")
        pos.side_ = Color::Black;
    else
        return fail("side to move must be 'w' or 'b', not '" + std::string(fields[1]) + "'");
    // 3. Castling (KQkq, X-FEN file letters, Shredder-FEN file letters).
    bool needs960 = false;
    if (fields[2] != "-") {
        for (const char ch : fields[2]) {
            const Color c = (ch >= 'a' && ch <= 'z') ? Color::Black : Color::White;
            const char up = c == Color::White ? ch : char(ch - 'a' + 'A');
            const int backRank = c == Color::White ? 0 : 7;
            const Square k = pos.kingSquare(c);
            const Piece rook = makePiece(c, PieceType::Rook);
            if (up != 'K' && up != 'Q' && (up < 'A' || up > 'H'))
                return fail(std::string("bad castling character '") + ch + "'");
            if (rankOf(k) != backRank)
                return fail(std::string("castling right '") + ch + "' but the " + colorName(c) +
                            " king is not on its first rank");
            Square rookSq = NoSquare;
            if (up == 'K') {
                for (int f = 7; f > fileOf(k); --f)
                    if (pos.board_[makeSquare(f, backRank)] == rook) {
                        rookSq = makeSquare(f, backRank);
                        break;
                    }
            } else if (up == 'Q') {
                for (int f = 0; f < fileOf(k); ++f)
                    if (pos.board_[makeSquare(f, backRank)] == rook) {
                        rookSq = makeSquare(f, backRank);
                        break;
                    }
            } else {
                const Square s = makeSquare(up - 'A', backRank);
                if (pos.board_[s] == rook && s != k) rookSq = s;
            }
            if (rookSq == NoSquare)
                return fail(std::string("castling right '") + ch + "' but no " + colorName(c) +
                            " rook to castle with on that side");
            const bool kingSide = rookSq > k;
            const CastlingRight right = c == Color::White ? (kingSide ? WhiteKingSide : WhiteQueenSide)
                                                          : (kingSide ? BlackKingSide : BlackQueenSide);
            if (pos.castling_ & right) return fail(std::string("castling right '") + ch + "' given twice");
            if (fileOf(k) != 4 || (fileOf(rookSq) != 0 && fileOf(rookSq) != 7)) needs960 = true;
            pos.addCastlingRight(c, rookSq);
        }
    }
    pos.chess960_ = chess960 || needs960;
    // 5-6. Clocks (read before en passant so errors come in field order is not needed).
    if (fields.size() == 6) {
        const auto half = parseNumber(fields[4]);
        if (!half || *half < 0)
            return fail("halfmove clock '" + std::string(fields[4]) + "' is not a number >= 0");
        const auto full = parseNumber(fields[5]);
        if (!full || *full < 1)
            return fail("fullmove number '" + std::string(fields[5]) + "' is not a number >= 1");
        pos.halfmoveClock_ = *half;
        pos.fullmoveNumber_ = *full;
    }
    // Legality of the placement for the side to move.
    const Color us = pos.side_, them = ~pos.side_;
    if (pos.isAttacked(pos.kingSquare(them), us))
        return fail(std::string("the side not to move (") + colorName(them) + ") is in check");
    pos.checkers_ = pos.attackersTo(pos.kingSquare(us), pos.pieces()) & pos.pieces(them);
    if (popCount(pos.checkers_) > 2)
        return fail(std::string("the ") + colorName(us) + " king is in check from " +
                    std::to_string(popCount(pos.checkers_)) + " pieces (impossible)");
    // 4. En passant.
    if (fields[3] != "-") {
        const Square ep = parseSquare(fields[3]);
        if (ep == NoSquare) return fail("bad en-passant field '" + std::string(fields[3]) + "'");
        const int wantRank = us == Color::White ? 5 : 2;
        if (rankOf(ep) != wantRank)
            return fail("en-passant square " + squareName(ep) + " is impossible with " + colorName(us) +
                        " to move (must be on rank " + std::to_string(wantRank + 1) + ")");
        const Square pawnSq = us == Color::White ? ep - 8 : ep + 8;
        const Square originSq = us == Color::White ? ep + 8 : ep - 8;
        if (pos.board_[pawnSq] != makePiece(them, PieceType::Pawn))
            return fail("en-passant square " + squareName(ep) + " but no " + colorName(them) + " pawn on " +
                        squareName(pawnSq));
        if (pos.board_[ep] != Piece::None || pos.board_[originSq] != Piece::None)
            return fail("en-passant square " + squareName(ep) + " but " + squareName(ep) + " or " +
                        squareName(originSq) + " is not empty");
        if ((pawnAttacks(them, ep) & pos.pieces(us, PieceType::Pawn)) && pos.epCaptureLegal(ep))
            pos.epSquare_ = ep;
    }
    pos.hash_ = pos.computeHash();
    return FenResult{pos, ""};
}

FenResult Position::fromFen(std::string_view fen, bool chess960) {
    return FenParser::parse(fen, chess960);
}

std::string Position::fen() const {
    std::string out;
    for (int rank = 7; rank >= 0; --rank) {
        int empty = 0;
        for (int file = 0; file < 8; ++file) {
            const Piece p = board_[makeSquare(file, rank)];
            if (p == Piece::None) {
                ++empty;
                continue;
            }
            if (empty) out += char('0' + empty);
            empty = 0;
            out += pieceChar(p);
        }
        if (empty) out += char('0' + empty);
        if (rank) out += '/';
    }
    out += side_ == Color::White ? " w " : " b ";
    if (!castling_) out += '-';
    for (int i = 0; i < 4; ++i) {
        if (!(castling_ & (1 << i))) continue;
        const Color c = i < 2 ? Color::White : Color::Black;
        const bool kingSide = (i & 1) == 0;
        const Square rookSq = castlingRook_[i];
        // X-FEN: K/Q when the castling rook is the outermost rook on its side, else its file.
        bool outermost = true;
        const Piece rook = makePiece(c, PieceType::Rook);
        for (Square s = rookSq + (kingSide ? 1 : -1); rankOf(s) == rankOf(rookSq) && s >= 0 && s < 64;
             s += kingSide ? 1 : -1)
            if (board_[s] == rook) outermost = false;
        char ch = outermost ? (kingSide ? 'K' : 'Q') : char('A' + fileOf(rookSq));
        if (c == Color::Black) ch = char(ch - 'A' + 'a');
        out += ch;
    }
    out += ' ';
    out += squareName(epSquare_);
    out += ' ' + std::to_string(halfmoveClock_) + ' ' + std::to_string(fullmoveNumber_);
    return out;
}

Position Position::startPosition() {
    return *fromFen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").position;
}

Position Position::chess960(int number) {
    assert(number >= 0 && number < 960 && "Chess960 numbers are 0..959");
    number = number < 0 ? 0 : (number > 959 ? 959 : number);
    char rank[8] = {};
    int n = number;
    rank[2 * (n % 4) + 1] = 'B';
    n /= 4;
    rank[2 * (n % 4)] = 'B';
    n /= 4;
    auto placeNthEmpty = [&](int nth, char piece) {
        for (int f = 0; f < 8; ++f)
            if (!rank[f] && nth-- == 0) {
                rank[f] = piece;
                return;
            }
    };
    placeNthEmpty(n % 6, 'Q');
    n /= 6;
    static constexpr int kKnights[10][2] = {{0, 1}, {0, 2}, {0, 3}, {0, 4}, {1, 2},
                                            {1, 3}, {1, 4}, {2, 3}, {2, 4}, {3, 4}};
    placeNthEmpty(kKnights[n][1], 'N'); // the later one first so the earlier index stays valid
    placeNthEmpty(kKnights[n][0], 'N');
    placeNthEmpty(0, 'R');
    placeNthEmpty(0, 'K');
    placeNthEmpty(0, 'R');
    std::string white(rank, 8), black;
    for (char ch : white) black += char(ch - 'A' + 'a');
    int rookA = -1, rookH = -1;
    for (int f = 0; f < 8; ++f)
        if (white[f] == 'R') (rookA < 0 ? rookA : rookH) = f;
    std::string castling;
    castling += char('A' + rookH);
    castling += char('A' + rookA);
    castling += char('a' + rookH);
    castling += char('a' + rookA);
    const std::string fen = black + "/pppppppp/8/8/8/8/PPPPPPPP/" + white + " w " + castling + " - 0 1";
    FenResult r = fromFen(fen, true);
    assert(r.ok());
    return *r.position;
}

Position Position::chess960Random() {
    std::random_device device;
    return chess960(int(device() % 960));
}

} // namespace chaiba::chess
