// A tournament of any mode kept in a KeyValueStore by increments (IndexedDB in the page): a small
// head (the mode's fields, the phase, the running games' ids), one record per finished game written
// once when it finishes (in finish order, under a tournament number never used before), and one
// record per running game with each later step (a move) appended as its own small record.
// The mode says how its games read and write (GameSource, persist::RecordReader); nothing here
// knows a game.
// Every arena of the page keeps its tournament here; natively a run's games go to
// persist::RunFolder's append-only log.
#pragma once

#include "src/persist/key_value_store.h"
#include "src/persist/record_reader.h"
#include "src/play/parsed.h"
#include "src/play/tournament_session.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace chaiba::play {

// Where a mode's tournament lives: "<prefix>head", "<prefix>game.E.N" (finished game N of
// tournament E, N from 0 in finish order), "<prefix>running.E.I" (running game id I as first
// stored) and "<prefix>running.E.I.m<step>" (each step after that), "<prefix>epoch" (the last E).
// The head: {"format", "version", "mode", "epoch", "config", <the mode's other fields>, "phase",
// "running": [ids]}.
struct StoreLayout {
    std::string prefix;  // e.g. "chaiba.arena."
    std::string format;  // the head's "format"
    int version = 1;     // written; heads of versions 1..version read
    std::string mode;    // the head's "mode"
    std::string headKey() const { return prefix + "head"; }
    std::string epochKey() const { return prefix + "epoch"; }
};

// A game as sync sees it.
struct StoredGameEntry {
    int id = -1;
    bool finished = false;
    bool folded = false; // finished and no longer whole in memory: it must be stored already
    size_t steps = 0;    // a running game's steps so far (0 for a mode that stores none)
};

// The mode's games, in the order sync stores them: finished games in finish order (running
// games anywhere among them).
class GameSource {
public:
    virtual ~GameSource() = default;
    virtual size_t size() const = 0;
    virtual StoredGameEntry entry(size_t i) const = 0;
    virtual Parsed<std::string> record(size_t i) const = 0;             // the game's whole record
    virtual Parsed<std::string> step(size_t i, size_t step) const = 0; // a running game's step
};

// The mode's part of loading: persist::RecordReader (the same under a run folder's log).
using GameReader = persist::RecordReader;

class TournamentStore {
public:
    // store may be null (nothing is kept); each finished record written waits in `commits` (the
    // page's gate) until the store confirms it.
    TournamentStore(KeyValueStore* store, StoreLayout layout, CommitGate& commits);

    // What load() found besides the games (handed to the reader).
    struct Loaded {
        std::string phase;
        std::vector<std::string> problems; // records that could not be read, each in words
    };
    // The stored tournament, or nothing. Errors: a head that does not read (kept under
    // "<head key>.corrupt", the tournament forgotten). A record that does not read is kept under
    // "<its key>.corrupt" and named in problems: that game is played again.
    Parsed<std::optional<Loaded>> load(GameReader& reader);

    // Brings the store up to date: the finished games of `games` not yet stored get one record each
    // (finish order), running games' new steps are appended (a game whose steps went back is
    // written whole again), then the head when it changed, then the records of games no longer
    // running are removed. `fields`: the head's mode fields, nullptr when unchanged since the last
    // call. An error sentence when the store refused a write (what was written stays valid).
    // finishedPrefix: the games stored before are finished ones (a runner's list), so a prefix
    // that ends with the last stored game is skipped without a look at each.
    std::optional<std::string> sync(const nlohmann::json* fields, const std::string& phase, const GameSource& games,
                                    bool finishedPrefix = false);
    // A stored finished game's record written again, whole (one put: a reader finds the old or the
    // new). Nothing when the game is not stored (yet).
    std::optional<std::string> rewriteFinished(int gameId, const std::string& record);
    // Stored finished games' records, in the order asked; each nothing when it is not stored, or
    // the store's error. May answer later (KeyValueStore::readMany).
    using RecordsRead = std::function<void(std::vector<std::optional<std::string>> records, std::string error)>;
    void readFinished(const std::vector<int>& gameIds, RecordsRead done) const;
    // Removes the tournament (head, every record); the next sync starts a new tournament number.
    void clear();

    // True when the finished game has a record (written; the gate says if committed). Without a
    // store: always.
    bool stored(int gameId) const { return !store_ || sequence_.count(gameId) > 0; }
    size_t storedFinished() const { return storedIds_.size(); }
    const std::vector<int>& storedIds() const { return storedIds_; } // finish order (-1: unreadable)
    KeyValueStore* keyValueStore() const { return store_; }
    const StoreLayout& layout() const { return layout_; }

private:
    std::string gameKey(size_t sequence) const;
    std::string runningKey(int id) const;
    std::string stepKey(int id, size_t step) const;
    std::string savingError(const std::string& refused) const;
    std::optional<std::string> writeHead(const nlohmann::json* fields, const std::string& phase,
                                         const std::set<int>& running);
    std::optional<std::string> syncRunning(const GameSource& games, size_t i, const StoredGameEntry& e);
    struct RunningStored {
        size_t baseSteps = 0; // steps inside the game's record
        size_t steps = 0;     // steps stored in all (the rest one record each)
    };
    void removeRunning(int id, const RunningStored& stored);
    void truncateStored(size_t size); // forgets records N >= size (not the store's keys)
    void appendStored(int gameId);

    KeyValueStore* store_;
    StoreLayout layout_;
    CommitGate& commits_;
    uint64_t epoch_ = 0;                        // 0: nothing stored yet
    std::vector<int> storedIds_;                // game id of finished record N (-1: unreadable)
    std::unordered_map<int, size_t> sequence_;  // game id -> N of its record
    std::map<int, RunningStored> running_;      // running game id -> what is stored of it
    nlohmann::json fields_ = nlohmann::json::object(); // the mode's fields as last given
    std::string headWritten_;                   // the head as last written
    struct HeadInputs {
        std::string phase;
        std::set<int> running;
        uint64_t epoch = 0;
    };
    std::optional<HeadInputs> headInputs_;
};

} // namespace chaiba::play
