// Small conversions for the basic chess types (piece letters, square names).
#include "engine/chess/types.h"

namespace chaiba::chess {

namespace {
constexpr std::string_view kPieceChars = ".PNBRQK..pnbrqk";
} // namespace

char pieceChar(Piece p) {
    const auto i = static_cast<size_t>(p);
    return i < kPieceChars.size() ? kPieceChars[i] : '.';
}

Piece pieceFromChar(char c) {
    if (c == '.') return Piece::None;
    const size_t i = kPieceChars.find(c);
    return i == std::string_view::npos ? Piece::None : static_cast<Piece>(i);
}

std::string squareName(Square s) {
    if (s < 0 || s >= 64) return "-";
    return {static_cast<char>('a' + fileOf(s)), static_cast<char>('1' + rankOf(s))};
}

Square parseSquare(std::string_view text) {
    if (text.size() != 2 || text[0] < 'a' || text[0] > 'h' || text[1] < '1' || text[1] > '8') return NoSquare;
    return makeSquare(text[0] - 'a', text[1] - '1');
}

} // namespace chaiba::chess
