// MatchHistory: see match_history.h. Records are decoded once here into HistoryGame values.
#include "src/modes/chess/match_history.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace chaiba {

using nlohmann::json;

namespace {

constexpr const char* kHeadFormat = "chaiba-match-history";
constexpr const char* kGameFormat = "chaiba-match-game";
constexpr int kHeadVersion = 1;
// A damaged head: the games are looked for by number, until this many numbers in a row are free.
constexpr int kProbeGap = 64;

std::string textOr(const json& o, const char* key) {
    return o.is_object() && o.contains(key) && o[key].is_string() ? o[key].get<std::string>() : std::string();
}

std::string dumped(const json& j) {
    return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

// The session's save (version 1) as the history lists it: what a finished save says of itself.
play::Parsed<HistoryGame> fromSessionSave(const json& save) {
    using Result = play::Parsed<HistoryGame>;
    HistoryGame g;
    g.whiteSpec = textOr(save, "white");
    g.blackSpec = textOr(save, "black");
    if (g.whiteSpec.empty() || g.blackSpec.empty()) return Result::fail("the players are missing");
    if (!save.contains("moves") || !save["moves"].is_array()) return Result::fail("the moves are missing");
    g.white = g.whiteSpec == "person" ? "Person" : g.whiteSpec;
    g.black = g.blackSpec == "person" ? "Person" : g.blackSpec;
    g.date = textOr(save, "date");
    const auto result = chessmode::parseResultText(textOr(save, "result"));
    if (!result || *result == chessmode::GameResult::Unfinished)
        return Result::fail("the game has no result");
    g.result = *result;
    g.termination = textOr(save, "termination");
    const std::string& t = g.termination;
    g.ending = t == "checkmate" || t == "stalemate"          ? t
               : t.find("resigns") != std::string::npos      ? "resignation"
               : t.find("agreed") != std::string::npos       ? "agreement"
               : t.find("forfeit") != std::string::npos      ? "forfeit"
               : t.find("adjudicated") != std::string::npos  ? "move_limit"
               : t.find("insufficient") != std::string::npos ? "insufficient_material"
               : t.find("threefold") != std::string::npos    ? "threefold_repetition"
               : t.find("fivefold") != std::string::npos     ? "fivefold_repetition"
               : t.find("fifty") != std::string::npos        ? "fifty_move"
               : t.find("seventy-five") != std::string::npos ? "seventy_five_move"
                                                             : "other";
    for (const json& m : save["moves"]) {
        if (!m.is_object()) return Result::fail("a move is damaged");
        if (m.contains("ply") && m["ply"].is_number_integer() && m["ply"].get<int>() >= 0) ++g.plies;
        if (m.contains("costUsd") && m["costUsd"].is_number()) g.costUsd += m["costUsd"].get<double>();
    }
    auto isModel = [](const std::string& spec) {
        return spec != "person" && spec != "random" && spec.rfind("engine", 0) != 0 && spec != "bot";
    };
    g.models = isModel(g.whiteSpec) || isModel(g.blackSpec);
    g.gameKey = g.date + "#" +
                (save.contains("seed") && save["seed"].is_number_unsigned()
                     ? std::to_string(save["seed"].get<uint64_t>())
                     : std::string("?"));
    g.saveJson = dumped(save);
    return Result{std::move(g), {}};
}

} // namespace

std::string historyRecordJson(const HistoryGame& g) {
    json game = json::parse(g.saveJson, nullptr, false);
    if (game.is_discarded()) game = nullptr;
    const json summary = {
        {"gameKey", g.gameKey},       {"date", g.date},
        {"finishedAt", g.finishedAt}, {"white", g.white},
        {"black", g.black},           {"whiteSpec", g.whiteSpec},
        {"blackSpec", g.blackSpec},   {"result", std::string(chessmode::resultText(g.result))},
        {"ending", g.ending},         {"termination", g.termination},
        {"opening", g.opening},       {"plies", g.plies},
        {"costUsd", g.costUsd},       {"models", g.models}};
    return dumped({{"format", kGameFormat},
                   {"version", MatchHistory::kGameVersion},
                   {"summary", summary},
                   {"game", game},
                   {"pgn", g.pgn}});
}

play::Parsed<HistoryGame> readHistoryRecord(std::string_view text, int id) {
    using Result = play::Parsed<HistoryGame>;
    const json doc = json::parse(text.begin(), text.end(), nullptr, false);
    if (doc.is_discarded() || !doc.is_object()) return Result::fail("not readable JSON");
    play::Parsed<HistoryGame> read = Result::fail("");
    if (!doc.contains("format")) {
        // The session's own save (version 1): a finished game kept for resume.
        if (!doc.contains("version") || !doc["version"].is_number_integer() || doc["version"].get<int>() != 1)
            return Result::fail("not a saved game of this version");
        read = fromSessionSave(doc);
        if (!read.ok()) return read;
    } else {
        if (textOr(doc, "format") != kGameFormat) return Result::fail("not a game of the match history");
        if (!doc.contains("version") || !doc["version"].is_number_integer())
            return Result::fail("no version");
        if (doc["version"].get<int>() > MatchHistory::kGameVersion)
            return Result::fail("written by a newer version of this page");
        const json& s = doc.contains("summary") ? doc["summary"] : json();
        if (!s.is_object()) return Result::fail("its summary is missing");
        if (!doc.contains("game") || !doc["game"].is_object()) return Result::fail("its moves are missing");
        HistoryGame g;
        g.gameKey = textOr(s, "gameKey");
        g.date = textOr(s, "date");
        g.finishedAt = textOr(s, "finishedAt");
        g.white = textOr(s, "white");
        g.black = textOr(s, "black");
        g.whiteSpec = textOr(s, "whiteSpec");
        g.blackSpec = textOr(s, "blackSpec");
        const auto result = chessmode::parseResultText(textOr(s, "result"));
        if (!result || *result == chessmode::GameResult::Unfinished)
            return Result::fail("its result is damaged");
        g.result = *result;
        g.ending = textOr(s, "ending");
        g.termination = textOr(s, "termination");
        g.opening = textOr(s, "opening");
        if (!s.contains("plies") || !s["plies"].is_number_integer())
            return Result::fail("its length is damaged");
        g.plies = s["plies"].get<int>();
        g.costUsd = s.contains("costUsd") && s["costUsd"].is_number() ? s["costUsd"].get<double>() : 0.0;
        g.models = s.contains("models") && s["models"].is_boolean() && s["models"].get<bool>();
        if (g.white.empty() || g.black.empty()) return Result::fail("its players are missing");
        g.saveJson = dumped(doc["game"]);
        g.pgn = textOr(doc, "pgn");
        read = Result{std::move(g), {}};
    }
    read.value->id = id;
    return read;
}

void MatchHistory::load() {
    games_.clear();
    problems_.clear();
    next_ = 1;
    ++revision_;
    if (!store_) return;
    const std::optional<std::string> head = store_->get(kHeadKey);
    if (!head) return;
    std::vector<int> ids;
    const json doc = json::parse(*head, nullptr, false);
    const bool readable = doc.is_object() && textOr(doc, "format") == kHeadFormat && doc.contains("ids") &&
                          doc["ids"].is_array() && doc.contains("version") &&
                          doc["version"].is_number_integer() && doc["version"].get<int>() <= kHeadVersion;
    if (readable) {
        for (const json& id : doc["ids"])
            if (id.is_number_integer() && id.get<int>() > 0) ids.push_back(id.get<int>());
        if (doc.contains("next") && doc["next"].is_number_integer())
            next_ = std::max(1, doc["next"].get<int>());
    } else {
        // The list is lost, not the games: kept aside, and the games found by their numbers.
        store_->set(std::string(kHeadKey) + ".corrupt", *head);
        problems_.push_back(
            "The list of past games was damaged (kept aside); the games were found by their numbers.");
        for (int id = 1, gap = 0; gap < kProbeGap; ++id) {
            if (store_->get(gameKeyOf(id))) {
                ids.push_back(id);
                gap = 0;
            } else {
                ++gap;
            }
        }
    }
    for (int id : ids) {
        next_ = std::max(next_, id + 1);
        const std::optional<std::string> text = store_->get(gameKeyOf(id));
        if (!text) {
            problems_.push_back("Game " + std::to_string(id) +
                                " of the history is missing from this browser's storage; it was skipped.");
            continue;
        }
        play::Parsed<HistoryGame> game = readHistoryRecord(*text, id);
        if (!game.ok()) {
            problems_.push_back("Game " + std::to_string(id) + " of the history could not be read (" +
                                game.error + "); it was skipped and left in storage as it is.");
            continue;
        }
        games_.push_back(std::move(*game.value));
    }
    if (!readable) writeHead();
}

const HistoryGame* MatchHistory::find(int id) const {
    for (const HistoryGame& g : games_)
        if (g.id == id) return &g;
    return nullptr;
}

std::optional<std::string> MatchHistory::writeHead() {
    if (!store_) return std::nullopt;
    json ids = json::array();
    for (const HistoryGame& g : games_) ids.push_back(g.id);
    return store_->set(
        kHeadKey,
        dumped({{"format", kHeadFormat}, {"version", kHeadVersion}, {"next", next_}, {"ids", ids}}));
}

std::optional<std::string> MatchHistory::add(HistoryGame game) {
    auto same = std::find_if(games_.begin(), games_.end(), [&](const HistoryGame& g) {
        return !game.gameKey.empty() && g.gameKey == game.gameKey;
    });
    const bool replacing = same != games_.end();
    game.id = replacing ? same->id : next_;
    if (store_) {
        if (auto error = store_->set(gameKeyOf(game.id), historyRecordJson(game)))
            return "This game was not added to the history (" + *error +
                   "); the games stored before are kept.";
    }
    ++revision_;
    if (replacing) {
        *same = std::move(game);
        return std::nullopt;
    }
    ++next_;
    games_.push_back(std::move(game));
    if (auto error = writeHead()) {
        // Not listed: its record goes too, and the history is as it was.
        if (store_) store_->remove(gameKeyOf(games_.back().id));
        games_.pop_back();
        return "This game was not added to the history (" + *error + "); the games stored before are kept.";
    }
    return std::nullopt;
}

std::optional<std::string> MatchHistory::remove(int id) {
    auto it = std::find_if(games_.begin(), games_.end(), [id](const HistoryGame& g) { return g.id == id; });
    if (it == games_.end()) return "no game " + std::to_string(id) + " in the history";
    HistoryGame gone = std::move(*it);
    const size_t at = size_t(it - games_.begin());
    games_.erase(it);
    if (auto error = writeHead()) {
        games_.insert(games_.begin() + std::ptrdiff_t(at), std::move(gone));
        return "The game could not be deleted (" + *error + ")";
    }
    if (store_) store_->remove(gameKeyOf(id));
    ++revision_;
    return std::nullopt;
}

std::optional<HistoryGame> historyGameOf(const MatchSession& session, std::string opening,
                                         std::string finishedAt) {
    const chessmode::MatchRunner* r = session.runner();
    if (!r || !r->decided()) return std::nullopt;
    const auto result = chessmode::parseResultText(r->result());
    if (!result || *result == chessmode::GameResult::Unfinished) return std::nullopt;
    HistoryGame g;
    g.gameKey = session.gameKey();
    g.date = session.date();
    g.finishedAt = std::move(finishedAt);
    g.white = session.playerName(chess::Color::White);
    g.black = session.playerName(chess::Color::Black);
    g.whiteSpec = session.setup().white.text();
    g.blackSpec = session.setup().black.text();
    g.result = *result;
    g.ending = session.ending();
    g.termination = r->termination();
    g.opening = std::move(opening);
    g.plies = int(r->game().moves().size());
    g.costUsd = r->costUsd(chess::Color::White) + r->costUsd(chess::Color::Black);
    g.models =
        session.setup().white.kind == PlayerKind::Model || session.setup().black.kind == PlayerKind::Model;
    g.saveJson = session.saveJson();
    g.pgn = session.pgn();
    return g;
}

std::string historyOpeningName(const std::vector<chessmode::Opening>& suite, const chess::Position& start,
                               const std::vector<std::string>& uciMoves) {
    if (start.fen() != chess::Position::startPosition().fen()) return {};
    const chessmode::Opening* best = nullptr;
    for (const chessmode::Opening& o : suite) {
        if (!o.fen.empty() && o.fen != start.fen()) continue;
        if (o.moves.empty() || o.moves.size() > uciMoves.size()) continue;
        if (!std::equal(o.moves.begin(), o.moves.end(), uciMoves.begin())) continue;
        if (!best || o.moves.size() > best->moves.size()) best = &o;
    }
    return best ? best->name : std::string();
}

chessmode::GameFacts historyFacts(const HistoryGame& game, std::vector<std::string>& players,
                                  std::vector<std::string>& openings) {
    auto indexOf = [](std::vector<std::string>& names, const std::string& name) {
        auto it = std::find(names.begin(), names.end(), name);
        if (it != names.end()) return int(it - names.begin());
        names.push_back(name);
        return int(names.size() - 1);
    };
    chessmode::GameFacts f;
    f.white = indexOf(players, game.white);
    f.black = indexOf(players, game.black);
    f.result = game.result;
    f.ending = game.ending;
    f.forfeit = game.ending == "forfeit";
    f.opening = game.opening.empty() ? -1 : indexOf(openings, game.opening);
    return f;
}

} // namespace chaiba
