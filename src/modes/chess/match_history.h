// The match screen's history: every finished game of the match screen (any players), kept in the
// page's store one record per game under a small head that lists them, so a damaged record costs
// that game only. Free of ImGui: the same code runs over the native store in the tests.
#pragma once

#include "src/modes/chess/games_filter.h"
#include "src/modes/chess/match_session.h"
#include "src/modes/chess/tournament.h"
#include "src/persist/key_value_store.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace chaiba {

// One finished game as the history keeps and lists it.
struct HistoryGame {
    int id = -1;            // the history's number for it: a newer game has a larger one
    std::string gameKey;    // the game's identity (start day and seed): recorded again, it replaces its entry
    std::string date;       // the PGN Date ("2026.11.28"), empty when unknown
    std::string finishedAt; // "2026-11-28T18:02:11Z", empty when unknown (an older save)
    std::string white, black;         // as the screen names the players ("Engine · level 4 · ≈1600")
    std::string whiteSpec, blackSpec; // the player specs ("engine:4", "random", "person", a model id)
    chessmode::GameResult result = chessmode::GameResult::Unfinished;
    std::string ending;      // GameFacts::ending: "checkmate", "resignation", "agreement", "forfeit", ...
    std::string termination; // as the game said it ("White resigns", "checkmate")
    std::string opening;     // the suite's opening the game began with, empty when none is known
    int plies = 0;
    double costUsd = 0;   // both sides' model calls
    bool models = false;  // a language model played
    std::string saveJson; // MatchSession::saveJson(): what the review restores
    std::string pgn;      // the PGN as the game's session wrote it (names, costs, reasoning)
};

// The history over a key-value store. Layout: the head "chaiba.matchHistory" = {"format":
// "chaiba-match-history", "version": 1, "next": N, "ids": [oldest … newest]}; each game under
// "chaiba.matchHistory.<id>" = {"format": "chaiba-match-game", "version": 2, "summary": {...},
// "game": <the session's save>, "pgn": "..."}. A record that is the session's own save (version 1,
// what the match screen kept for resume before the history existed) still loads.
class MatchHistory {
public:
    static constexpr const char* kHeadKey = "chaiba.matchHistory";
    static constexpr int kGameVersion = 2;
    static std::string gameKeyOf(int id) { return std::string(kHeadKey) + "." + std::to_string(id); }

    // store may be null (nothing is kept; the history lives in memory).
    explicit MatchHistory(KeyValueStore* store) : store_(store) {}

    // Reads the head and every game it lists. A damaged game is skipped and said in problems()
    // (its record stays in the store, untouched); a damaged head is kept aside under
    // "<head>.corrupt" and the games are found by their numbers.
    void load();
    const std::vector<HistoryGame>& games() const { return games_; } // oldest first
    const std::vector<std::string>& problems() const { return problems_; }
    const HistoryGame* find(int id) const;
    // Adds a game (one with the same gameKey is replaced in place). The game's record is written
    // before the head that lists it: a refused write (a full store) changes nothing already
    // stored, and the error sentence says so.
    std::optional<std::string> add(HistoryGame game);
    // Forgets a game: the head first, then its record.
    std::optional<std::string> remove(int id);
    // Increases with every change (for the screen's frames).
    uint64_t revision() const { return revision_; }

private:
    std::optional<std::string> writeHead();
    KeyValueStore* store_;
    std::vector<HistoryGame> games_;
    std::vector<std::string> problems_;
    int next_ = 1;
    uint64_t revision_ = 0;
};

// One record's text as the store keeps it, and back (an error sentence for damaged text). The
// reader takes the current format and the session's own save (version 1).
std::string historyRecordJson(const HistoryGame& game);
play::Parsed<HistoryGame> readHistoryRecord(std::string_view text, int id);

// The session's game as the history keeps it: nothing unless it finished with a result. `opening`:
// the suite's opening it began with (historyOpeningName).
std::optional<HistoryGame> historyGameOf(const MatchSession& session, std::string opening,
                                         std::string finishedAt);
// The longest opening of the suite whose moves begin a game from the standard start, else "".
std::string historyOpeningName(const std::vector<chessmode::Opening>& suite, const chess::Position& start,
                               const std::vector<std::string>& uciMoves);
// The game's facts for the shared games filter; `players` and `openings` are the list's choices
// (the distinct names), extended here with the game's.
chessmode::GameFacts historyFacts(const HistoryGame& game, std::vector<std::string>& players,
                                  std::vector<std::string>& openings);

} // namespace chaiba
