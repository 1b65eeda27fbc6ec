// A Werewolf tournament kept in a key-value store (IndexedDB in the page): the setup and the spend
// under one versioned key, each finished game's result under its own key (written as it ends, so
// a reload loses at most the running games), and the export bundle (never the key: the setup and
// the results hold none).
#pragma once

#include "src/llm/chat.h"
#include "src/modes/werewolf/tournament.h"
#include "src/persist/key_value_store.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace chaiba::werewolfmode {

inline constexpr const char* kArenaMetaKey = "chaiba.werewolf-arena.v1.meta";
// 2: the game results carry the beliefs by round (a version 1 store reads, without them).
inline constexpr int kArenaStoreVersion = 2;
inline constexpr int kArenaBundleVersion = 2; // the same change in the export bundle
std::string arenaGameKey(int index); // "chaiba.werewolf-arena.v1.game.12"

struct StoredArena {
    TournamentConfig config;
    std::map<int, GameResult> results; // by 1-based index
    double spentUsd = 0;
    bool stopped = false; // stopped by a person (comes back stopped, not paused)
    // loadArena: kept games that could not be read back (missing, damaged, impossible for the
    // setup), each "game N: why"; they are not in results, so they are played again.
    std::vector<std::string> dropped;
};

// Writes the setup, the spend and the list of finished games; an error sentence if the store refused.
// `alsoListed`: games written but not in arena.results yet (the page shows a game once committed).
std::optional<std::string> saveArenaMeta(KeyValueStore& store, const StoredArena& arena,
                                         const std::vector<int>& alsoListed = {});
std::optional<std::string> saveArenaGame(KeyValueStore& store, const GameResult& result);
// Nothing stored: nullopt value and empty error. A stored arena that does not read: the error.
llm::Result<StoredArena> loadArena(const KeyValueStore& store);
void clearArena(KeyValueStore& store);

// {"format":"chaiba-werewolf-arena","version":2,"mode":"werewolf","config","spentUsd","games":[results],
//  "leaderboard":[rows as summary.json has them]}
std::string arenaBundleJson(const StoredArena& arena);
// A bundle read back (an import): its setup, spend and games (versions 1 and 2; a game that does
// not read or that the setup makes impossible is refused with its number, as is a game twice);
// the leaderboard in it is recomputed, never trusted.
llm::Result<StoredArena> readArenaBundle(std::string_view text);

} // namespace chaiba::werewolfmode
