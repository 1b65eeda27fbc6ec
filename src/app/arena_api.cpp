// The arena's part of the automation API (window.chaiba.arena): the same paths as the buttons,
// for the browser tests and for people who script the page.
#include "src/app/app.h"

#include "src/modes/chess/bundle.h"

#include <nlohmann/json.hpp>

#include <cstdlib>

namespace chaiba {

using nlohmann::json;

std::string App::arenaStateJson() const {
    const ArenaSession& a = *arena_;
    json doc = json::object();
    doc["screen"] = screen_ == Screen::Arena ? "arena" : "match";
    doc["phase"] = arenaPhaseName(a.phase());
    doc["gamesFinished"] = a.gamesFinished();
    doc["totalGames"] = a.totalGames();
    doc["spentUsd"] = a.spentUsd();
    doc["ticks"] = a.ticks();
    doc["error"] = a.error();
    doc["notice"] = arenaNotice_;
    doc["selectedGame"] = arenaGame_;
    doc["excludeForfeits"] = a.excludeForfeits();
    if (auto matches = a.importedMatches()) doc["importedMatches"] = *matches;
    else doc["importedMatches"] = nullptr;
    const chessmode::TournamentConfig& config = a.hasTournament() ? a.config() : a.draft();
    chessmode::Parsed<std::string> configText = chessmode::configJson(config);
    doc["config"] = configText.ok() ? json::parse(*configText.value, nullptr, false) : json(nullptr);
    if (auto problem = a.checkDraft(); problem && !a.hasTournament()) doc["problem"] = *problem;
    json rows = json::array();
    for (const chessmode::LeaderboardRow& r : a.leaderboard().rows)
        rows.push_back({{"participant", r.participant}, {"name", a.participantName(r.participant)}, {"rank", r.rank},
                        {"rating", r.rating}, {"low", r.ratingLow}, {"high", r.ratingHigh}, {"anchored", r.anchored},
                        {"elo", r.elo}, {"games", r.games}, {"wins", r.wins}, {"draws", r.draws},
                        {"losses", r.losses}, {"forfeits", r.forfeits}, {"illegalPer100", r.illegalPer100Moves},
                        {"costUsd", r.costUsd}, {"avgTokensPerMove", r.avgTokensPerMove}});
    doc["leaderboard"] = rows;
    doc["gamesRated"] = a.leaderboard().gamesRated;
    json games = json::array();
    for (const chessmode::GameRecord& g : a.games()) {
        json moves = json::array();
        int illegal = 0;
        for (const auto& t : g.moves) {
            moves.push_back(t.uci);
            illegal += t.illegalAttempts;
        }
        games.push_back({{"id", g.pairing.id}, {"white", g.pairing.white}, {"black", g.pairing.black},
                         {"result", std::string(chessmode::resultText(g.result))},
                         {"termination", std::string(chessmode::terminationName(g.termination))}, {"detail", g.detail},
                         {"startFen", g.startFen}, {"moves", moves}, {"illegalAttempts", illegal}});
    }
    doc["games"] = games;
    json live = json::array();
    if (const chessmode::TournamentRunner* r = a.runner())
        for (const auto& g : r->liveGames())
            live.push_back({{"id", g->pairing.id}, {"plies", g->match->moves().size()},
                            {"thinking", g->match->thinking()}, {"fen", g->match->game().position().fen()}});
    doc["live"] = live;
    json slots = json::array();
    for (const ArenaSlot& s : a.slots()) slots.push_back({{"game", s.gameId}, {"live", s.live}});
    doc["slots"] = slots;
    return doc.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::optional<std::string> App::arenaConfigure(const std::string& configText) {
    if (arena_->hasTournament()) return std::string("a tournament is set up: reset it before changing the setup");
    chessmode::Parsed<chessmode::TournamentConfig> config = chessmode::parseConfigJson(configText);
    if (!config.ok()) return config.error;
    arena_->draft() = *config.value;
    arena_->saveDraft();
    return std::nullopt;
}

std::optional<std::string> App::arenaCommand(const std::string& command, const std::string& argument) {
    const double now = services_.platform->nowMs();
    if (command == "show") {
        if (argument != "arena" && argument != "match") return std::string("show takes 'arena' or 'match'");
        showScreen(argument == "arena" ? Screen::Arena : Screen::Match);
        return std::nullopt;
    }
    if (command == "start") return arena_->start(settings_, now);
    if (command == "stop" || command == "finish") {
        if (!arena_->runner()) return std::string("the tournament is not running");
        arena_->stop(command == "finish");
        return std::nullopt;
    }
    if (command == "resume") return arena_->resume(settings_, now);
    if (command == "reset") {
        arena_->reset();
        arenaReplays_.clear();
        arenaGame_ = -1;
        return std::nullopt;
    }
    if (command == "excludeForfeits") {
        arena_->setExcludeForfeits(argument == "1");
        return std::nullopt;
    }
    if (command == "select") {
        const int id = std::atoi(argument.c_str());
        if (id >= 0 && !arena_->game(id)) return "no game " + argument;
        arenaGame_ = id;
        arenaNav_ = MoveNavigator();
        arenaTab_ = 0;
        arenaTabRequested_ = true;
        return std::nullopt;
    }
    if (command == "tab") {
        if (argument != "games" && argument != "leaderboard") return std::string("tab takes 'games' or 'leaderboard'");
        arenaTab_ = argument == "games" ? 0 : 1;
        arenaTabRequested_ = true;
        return std::nullopt;
    }
    if (command == "import") return arena_->importJson(argument);
    return "unknown arena command '" + command + "'";
}

std::string App::arenaExport(const std::string& what) const {
    const chessmode::Parsed<std::string> out = what == "pgn" ? arena_->exportPgn() : arena_->exportJson();
    return out.ok() ? *out.value : "error: " + out.error;
}

} // namespace chaiba
