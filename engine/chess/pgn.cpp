// PGN writing (roster tags, wrapped movetext, sanitized comments) and reading (multi-game files,
// comments, NAGs, skipped variations, % escape lines, FEN/SetUp/Variant tags).
#include "engine/chess/pgn.h"

#include "engine/chess/notation.h"

#include <cctype>
#include <unordered_map>

namespace chaiba::chess {

namespace {

constexpr const char* kRoster[7] = {"Event", "Site", "Date", "Round", "White", "Black", "Result"};

bool isRoster(std::string_view name) {
    for (const char* r : kRoster)
        if (name == r) return true;
    return false;
}

std::string escapeTag(std::string_view v) {
    std::string out;
    for (const char c : v) {
        if (c == '"' || c == '\\') out += '\\';
        out += (c == '\n' || c == '\r') ? ' ' : c;
    }
    return out;
}

// PGN comments cannot contain '}' and have no escape: braces become parentheses.
std::string sanitizeComment(std::string_view text) {
    std::string out;
    for (const char c : text) {
        if (c == '}')
            out += ')';
        else if (c == '{')
            out += '(';
        else if (c == '\n' || c == '\r' || c == '\t')
            out += ' ';
        else
            out += c;
    }
    return out;
}

// Comment text with every run of whitespace (line breaks from wrapping too) turned into one space.
std::string collapseSpace(std::string_view text) {
    std::string out;
    bool space = false;
    for (const char c : text) {
        if (std::isspace(static_cast<unsigned char>(c))) {
            space = !out.empty();
        } else {
            if (space) out += ' ';
            space = false;
            out += c;
        }
    }
    return out;
}

bool isResult(std::string_view r) {
    return r == "1-0" || r == "0-1" || r == "1/2-1/2" || r == "*";
}

bool isVariant960(std::string_view v) {
    std::string lower;
    for (const char c : v)
        if (c != ' ' && c != '-') lower += char(std::tolower(static_cast<unsigned char>(c)));
    return lower == "chess960" || lower == "fischerandom" || lower == "fischerrandom" || lower == "960";
}

} // namespace

std::string PgnGame::tag(std::string_view name) const {
    for (const auto& t : tags)
        if (t.name == name) return t.value;
    return "";
}

void PgnGame::setTag(std::string_view name, std::string value) {
    for (auto& t : tags)
        if (t.name == name) {
            t.value = std::move(value);
            return;
        }
    tags.push_back(PgnTag{std::string(name), std::move(value)});
}

// Appends [Name "value"] (GCC 12 warns falsely on chains of "[" + std::string + ...).
void appendTag(std::string& out, std::string_view name, std::string_view value) {
    out += '[';
    out.append(name);
    out += " \"";
    out += escapeTag(value);
    out += "\"]\n";
}

std::string writePgn(const PgnGame& game) {
    std::string out;
    for (const char* name : kRoster) {
        std::string value =
            std::string_view(name) == "Result" ? (isResult(game.result) ? game.result : "*") : game.tag(name);
        if (value.empty()) value = std::string_view(name) == "Date" ? "????.??.??" : "?";
        appendTag(out, name, value);
    }
    const bool customStart = game.start.fen() != Position::startPosition().fen();
    if (game.start.isChess960() && game.tag("Variant").empty()) appendTag(out, "Variant", "Chess960");
    if ((customStart || game.start.isChess960()) && game.tag("FEN").empty()) {
        appendTag(out, "SetUp", "1");
        appendTag(out, "FEN", game.start.fen());
    }
    for (const auto& t : game.tags)
        if (!isRoster(t.name)) appendTag(out, t.name, t.value);
    out += '\n';

    std::vector<std::string> words;
    auto addComment = [&](const std::string& text) {
        if (text.empty()) return;
        const std::string clean = sanitizeComment(text);
        std::string word = "{";
        size_t i = 0;
        bool first = true;
        while (i < clean.size()) {
            while (i < clean.size() && clean[i] == ' ') ++i;
            size_t j = i;
            while (j < clean.size() && clean[j] != ' ') ++j;
            if (j > i) {
                if (!first) {
                    words.push_back(word);
                    word.clear();
                }
                word += clean.substr(i, j - i);
                first = false;
            }
            i = j;
        }
        word += "}";
        words.push_back(word);
    };
    addComment(game.preComment);
    Position pos = game.start;
    bool needNumber = true;
    for (size_t i = 0; i < game.moves.size(); ++i) {
        const Move m = game.moves[i];
        if (pos.sideToMove() == Color::White)
            words.push_back(std::to_string(pos.fullmoveNumber()) + ".");
        else if (needNumber)
            words.push_back(std::to_string(pos.fullmoveNumber()) + "...");
        words.push_back(toSan(pos, m));
        pos.makeMove(m);
        needNumber = false;
        if (i < game.nags.size())
            for (const int nag : game.nags[i])
                if (nag > 0 && nag < 256) words.push_back("$" + std::to_string(nag));
        if (i < game.comments.size() && !game.comments[i].empty()) {
            addComment(game.comments[i]);
            needNumber = true;
        }
    }
    words.push_back(isResult(game.result) ? game.result : "*");
    size_t column = 0;
    for (const auto& w : words) {
        if (column > 0 && column + 1 + w.size() > 79) {
            out += '\n';
            column = 0;
        }
        if (column > 0) {
            out += ' ';
            ++column;
        } else if (!w.empty() && w[0] == '%') {
            out += ' '; // a line starting with % would be an escape line
            ++column;
        }
        out += w;
        column += w.size();
    }
    out += "\n";
    return out;
}

namespace {

// Reads one PGN text as a sequence of games; errors name the game and the move.
class PgnReader {
public:
    explicit PgnReader(std::string_view text) : text_(text) {}

    PgnReadResult run() {
        PgnReadResult result;
        while (true) {
            skipSpaceAndEscapes();
            if (pos_ >= text_.size()) break;
            PgnGame game;
            std::string error = readGame(game, int(result.games.size()) + 1);
            if (!error.empty()) {
                result.error = error;
                return result;
            }
            result.games.push_back(std::move(game));
        }
        return result;
    }

private:
    static constexpr size_t kMaxTagsPerGame = 1000; // real games have a dozen or two
    std::string_view text_;
    size_t pos_ = 0;
    std::unordered_map<std::string, size_t> tagIndex_; // the current game's tags by name

    bool atLineStart() const { return pos_ == 0 || text_[pos_ - 1] == '\n'; }

    void skipSpaceAndEscapes() {
        while (pos_ < text_.size()) {
            const char c = text_[pos_];
            if (c == '%' && atLineStart()) {
                while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
            } else if (std::isspace(static_cast<unsigned char>(c)) || (c == '\xEF' && pos_ == 0)) {
                ++pos_; // the first byte of a UTF-8 BOM is skipped with the rest below
            } else if (pos_ <= 2 && (c == '\xBB' || c == '\xBF')) {
                ++pos_;
            } else {
                break;
            }
        }
    }

    static std::string gameName(int number, const PgnGame& g) {
        std::string name = "game " + std::to_string(number);
        if (!g.tag("White").empty() || !g.tag("Black").empty())
            name += " (" + g.tag("White") + " - " + g.tag("Black") + ")";
        return name;
    }

    std::string readTag(PgnGame& game, int number) {
        ++pos_; // '['
        size_t nameStart = pos_;
        while (pos_ < text_.size() &&
               (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_'))
            ++pos_;
        const std::string name(text_.substr(nameStart, pos_ - nameStart));
        while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t')) ++pos_;
        if (name.empty() || pos_ >= text_.size() || text_[pos_] != '"')
            return gameName(number, game) + ": malformed tag pair";
        ++pos_;
        std::string value;
        while (pos_ < text_.size() && text_[pos_] != '"' && text_[pos_] != '\n') {
            if (text_[pos_] == '\\' && pos_ + 1 < text_.size()) ++pos_;
            value += text_[pos_++];
        }
        if (pos_ >= text_.size() || text_[pos_] != '"')
            return gameName(number, game) + ": unterminated tag value for " + name;
        ++pos_;
        while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t')) ++pos_;
        if (pos_ >= text_.size() || text_[pos_] != ']')
            return gameName(number, game) + ": tag " + name + " lacks ']'";
        ++pos_;
        // A repeated tag replaces the earlier value; the index keeps a long tag section linear.
        if (auto it = tagIndex_.find(name); it != tagIndex_.end()) {
            game.tags[it->second].value = std::move(value);
            return "";
        }
        if (game.tags.size() >= kMaxTagsPerGame)
            return gameName(number, game) + ": more than " + std::to_string(kMaxTagsPerGame) + " tags";
        tagIndex_.emplace(name, game.tags.size());
        game.tags.push_back(PgnTag{name, std::move(value)});
        return "";
    }

    std::string readGame(PgnGame& game, int number) {
        // Tags.
        tagIndex_.clear();
        while (pos_ < text_.size() && text_[pos_] == '[') {
            if (std::string e = readTag(game, number); !e.empty()) return e;
            skipSpaceAndEscapes();
        }
        const bool is960 = isVariant960(game.tag("Variant"));
        const std::string fen = game.tag("FEN");
        if (!fen.empty()) {
            FenResult r = Position::fromFen(fen, is960);
            if (!r.ok()) return gameName(number, game) + ": bad FEN tag: " + r.error;
            game.start = *r.position;
        } else if (is960) {
            game.start.setChess960(true);
        }
        Position pos = game.start;
        // Movetext.
        int variationDepth = 0;
        auto appendComment = [&](std::string text) {
            std::string& slot = game.moves.empty() ? game.preComment : game.comments.back();
            if (!slot.empty()) slot += ' ';
            slot += text;
        };
        while (true) {
            skipSpaceAndEscapes();
            if (pos_ >= text_.size()) break;
            const char c = text_[pos_];
            if (c == '[' && variationDepth == 0) break; // next game without a result token
            if (c == '{') {
                const size_t end = text_.find('}', pos_);
                if (end == std::string_view::npos) return gameName(number, game) + ": unterminated comment";
                if (variationDepth == 0) appendComment(collapseSpace(text_.substr(pos_ + 1, end - pos_ - 1)));
                pos_ = end + 1;
                continue;
            }
            if (c == ';') {
                while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
                continue;
            }
            if (c == '(') {
                ++variationDepth;
                ++pos_;
                continue;
            }
            if (c == ')') {
                if (variationDepth == 0) return gameName(number, game) + ": ')' without '('";
                --variationDepth;
                ++pos_;
                continue;
            }
            size_t end = pos_;
            while (end < text_.size() && !std::isspace(static_cast<unsigned char>(text_[end])) &&
                   std::string_view("{}();[").find(text_[end]) == std::string_view::npos)
                ++end;
            if (end == pos_) {
                return gameName(number, game) + ": unexpected character '" + std::string(1, c) + "'";
            }
            std::string_view token = text_.substr(pos_, end - pos_);
            pos_ = end;
            if (variationDepth > 0) continue;
            if (isResult(token)) {
                game.result = std::string(token);
                return finish(game, number);
            }
            if (token[0] == '$') { // NAG after the last move
                int nag = 0;
                for (size_t k = 1; k < token.size() && k < 4; ++k)
                    if (std::isdigit(static_cast<unsigned char>(token[k]))) nag = nag * 10 + (token[k] - '0');
                if (!game.moves.empty() && nag > 0 && nag < 256) {
                    game.nags.resize(game.moves.size());
                    game.nags.back().push_back(nag);
                }
                continue;
            }
            // Move number: digits followed by dots ("12." "12..." or "12...Nf6").
            size_t digits = 0;
            while (digits < token.size() && std::isdigit(static_cast<unsigned char>(token[digits]))) ++digits;
            if (digits > 0 && digits < token.size() && token[digits] == '.') {
                while (digits < token.size() && token[digits] == '.') ++digits;
                token.remove_prefix(digits);
                if (token.empty()) continue;
            } else if (digits == token.size()) {
                continue; // a bare number (some writers omit the dot)
            }
            std::string san(token);
            if (san == "0-0") san = "O-O";
            if (san == "0-0-0") san = "O-O-O";
            const MoveResult r = parseSan(pos, san);
            if (!r.ok()) {
                const std::string moveName = std::to_string(pos.fullmoveNumber()) +
                                             (pos.sideToMove() == Color::White ? ". " : "... ") + san;
                return gameName(number, game) + ", move " + moveName + ": " + r.error;
            }
            pos.makeMove(r.move);
            game.moves.push_back(r.move);
            game.comments.emplace_back();
        }
        if (variationDepth > 0) return gameName(number, game) + ": unterminated variation";
        if (game.moves.empty() && game.tags.empty()) return gameName(number, game) + ": no game found";
        game.result = game.tag("Result").empty() ? "*" : game.tag("Result");
        return finish(game, number);
    }

    std::string finish(PgnGame& game, int number) {
        const std::string tagResult = game.tag("Result");
        if (!tagResult.empty() && !isResult(tagResult))
            return gameName(number, game) + ": Result tag '" + tagResult + "' is not 1-0, 0-1, 1/2-1/2 or *";
        if (!tagResult.empty() && tagResult != game.result)
            return gameName(number, game) + ": Result tag " + tagResult +
                   " differs from the movetext result " + game.result;
        return "";
    }
};

} // namespace

PgnReadResult readPgn(std::string_view text) {
    return PgnReader(text).run();
}

Game toGame(const PgnGame& pgn) {
    Game game(pgn.start);
    for (const Move m : pgn.moves) game.play(m);
    return game;
}

PgnGame pgnFromGame(const Game& game) {
    PgnGame pgn;
    pgn.start = game.startPosition();
    pgn.moves = game.moves();
    pgn.comments.assign(pgn.moves.size(), "");
    pgn.result = game.result();
    const std::string why = game.termination();
    if (!why.empty()) pgn.setTag("Termination", why);
    return pgn;
}

} // namespace chaiba::chess
