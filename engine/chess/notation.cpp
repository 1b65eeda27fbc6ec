// SAN and UCI writing and strict parsing.
#include "engine/chess/notation.h"

#include "engine/chess/move_reader.h"
#include "engine/chess/movegen.h"

namespace chaiba::chess {

namespace {

constexpr std::string_view kPieceLetters = " PNBRQK";

char pieceLetter(PieceType t) {
    return kPieceLetters[size_t(index(t))];
}

PieceType pieceFromLetter(char c) {
    switch (c) {
    case 'N': return PieceType::Knight;
    case 'B': return PieceType::Bishop;
    case 'R': return PieceType::Rook;
    case 'Q': return PieceType::Queen;
    case 'K': return PieceType::King;
    default: return PieceType::None;
    }
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\n' || s.front() == '\r'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\n' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

// Builds 'text' by appending (GCC 12 warns falsely on "'" + std::string(...)).
std::string quote(std::string_view text) {
    std::string out;
    out.reserve(text.size() + 2);
    out += '\'';
    out.append(text);
    out += '\'';
    return out;
}

MoveResult failure(std::string message) {
    return MoveResult{Move(), std::move(message)};
}

} // namespace

std::string toSan(const Position& pos, Move m) {
    std::string san;
    const Square from = m.from(), to = m.to();
    const PieceType pt = typeOf(pos.pieceOn(from));
    if (m.isCastling()) {
        san = to > from ? "O-O" : "O-O-O";
    } else if (pt == PieceType::Pawn) {
        if (pos.isCapture(m)) {
            san += char('a' + fileOf(from));
            san += 'x';
        }
        san += squareName(to);
        if (m.isPromotion()) {
            san += '=';
            san += pieceLetter(m.promotion());
        }
    } else {
        san += pieceLetter(pt);
        MoveList moves;
        generateLegal(pos, moves);
        bool ambiguous = false, sameFile = false, sameRank = false;
        for (const Move other : moves) {
            if (other == m || other.to() != to || other.isCastling() ||
                typeOf(pos.pieceOn(other.from())) != pt)
                continue;
            ambiguous = true;
            sameFile |= fileOf(other.from()) == fileOf(from);
            sameRank |= rankOf(other.from()) == rankOf(from);
        }
        if (ambiguous) {
            if (!sameFile)
                san += char('a' + fileOf(from));
            else if (!sameRank)
                san += char('1' + rankOf(from));
            else
                san += squareName(from);
        }
        if (pos.isCapture(m)) san += 'x';
        san += squareName(to);
    }
    if (pos.givesCheck(m)) {
        Position after = pos;
        after.makeMove(m);
        san += countLegal(after) == 0 ? '#' : '+';
    }
    return san;
}

MoveResult parseSan(const Position& pos, std::string_view input) {
    const std::string_view original = trim(input);
    std::string_view s = original;
    while (!s.empty() && (s.back() == '!' || s.back() == '?')) s.remove_suffix(1);
    if (!s.empty() && (s.back() == '+' || s.back() == '#')) s.remove_suffix(1);
    const std::string quoted = quote(original);
    if (s.empty()) return failure("empty move");
    MoveList moves;
    generateLegal(pos, moves);
    if (s == "O-O" || s == "O-O-O") {
        const bool kingSide = s == "O-O";
        for (const Move m : moves)
            if (m.isCastling() && (m.to() > m.from()) == kingSide) return MoveResult{m, ""};
        return failure(
            std::string(original) + " is not legal: " +
            (pos.inCheck() ? "the king is in check" : "castling on that side is not possible now"));
    }
    // Grammar: [NBRQK] [a-h]? [1-8]? x? [a-h][1-8] (=[NBRQ])?
    PieceType promo = PieceType::None;
    if (s.size() >= 2 && s[s.size() - 2] == '=') {
        promo = pieceFromLetter(s.back());
        if (promo == PieceType::None || promo == PieceType::King)
            return failure(quoted + " is not SAN: bad promotion piece");
        s.remove_suffix(2);
    }
    if (s.size() < 2) return failure(quoted + " is not SAN");
    const Square to = parseSquare(s.substr(s.size() - 2));
    if (to == NoSquare) return failure(quoted + " is not SAN: no destination square");
    s.remove_suffix(2);
    bool capture = false;
    if (!s.empty() && s.back() == 'x') {
        capture = true;
        s.remove_suffix(1);
    }
    PieceType pt = PieceType::Pawn;
    if (!s.empty() && pieceFromLetter(s.front()) != PieceType::None) {
        pt = pieceFromLetter(s.front());
        s.remove_prefix(1);
    }
    int fromFile = -1, fromRank = -1;
    if (!s.empty() && s.front() >= 'a' && s.front() <= 'h') {
        fromFile = s.front() - 'a';
        s.remove_prefix(1);
    }
    if (!s.empty() && s.front() >= '1' && s.front() <= '8') {
        fromRank = s.front() - '1';
        s.remove_prefix(1);
    }
    if (!s.empty()) return failure(quoted + " is not SAN");
    if (pt == PieceType::Pawn) {
        if (capture != (fromFile >= 0) || fromRank >= 0)
            return failure(quoted + " is not SAN: a pawn capture is written like exd5");
        if (promo == PieceType::None && (rankOf(to) == 0 || rankOf(to) == 7))
            return failure(quoted + " needs a promotion piece, e.g. " + squareName(to) + "=Q");
    } else if (promo != PieceType::None) {
        return failure(quoted + " is not SAN: only pawns promote");
    }
    Move found;
    int matches = 0;
    std::string candidates;
    for (const Move m : moves) {
        if (m.isCastling() || m.to() != to || typeOf(pos.pieceOn(m.from())) != pt || m.promotion() != promo)
            continue;
        if (fromFile >= 0 && fileOf(m.from()) != fromFile) continue;
        if (fromRank >= 0 && rankOf(m.from()) != fromRank) continue;
        ++matches;
        found = m;
        if (!candidates.empty()) candidates += " or ";
        candidates += toSan(pos, m);
    }
    if (matches == 0) {
        // The move reader knows why (in check, pinned, blocked, occupied ...).
        const MoveReading why = readMove(pos, original);
        return failure(!why.ok() && why.error.find(" is not legal: ") != std::string::npos
                           ? why.error
                           : std::string(original) + " is not a legal move");
    }
    if (matches > 1) return failure(std::string(original) + " is ambiguous: " + candidates);
    if (capture != pos.isCapture(found))
        return failure(std::string(original) +
                       (capture ? " is not a capture" : " is a capture: write it with x"));
    return MoveResult{found, ""};
}

std::string toUci(const Position& pos, Move m) {
    Square to = m.to();
    if (m.isCastling() && !pos.isChess960()) {
        const Square base = rankOf(m.from()) * 8;
        to = base + (m.to() > m.from() ? 6 : 2);
    }
    std::string uci = squareName(m.from()) + squareName(to);
    if (m.isPromotion()) uci += char(pieceLetter(m.promotion()) - 'A' + 'a');
    return uci;
}

MoveResult parseUci(const Position& pos, std::string_view input) {
    const std::string_view s = trim(input);
    if (s.size() != 4 && s.size() != 5) return failure(quote(s) + " is not UCI (like e2e4 or e7e8q)");
    if (parseSquare(s.substr(0, 2)) == NoSquare || parseSquare(s.substr(2, 2)) == NoSquare ||
        (s.size() == 5 && std::string_view("nbrq").find(s[4]) == std::string_view::npos))
        return failure(quote(s) + " is not UCI (like e2e4 or e7e8q)");
    MoveList moves;
    generateLegal(pos, moves);
    const Square from = parseSquare(s.substr(0, 2));
    for (const Move m : moves)
        if (m.from() == from && toUci(pos, m) == s) return MoveResult{m, ""};
    return failure(std::string(s) + " is not a legal move");
}

MoveResult parseSanOrUci(const Position& pos, std::string_view text) {
    MoveResult san = parseSan(pos, text);
    if (san.ok()) return san;
    MoveResult uci = parseUci(pos, text);
    if (uci.ok()) return uci;
    const std::string_view t = trim(text);
    const bool looksUci =
        t.size() >= 4 && parseSquare(t.substr(0, 2)) != NoSquare && parseSquare(t.substr(2, 2)) != NoSquare;
    return looksUci ? uci : san;
}

} // namespace chaiba::chess
