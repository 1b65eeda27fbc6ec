// The forgiving move reader for language-model answers: normalise the text, find move-like
// tokens, match them against the legal moves, and explain failures in plain words.
#include "engine/chess/move_reader.h"

#include "engine/chess/bitboard.h"
#include "engine/chess/movegen.h"
#include "engine/chess/notation.h"

#include <cctype>
#include <vector>

namespace chaiba::chess {

namespace {

const char* pieceWord(PieceType t) {
    switch (t) {
    case PieceType::Pawn: return "pawn";
    case PieceType::Knight: return "knight";
    case PieceType::Bishop: return "bishop";
    case PieceType::Rook: return "rook";
    case PieceType::Queen: return "queen";
    case PieceType::King: return "king";
    default: return "piece";
    }
}

PieceType pieceFromLetter(char c) {
    switch (std::toupper(static_cast<unsigned char>(c))) {
    case 'N': return PieceType::Knight;
    case 'B': return PieceType::Bishop;
    case 'R': return PieceType::Rook;
    case 'Q': return PieceType::Queen;
    case 'K': return PieceType::King;
    default: return PieceType::None;
    }
}

// Replaces figurines and typographic characters by ASCII; invisible format characters (zero-width
// space/joiners, word joiner, soft hyphen, byte-order mark) vanish, so "N<ZWJ>f3" reads as Nf3 and
// never as the pawn move f3; other non-ASCII characters become spaces.
std::string normalise(std::string_view in) {
    std::string out;
    for (size_t i = 0; i < in.size();) {
        const auto c = static_cast<unsigned char>(in[i]);
        if (c < 0x80) {
            out += char(c);
            ++i;
            continue;
        }
        size_t len = (c >= 0xF0) ? 4 : (c >= 0xE0) ? 3 : (c >= 0xC0) ? 2 : 1;
        if (i + len > in.size()) len = in.size() - i;
        uint32_t cp = 0;
        if (len == 2) cp = ((c & 0x1F) << 6) | (static_cast<unsigned char>(in[i + 1]) & 0x3F);
        if (len == 3)
            cp = ((c & 0x0F) << 12) | ((static_cast<unsigned char>(in[i + 1]) & 0x3F) << 6) |
                 (static_cast<unsigned char>(in[i + 2]) & 0x3F);
        i += len;
        static constexpr char kFigurines[] = "KQRBNPKQRBNP"; // U+2654..U+265F
        if (cp >= 0x2654 && cp <= 0x265F) {
            const char p = kFigurines[cp - 0x2654];
            if (p != 'P') out += p;
        } else if (cp == 0xD7) {
            out += 'x';
        } else if (cp == 0x2010 || cp == 0x2011 || cp == 0x2013 || cp == 0x2014 || cp == 0x2212) {
            out += '-';
        } else if (cp == 0x2026) {
            out += "...";
        } else if (cp == 0x201C || cp == 0x201D || cp == 0x00AB || cp == 0x00BB) {
            out += '"';
        } else if ((cp >= 0x200B && cp <= 0x200D) || cp == 0x2060 || cp == 0xFEFF || cp == 0x00AD) {
            // invisible: nothing
        } else {
            out += ' ';
        }
    }
    return out;
}

// A move-like token split into its parts (all optional except the destination).
struct Spec {
    bool castle = false;
    bool kingSide = false;
    PieceType piece = PieceType::None; // None: pawn, or "whatever stands on from" when from is given
    int fromFile = -1, fromRank = -1;
    Square to = NoSquare;
    PieceType promo = PieceType::None;
    std::string text; // the token as cleaned, for messages
};

std::optional<Spec> parseToken(std::string_view raw) {
    std::string t(raw);
    // Strip annotations and check marks, e.p. suffixes, trailing punctuation.
    auto stripSuffix = [&](std::string_view suf) {
        if (t.size() > suf.size() && t.compare(t.size() - suf.size(), suf.size(), suf) == 0) {
            t.resize(t.size() - suf.size());
            return true;
        }
        return false;
    };
    bool changed = true;
    while (changed && !t.empty()) {
        changed = false;
        const char b = t.back();
        if (b == '!' || b == '?' || b == '+' || b == '#' || b == '.' || b == ',' || b == ';' || b == ':') {
            t.pop_back();
            changed = true;
        }
        changed |= stripSuffix("e.p") || stripSuffix("ep");
    }
    // Move numbers: "12.", "12...", "12...Nf6".
    size_t digits = 0;
    while (digits < t.size() && std::isdigit(static_cast<unsigned char>(t[digits]))) ++digits;
    if (digits > 0 && digits < t.size() && t[digits] == '.') {
        while (digits < t.size() && t[digits] == '.') ++digits;
        t.erase(0, digits);
    }
    while (!t.empty() && t.front() == '.') t.erase(0, 1);
    if (t.empty()) return std::nullopt;
    Spec spec;
    spec.text = t;
    std::string lower;
    for (const char c : t) lower += char(std::tolower(static_cast<unsigned char>(c)));
    if (lower == "o-o" || lower == "0-0" || lower == "oo" || lower == "00") {
        spec.castle = spec.kingSide = true;
        spec.text = "O-O";
        return spec;
    }
    if (lower == "o-o-o" || lower == "0-0-0" || lower == "ooo" || lower == "000") {
        spec.castle = true;
        spec.text = "O-O-O";
        return spec;
    }
    std::string_view s = t;
    // Piece letter (upper case; lower case too except 'b', which is a file).
    if (!s.empty() && pieceFromLetter(s[0]) != PieceType::None && s[0] != 'b') {
        spec.piece = pieceFromLetter(s[0]);
        s.remove_prefix(1);
    }
    // Promotion suffix: "=Q", "(Q)", "/Q", or a bare piece letter after the rank digit.
    if (s.size() >= 3 && s.back() == ')' && s[s.size() - 3] == '(') {
        spec.promo = pieceFromLetter(s[s.size() - 2]);
        if (spec.promo == PieceType::None || spec.promo == PieceType::King) return std::nullopt;
        s.remove_suffix(3);
    } else if (s.size() >= 2 && (s[s.size() - 2] == '=' || s[s.size() - 2] == '/')) {
        spec.promo = pieceFromLetter(s.back());
        if (spec.promo == PieceType::None || spec.promo == PieceType::King) return std::nullopt;
        s.remove_suffix(2);
    } else if (s.size() >= 3 && pieceFromLetter(s.back()) != PieceType::None &&
               pieceFromLetter(s.back()) != PieceType::King &&
               std::isdigit(static_cast<unsigned char>(s[s.size() - 2]))) {
        spec.promo = pieceFromLetter(s.back());
        s.remove_suffix(1);
    }
    if (s.size() < 2) return std::nullopt;
    spec.to = parseSquare(s.substr(s.size() - 2));
    if (spec.to == NoSquare) return std::nullopt;
    s.remove_suffix(2);
    if (!s.empty() && (s.back() == 'x' || s.back() == '-' || s.back() == ':')) s.remove_suffix(1);
    if (!s.empty() && s.front() >= 'a' && s.front() <= 'h') {
        spec.fromFile = s.front() - 'a';
        s.remove_prefix(1);
    }
    if (!s.empty() && s.front() >= '1' && s.front() <= '8') {
        spec.fromRank = s.front() - '1';
        s.remove_prefix(1);
    }
    if (!s.empty()) return std::nullopt;
    return spec;
}

bool fromSquareGiven(const Spec& s) {
    return s.fromFile >= 0 && s.fromRank >= 0;
}

// Does legal move m fit the spec?
bool matches(const Position& pos, const Spec& spec, Move m) {
    if (spec.castle) return m.isCastling() && (m.to() > m.from()) == spec.kingSide;
    const PieceType moved = typeOf(pos.pieceOn(m.from()));
    if (fromSquareGiven(spec)) {
        if (m.from() != makeSquare(spec.fromFile, spec.fromRank)) return false;
        if (spec.piece != PieceType::None && spec.piece != moved) return false;
    } else {
        if ((spec.piece == PieceType::None ? PieceType::Pawn : spec.piece) != moved) return false;
        if (spec.fromFile >= 0 && fileOf(m.from()) != spec.fromFile) return false;
        if (spec.fromRank >= 0 && rankOf(m.from()) != spec.fromRank) return false;
    }
    if (m.isCastling()) {
        // Only "from-to" forms reach castling: king two squares (e1g1) or king onto rook (e1h1).
        if (!fromSquareGiven(spec)) return false;
        const Square kingTo = makeSquare(m.to() > m.from() ? 6 : 2, rankOf(m.from()));
        return spec.to == m.to() || spec.to == kingTo;
    }
    if (m.to() != spec.to) return false;
    return spec.promo == PieceType::None || spec.promo == m.promotion();
}

std::string describe(const Position& pos, Square s) {
    return std::string(pieceWord(typeOf(pos.pieceOn(s)))) + " on " + squareName(s);
}

// Why no legal move fits the spec, in words.
std::string explainIllegal(const Position& pos, const Spec& spec) {
    const Color us = pos.sideToMove();
    const std::string head = spec.text + " is not legal: ";
    const Square king = pos.kingSquare(us);
    if (spec.castle) {
        if (pos.inCheck()) return head + "you cannot castle out of check";
        return head + "castling on that side is not possible now (the king or rook has moved, a square "
                      "between them is occupied, or the king would cross an attacked square)";
    }
    const PieceType pt =
        spec.piece == PieceType::None
            ? (fromSquareGiven(spec) ? typeOf(pos.pieceOn(makeSquare(spec.fromFile, spec.fromRank)))
                                     : PieceType::Pawn)
            : spec.piece;
    if (fromSquareGiven(spec)) {
        const Square from = makeSquare(spec.fromFile, spec.fromRank);
        if (pos.pieceOn(from) == Piece::None) return head + "there is no piece on " + squareName(from);
        if (colorOf(pos.pieceOn(from)) != us) return head + "the " + describe(pos, from) + " is not yours";
    }
    const Piece onTo = pos.pieceOn(spec.to);
    if (onTo != Piece::None && colorOf(onTo) == us)
        return head + squareName(spec.to) + " is occupied by your own " + pieceWord(typeOf(onTo));
    if (pos.pieces(us, pt) == 0) return head + "you have no " + pieceWord(pt);
    // Which of our pieces of that type could reach the square if kings did not matter?
    Bitboard reach = 0;
    const Bitboard occ = pos.pieces();
    Bitboard candidates = pos.pieces(us, pt);
    while (candidates) {
        const Square from = popLsb(candidates);
        if (spec.fromFile >= 0 && fileOf(from) != spec.fromFile) continue;
        if (spec.fromRank >= 0 && rankOf(from) != spec.fromRank) continue;
        bool ok;
        if (pt == PieceType::Pawn) {
            const int up = us == Color::White ? 8 : -8;
            const bool start = rankOf(from) == (us == Color::White ? 1 : 6);
            ok = (spec.to == from + up && onTo == Piece::None) ||
                 (start && spec.to == from + 2 * up && onTo == Piece::None &&
                  pos.pieceOn(from + up) == Piece::None) ||
                 ((pawnAttacks(us, from) & squareBit(spec.to)) &&
                  (onTo != Piece::None || spec.to == pos.epSquare()));
        } else {
            ok = (attacksOf(pt, from, occ) & squareBit(spec.to)) != 0;
        }
        if (ok) reach |= squareBit(from);
    }
    if (!reach) {
        if (pt == PieceType::Pawn && onTo == Piece::None && spec.fromFile >= 0 &&
            spec.fromFile != fileOf(spec.to))
            return head + "there is nothing to capture on " + squareName(spec.to);
        return head + "no " + std::string(pieceWord(pt)) + " of yours can reach " + squareName(spec.to);
    }
    if (pos.inCheck()) {
        const Square checker = lsb(pos.checkers());
        return head + "your king on " + squareName(king) + " is in check from the " + describe(pos, checker);
    }
    if (pt == PieceType::King) {
        const Bitboard attackers = pos.attackersTo(spec.to, occ ^ squareBit(king)) & pos.pieces(~us);
        if (attackers)
            return head + squareName(spec.to) + " is attacked by the " + describe(pos, lsb(attackers));
    }
    const Bitboard pinned = pos.pinned(us) & reach;
    if (pinned) {
        const Square p = lsb(pinned);
        Bitboard pinners = (pos.pieces(~us, PieceType::Rook) | pos.pieces(~us, PieceType::Queen) |
                            pos.pieces(~us, PieceType::Bishop)) &
                           lineBB(king, p);
        std::string by;
        while (pinners) {
            const Square s = popLsb(pinners);
            if ((betweenBB(king, s) & squareBit(p)) &&
                (attacksOf(typeOf(pos.pieceOn(s)), s, occ) & squareBit(p)))
                by = " by the " + describe(pos, s);
        }
        return head + "the " + describe(pos, p) + " is pinned to your king" + by;
    }
    if (pt == PieceType::Pawn && rankOf(spec.to) != 0 && rankOf(spec.to) != 7 &&
        spec.promo != PieceType::None)
        return head + "only a pawn reaching the last rank promotes";
    return head + "it would leave your king in check";
}

// One move-like token resolved against the position.
struct Resolution {
    enum class Kind { Legal, Ambiguous, Illegal } kind;
    Move move;
    std::string message;
};

Resolution resolve(const Position& pos, const MoveList& legal, const Spec& spec) {
    std::vector<Move> found;
    for (const Move m : legal)
        if (matches(pos, spec, m)) found.push_back(m);
    if (found.size() == 1) return {Resolution::Kind::Legal, found[0], ""};
    if (found.empty()) return {Resolution::Kind::Illegal, Move(), explainIllegal(pos, spec)};
    std::string list;
    for (size_t i = 0; i < found.size(); ++i) {
        if (i) list += i + 1 == found.size() ? " or " : ", ";
        list += toSan(pos, found[i]);
    }
    return {Resolution::Kind::Ambiguous, Move(), spec.text + " is ambiguous: " + list + "?"};
}

struct Token {
    std::string text;
    bool emphasised = false;
    bool finalMarked = false;  // right after "final answer", "final move", "make_move"
    bool finalRegion = false;  // in the sentence a final marker opens ("Final Answer: I play Nf3")
    bool strongMarked = false; // right after "move:", "answer:", "bestmove", "uci:", "san:"
    bool plainMarked = false;  // right after "the move is", "my move", "candidate move:", "choice:"
    bool weakMarked = false;   // after "play", "playing", "choose"
    int numberedPly = -1;      // "17.Bxc3", "17... Nf6" (and the reply after "17. Bxc3"): its game ply
    int line = 0;              // the text line it stands on
    bool sentenceEnd = false;  // ends with '.', '!' or '?' (and is not a move number)
    bool opensFinal = false;   // ends a final marker that opens a region: "final answer:", "final move -"
};

// A word made of punctuation only (":", "-", "->", "=", "$"): skipped when looking for markers, so
// "**Final Answer**: e4", "Final answer - e4" and "make_move -> e7e5" read like "Final answer: e4".
bool punctuationOnly(const std::string& w) {
    for (const char c : w)
        if (std::isalnum(static_cast<unsigned char>(c))) return false;
    return true;
}

// A move number on its own: "12.", "12...".
bool moveNumberWord(const std::string& w) {
    return !w.empty() && std::isdigit(static_cast<unsigned char>(w[0])) &&
           w.find_first_not_of("0123456789.") == std::string::npos;
}

// A word naming the argument of make_move written as text: "make_move(uci='e7e5')",
// "make_move(move: e7e5)", "make_move with e7e5", "Action: make_move / Action Input: e7e5".
bool makeMoveArgument(const std::string& w) {
    std::string s = w;
    while (!s.empty() && (s.back() == ':' || s.back() == '=')) s.pop_back();
    return s == "move" || s == "uci" || s == "san" || s == "with" || s == "input" || s == "args" ||
           s == "arguments";
}

// The game ply a move number names: "17." White's 17th move, "17..." Black's.
int plyOfNumber(std::string_view number) {
    int n = 0;
    size_t i = 0;
    for (; i < number.size() && std::isdigit(static_cast<unsigned char>(number[i])) && n < 100000; ++i)
        n = n * 10 + (number[i] - '0');
    size_t dots = 0;
    while (i + dots < number.size() && number[i + dots] == '.') ++dots;
    if (i == 0 || dots == 0 || n == 0) return -1;
    return 2 * (n - 1) + (dots >= 2 ? 1 : 0);
}

// The region a final marker opens: the marker must read as a label ("Final Answer: ...", "Final
// answer - ...", "**Final Answer**" ending its line, "my final answer is ..."), not as a mention
// ("before my final answer, ..."). The region is the rest of the marker's line, or the next line
// when the marker ends its own, up to the end of its first sentence.
void markFinalRegions(std::vector<Token>& tokens) {
    for (size_t i = 0; i < tokens.size(); ++i) {
        if (!tokens[i].opensFinal) continue;
        size_t j = i + 1;
        bool label = !tokens[i].text.empty() && tokens[i].text.back() == ':';
        while (j < tokens.size() && punctuationOnly(tokens[j].text)) {
            label = label || tokens[j].text.find_first_of(":-=") != std::string::npos;
            ++j;
        }
        if (j >= tokens.size()) continue;
        std::string next;
        for (const char c : tokens[j].text) next += char(std::tolower(static_cast<unsigned char>(c)));
        if (next == "is" || next == "is:") {
            label = true;
            ++j;
        }
        label = label || (j < tokens.size() && tokens[j].line > tokens[i].line);
        if (!label || j >= tokens.size()) continue;
        const int line = tokens[j].line;
        for (; j < tokens.size() && tokens[j].line == line; ++j) {
            tokens[j].finalRegion = true;
            if (tokens[j].sentenceEnd) break;
        }
    }
}

std::vector<Token> tokenize(const std::string& text) {
    std::vector<Token> tokens;
    bool bold = false, code = false, quote = false;
    std::vector<std::string> words; // lower-case words so far, for markers
    std::string current;
    bool currentEmph = false;
    int line = 0, currentLine = 0;
    auto flush = [&]() {
        if (current.empty()) return;
        Token tok;
        tok.text = current;
        tok.emphasised = currentEmph;
        tok.line = currentLine;
        // The up to three words before the token, move numbers ("12.", "12...") and punctuation
        // (":", "-", "->") skipped.
        std::string p[3];
        size_t found = 0;
        for (size_t k = words.size(); k-- > 0 && found < 3;) {
            const std::string& w = words[k];
            if (!moveNumberWord(w) && !punctuationOnly(w)) p[found++] = w;
        }
        auto stem = [](const std::string& w) {
            return w.empty() || w.back() != ':' ? w : w.substr(0, w.size() - 1);
        };
        const std::string s1 = stem(p[0]);
        const bool colon = !p[0].empty() && p[0].back() == ':';
        // Answer markers, strongest first: "final answer X", "final move: X", "make_move X" (a
        // tool call written as text); "move: X", "answer: X", "bestmove X"; "the move is X",
        // "my move X", "candidate move: X", "choice: X" (what a model considers on its way).
        const bool candidate = p[1] == "candidate" || p[1] == "candidate:" || p[1] == "alternative";
        tok.finalMarked = ((s1 == "answer" || s1 == "move") && stem(p[1]) == "final") || s1 == "make_move" ||
                          (s1 == "is" && (p[1] == "answer" || p[1] == "move") && p[2] == "final") ||
                          (stem(p[1]) == "make_move" && makeMoveArgument(p[0])) ||
                          (s1 == "input" && colon && p[1] == "action" && stem(p[2]) == "make_move");
        const bool mine = (s1 == "move" && p[1] == "my") || (s1 == "is" && p[1] == "move" && p[2] == "my");
        tok.strongMarked = !tok.finalMarked && !candidate &&
                           ((colon && (s1 == "move" || s1 == "answer" || s1 == "san" || s1 == "uci")) ||
                            s1 == "bestmove" || mine);
        tok.plainMarked = !tok.finalMarked && !tok.strongMarked &&
                          ((colon && (s1 == "move" || s1 == "choice" || s1 == "decision" || s1 == "play")) ||
                           (s1 == "is" && (p[1] == "move" || p[1] == "answer")));
        // Its move number: in the token ("17.Bxc3"), as the word before it ("17. Bxc3"), or the
        // reply to a numbered White move ("17. Bxc3 Nf6": Nf6 is Black's 17th).
        tok.numberedPly = plyOfNumber(current);
        if (tok.numberedPly < 0 && !words.empty()) {
            const std::string& last = words.back();
            if (!last.empty() && std::isdigit(static_cast<unsigned char>(last[0])) &&
                last.find_first_not_of("0123456789.") == std::string::npos)
                tok.numberedPly = plyOfNumber(last);
            else if (!tokens.empty() && tokens.back().numberedPly >= 0 && tokens.back().numberedPly % 2 == 0)
                tok.numberedPly = tokens.back().numberedPly + 1;
        }
        // Weak: "I play X", "I'll go with X", "I choose X", "I prefer X".
        for (int k = 0; k < 2; ++k) {
            const std::string w = stem(p[k]);
            if (w == "play" || w == "plays" || w == "playing" || w == "choose" || w == "pick" ||
                w == "prefer" || w == "recommend" || w == "select" || (w == "with" && k == 0 && p[1] == "go"))
                tok.weakMarked = true;
        }
        std::string lower;
        for (const char c : current) lower += char(std::tolower(static_cast<unsigned char>(c)));
        const char last = current.back();
        tok.sentenceEnd = (last == '.' || last == '!' || last == '?') && !moveNumberWord(lower);
        tok.opensFinal = (stem(lower) == "answer" || stem(lower) == "move") && stem(p[0]) == "final";
        tokens.push_back(tok);
        words.push_back(lower);
        current.clear();
        currentEmph = false;
    };
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (current.empty()) currentLine = line;
        if (c == '\n') ++line;
        if ((c == '*' || c == '_') && i + 1 < text.size() && text[i + 1] == c) {
            flush();
            bold = !bold;
            ++i;
            continue;
        }
        if (c == '`') {
            flush();
            code = !code;
            continue;
        }
        if (c == '"') {
            flush();
            quote = !quote;
            continue;
        }
        if (std::isspace(static_cast<unsigned char>(c)) || c == ',' || c == ';' || c == '(' || c == ')' ||
            c == '[' || c == ']' || c == '{' || c == '}' || c == '*' || c == '\'' || c == '<' || c == '>' ||
            c == '|' || c == '\\') {
            // "e8(Q)" keeps its parentheses: only split on '(' when not followed by a piece and ')'.
            if (c == '(' && i + 2 < text.size() && text[i + 2] == ')' &&
                pieceFromLetter(text[i + 1]) != PieceType::None && !current.empty()) {
                current += text.substr(i, 3);
                i += 2;
                continue;
            }
            flush();
            continue;
        }
        if (c == ':' && (i + 1 >= text.size() || std::isspace(static_cast<unsigned char>(text[i + 1])))) {
            current += c;
            flush();
            continue;
        }
        current += c;
        currentEmph = currentEmph || bold || code || quote;
    }
    flush();
    markFinalRegions(tokens);
    return tokens;
}

// "Knight to f3", "bishop takes c6", "pawn to e4": piece words joined with their square.
std::vector<Token> mergePieceWords(const std::vector<Token>& in) {
    std::vector<Token> out;
    for (size_t i = 0; i < in.size(); ++i) {
        std::string w;
        for (const char c : in[i].text)
            if (std::isalpha(static_cast<unsigned char>(c)))
                w += char(std::tolower(static_cast<unsigned char>(c)));
        const char* letter = w == "knight"   ? "N"
                             : w == "bishop" ? "B"
                             : w == "rook"   ? "R"
                             : w == "queen"  ? "Q"
                             : w == "king"   ? "K"
                             : w == "pawn"   ? ""
                                             : nullptr;
        if (letter) {
            size_t j = i + 1;
            bool takes = false;
            // "knight to f3", "knight goes back to f3", "bishop takes on c6": up to three links.
            while (j < in.size() && j < i + 4) {
                std::string link;
                for (const char c : in[j].text) link += char(std::tolower(static_cast<unsigned char>(c)));
                if (link == "to" || link == "onto" || link == "on" || link == "goes" || link == "moves" ||
                    link == "jumps" || link == "retreats" || link == "returns" || link == "back") {
                    ++j;
                } else if (link == "takes" || link == "captures" || link == "x") {
                    takes = true;
                    ++j;
                } else {
                    break;
                }
            }
            if (j < in.size() && j > i) {
                std::string sq = in[j].text;
                while (!sq.empty() && std::ispunct(static_cast<unsigned char>(sq.back()))) sq.pop_back();
                if (parseSquare(sq) != NoSquare) {
                    Token merged = in[i];
                    merged.text = std::string(letter) + (takes ? "x" : "") + sq;
                    merged.emphasised = merged.emphasised || in[j].emphasised;
                    merged.weakMarked = merged.weakMarked || in[j].weakMarked;
                    merged.finalRegion = merged.finalRegion || in[j].finalRegion;
                    out.push_back(merged);
                    i = j;
                    continue;
                }
            }
        }
        out.push_back(in[i]);
    }
    return out;
}

// Value of the first "move"/"san"/"uci"/"answer"/"best_move" key in a JSON-looking fragment.
std::optional<std::string> jsonMoveValue(const std::string& text) {
    for (const char* key :
         {"\"move\"", "\"san\"", "\"uci\"", "\"best_move\"", "\"bestMove\"", "\"answer\""}) {
        size_t k = text.find(key);
        if (k == std::string::npos) continue;
        size_t i = k + std::string_view(key).size();
        while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
        if (i >= text.size() || text[i] != ':') continue;
        ++i;
        while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
        if (i >= text.size() || text[i] != '"') continue;
        const size_t end = text.find('"', i + 1);
        if (end == std::string::npos) continue;
        return text.substr(i + 1, end - i - 1);
    }
    return std::nullopt;
}

MoveReading readGroup(const Position& pos, const MoveList& legal, const std::vector<const Token*>& group,
                      bool& sawMoveLike) {
    // A move numbered after the one to play now ("17.Bxc3" in a line the model looked ahead on)
    // does not compete, unless nothing else in the group is a move (a model may count moves
    // differently from the position's number).
    bool anyNow = false;
    for (const Token* tok : group)
        anyNow = anyNow || ((tok->numberedPly < 0 || tok->numberedPly <= pos.gamePly()) && parseToken(tok->text));
    std::vector<Move> distinct;
    std::string firstProblem;
    for (const Token* tok : group) {
        if (anyNow && tok->numberedPly > pos.gamePly()) continue;
        const auto spec = parseToken(tok->text);
        if (!spec) continue;
        sawMoveLike = true;
        const Resolution r = resolve(pos, legal, *spec);
        if (r.kind == Resolution::Kind::Legal) {
            bool seen = false;
            for (const Move m : distinct) seen |= m == r.move;
            if (!seen) distinct.push_back(r.move);
        } else if (firstProblem.empty()) {
            firstProblem = r.message;
        }
    }
    if (distinct.size() == 1) return {distinct[0], ""};
    if (distinct.size() > 1) {
        std::string list;
        for (size_t i = 0; i < distinct.size(); ++i) {
            if (i) list += i + 1 == distinct.size() ? " and " : ", ";
            list += toSan(pos, distinct[i]);
        }
        return {Move(), "the answer names several legal moves (" + list + "); give exactly one"};
    }
    return {Move(), firstProblem.empty() ? "no move found" : firstProblem};
}

} // namespace

MoveReading readMove(const Position& pos, std::string_view freeText) {
    if (freeText.size() > 100000) freeText = freeText.substr(freeText.size() - 100000);
    std::string text = normalise(freeText);
    MoveList legal;
    generateLegal(pos, legal);
    if (legal.empty()) return {Move(), "there is no legal move: the game is over"};
    if (const auto value = jsonMoveValue(text)) {
        text = *value;
        if (text.find_first_not_of(" \t\n") == std::string::npos) return {Move(), "the move field is empty"};
    }
    const std::vector<Token> tokens = mergePieceWords(tokenize(text));
    // Tiers: tokens right after a final-answer marker, then after an answer marker, then after
    // a softer one ("the move is"); emphasised or "play"-marked tokens; every token. The first
    // tier holding a move-like token decides.
    std::vector<const Token*> finalTier, finalRegion, strong, plain, marked, all;
    for (const Token& t : tokens) {
        all.push_back(&t);
        if (t.finalMarked) finalTier.push_back(&t);
        if (t.finalRegion) finalRegion.push_back(&t);
        if (t.strongMarked) strong.push_back(&t);
        if (t.plainMarked) plain.push_back(&t);
        if (t.emphasised || t.weakMarked) marked.push_back(&t);
    }
    for (const auto* tier : {&finalTier, &finalRegion, &strong, &plain, &marked}) {
        bool sawMoveLike = false;
        MoveReading r = readGroup(pos, legal, *tier, sawMoveLike);
        if (sawMoveLike) return r;
    }
    bool sawMoveLike = false;
    MoveReading r = readGroup(pos, legal, all, sawMoveLike);
    if (r.ok() || sawMoveLike) return r;
    return {Move(), "no move found"};
}

} // namespace chaiba::chess
