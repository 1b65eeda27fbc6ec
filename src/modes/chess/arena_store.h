// The arena's tournament kept in a KeyValueStore by increments (IndexedDB in the page): a small
// head (config, rating options, phase, the running games' ids), one record per finished game
// written once when it finishes, and one record per running game rewritten as it moves. The
// bundle is assembled only for export. Older pages kept the whole bundle under one key: it is
// read and converted on load.
#pragma once

#include "src/modes/chess/bundle.h"
#include "src/persist/key_value_store.h"
#include "src/play/tournament_session.h"
#include "src/play/tournament_store.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace chaiba::chessmode {

// Keys (play::TournamentStore's layout under "chaiba.arena."): the head; finished game N of
// tournament E ("<prefix>E.N", N from 0 in finish order); running game id I ("<prefix>E.I": the
// game as it was when first stored) and each move made after that, one small record each
// ("<prefix>E.I.m<ply>", appended, never rewritten); the last tournament number E used.
inline constexpr const char* kArenaHeadKey = "chaiba.arena.head";
inline constexpr const char* kArenaGamePrefix = "chaiba.arena.game.";
inline constexpr const char* kArenaRunningPrefix = "chaiba.arena.running.";
inline constexpr const char* kArenaEpochKey = "chaiba.arena.epoch";
// The whole-bundle layout of older pages (read, converted, then removed).
inline constexpr const char* kArenaBundleKey = "chaiba.arena.bundle";
inline constexpr const char* kArenaStateKey = "chaiba.arena.state";
inline constexpr const char* kArenaLivePrefix = "chaiba.arena.live."; // + game id
// The head's layout: {"format": "chaiba-arena-store", "version": 2, "mode": "chess", "epoch": E,
//   "config": {...}, "ratingOptions": {...}, "phase": "running", "running": [ids]}.
// Version 2 writes the records' moves compact (TurnLayout::Compact); version 1's named moves
// still load (a record may hold either).
inline constexpr int kArenaStoreVersion = 2;

// What load() found: the games in finish order (finished ones), then the running ones unfinished.
struct StoredTournament {
    TournamentConfig config;
    LeaderboardOptions options;
    std::string phase = "stopped";
    std::vector<GameRecord> games;
    std::string note; // a conversion or a record that could not be read, in plain words
};

class ArenaStore {
public:
    // store may be null (nothing is kept); apiKey keeps the key out of every record; each finished
    // record written waits in `commits` (the session's gate) until the store confirms it.
    ArenaStore(KeyValueStore* store, std::function<std::string()> apiKey, play::CommitGate& commits);

    // The stored tournament (converted from the older layout when that is what is stored), or
    // nothing. Errors: a head or an old bundle that cannot be read (kept under "<key>.corrupt").
    // Finished games before the latest keepWhole come folded (foldRecord; readFinished gives one
    // back whole).
    Parsed<std::optional<StoredTournament>> load(size_t keepWhole = SIZE_MAX);
    // Stored finished games, whole, as their records were last written (a folded game's moves,
    // for its view, its export or its analysis), in the order asked; each an error when it is not
    // stored or its record no longer reads. Finished records are released once written (the page
    // keeps no copy in memory): the answer may come later (KeyValueStore::readMany).
    void readFinished(std::vector<int> gameIds, const TournamentConfig& config,
                      std::function<void(std::vector<Parsed<GameRecord>>)> done) const;

    // Brings the store up to date: the finished games of `games` then `more` (finish order) not
    // yet stored get one record each, running games whose moves changed are rewritten, and the
    // head when the phase, options or the set of running games changed. An error sentence when
    // the store refused a write (what was written stays valid). gamesAllFinished: `games` holds
    // finished games only (a runner's list), so its stored prefix is not checked game by game.
    std::optional<std::string> sync(const TournamentConfig& config, const LeaderboardOptions& options,
                                    const std::string& phase, const std::vector<GameRecord>& games,
                                    const std::vector<GameRecord>& more = {}, bool gamesAllFinished = false);
    // Writes a stored finished game's record again, whole, under its key (one put: a reader finds
    // the old record or the new one), e.g. with its late move-quality analysis. Nothing when the
    // game is not stored (yet); an error sentence when the store refused the write.
    std::optional<std::string> rewriteFinished(const GameRecord& game);
    // Removes the tournament (head, every record).
    void clear();

    // True when the finished game with this id has a record (written, maybe not yet committed:
    // the gate says); games loaded from the store do. Without a store: always.
    bool stored(int gameId) const { return records_.stored(gameId); }
    size_t storedFinished() const { return records_.storedFinished(); }

private:
    Parsed<std::optional<StoredTournament>> loadOldBundle();

    KeyValueStore* store_;
    std::function<std::string()> apiKey_;
    play::CommitGate& commits_;
    play::TournamentStore records_; // the layout every arena shares (src/play/tournament_store.h)
    // What the head's chess fields were made of: a save that changes none of them (most moves)
    // skips making their text again (the config's JSON for 50 players each move).
    struct HeadInputs {
        TournamentConfig config;
        LeaderboardOptions options;
    };
    std::optional<HeadInputs> headInputs_;
};

} // namespace chaiba::chessmode
