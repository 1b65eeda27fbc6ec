// A Werewolf tournament kept in a key-value store (IndexedDB in the page): the setup and the spend
// in the head, each finished game's result as its own record (written as it ends, so a reload
// loses at most the running games), and the export bundle (never the key: the setup and the
// results hold none).
#pragma once

#include "src/llm/chat.h"
#include "src/modes/werewolf/tournament.h"
#include "src/persist/key_value_store.h"
#include "src/play/tournament_store.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace chaiba::werewolfmode {

// The tournament is kept in play::TournamentStore's layout under "chaiba.werewolf-arena." (the
// one every arena of the page shares: a head, each finished game's record written as it ends under
// a tournament number never used before, a record that does not read set aside and played again).
// 3: that layout. Versions 1 and 2 kept a meta key and one key a game ("chaiba.werewolf-arena.v1.*"):
// read, written again in this layout, then removed.
inline constexpr int kArenaStoreVersion = 3;
inline constexpr const char* kArenaStorePrefix = "chaiba.werewolf-arena.";
inline constexpr const char* kArenaV1MetaKey = "chaiba.werewolf-arena.v1.meta";
std::string arenaV1GameKey(int index); // "chaiba.werewolf-arena.v1.game.12"
// 2: the game results carry the beliefs by round. 3: "records", each game's whole record (its
// events, reasoning and notes: a replay); version 1 and 2 bundles import with no replays.
inline constexpr int kArenaBundleVersion = 3;

struct StoredArena {
    TournamentConfig config;
    std::map<int, GameResult> results; // by 1-based index
    double spentUsd = 0;
    bool stopped = false; // stopped by a person (comes back stopped, not paused)
    // load: kept games that could not be read back (damaged, impossible for the setup), each
    // "game N: why"; they are not in results, so they are played again.
    std::vector<std::string> dropped;
    std::string converted; // load: an older layout was converted (in words)
    // Each game's whole record as a one-line game file (exportGameJson), by index, for the games
    // that have one: played on this page, or imported from a version 3 bundle. (The page keeps them
    // in its store under keys of their own, beside this layout: WerewolfArenaScreen.)
    std::map<int, std::string> records;
    int bundleVersion = 0; // readArenaBundle: the version it read
};

// A finished game's result read back and checked against the setup (impossibleResult): its index
// (also with an error, when the text still names a game within the setup's count), or why not, as
// "game N: why". wholeGame: the text is a whole exported game ({"result": ...}), else the result.
llm::Result<GameResult> readCheckedResult(std::string_view text, const TournamentConfig& plan, bool wholeGame, int& id);

// Werewolf's part of reading a kept tournament back, the same for the page's store and a run
// folder's log: the setup, then each result checked against it into `results` (by index).
class ResultReader final : public persist::RecordReader {
public:
    ResultReader(TournamentConfig& config, std::map<int, GameResult>& results) : config_(config), results_(results) {}
    std::optional<std::string> readConfig(const std::string& configJson) override;
    std::optional<std::string> readHead(const nlohmann::json& head) override; // spentUsd, stopped
    Read read(std::string_view record, const std::vector<std::string>& steps) override;
    void keep() override;
    std::string gameName(int id) const override { return "game " + std::to_string(id); }
    double spentUsd = 0; // the page's head
    bool stopped = false;

private:
    TournamentConfig& config_;
    std::map<int, GameResult>& results_;
    std::optional<GameResult> held_;
};

class ArenaRecords {
public:
    // store may be null (nothing kept); each game record written waits in `commits` (the page's
    // gate, by game index) until the store confirms it.
    ArenaRecords(KeyValueStore* store, play::CommitGate& commits);
    // The kept tournament (an older layout converted), nothing (no value, no error), or why it does
    // not read (the head is then set aside).
    llm::Result<StoredArena> load();
    // A finished game's record, then the head (setup, spend, stopped); an error sentence if the
    // store refused.
    std::optional<std::string> addGame(const StoredArena& arena, const GameResult& result, const std::string& phase);
    std::optional<std::string> saveHead(const StoredArena& arena, const std::string& phase);
    // The store holds `arena` alone (an import, a conversion): every game written anew.
    std::optional<std::string> replace(const StoredArena& arena, const std::string& phase);
    void clear();
    bool stored(int index) const { return records_.stored(index); }

private:
    llm::Result<StoredArena> loadOlder(const std::string& metaText);
    KeyValueStore* store_;
    play::TournamentStore records_;
};

// {"format":"chaiba-werewolf-arena","version":3,"mode":"werewolf","config","spentUsd","games":[results],
//  "records":[whole games as game files have them], "leaderboard":[rows as summary.json has them]}
std::string arenaBundleJson(const StoredArena& arena);
// A bundle read back (an import): its setup, spend, games and records (versions 1 to 3; a game that
// does not read or that the setup makes impossible is refused with its number, as is a game twice, or
// a record of a game the bundle does not list; a record's log is checked when it is replayed);
// the leaderboard in it is recomputed, never trusted.
llm::Result<StoredArena> readArenaBundle(std::string_view text);

} // namespace chaiba::werewolfmode
