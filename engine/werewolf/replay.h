// Werewolf replay: rebuilds a game from its event log alone. The deal event gives the table, the
// decision events (chat, votes, night actions, the end of a discussion) are applied again, and
// every event the game derives (dawn, eliminations, revotes, game over) must match the log.
#pragma once

#include "engine/werewolf/game.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace chaiba::werewolf {

struct ReplayResult {
    std::optional<Game> game; // set on success: equal to the game that wrote the log
    std::string error;        // e.g. "event 14 (vote_cast): P3 is dead and cannot vote"
    size_t failedAt = 0;      // index of the first event that did not replay
    bool ok() const { return game.has_value(); }
};

ReplayResult replay(const std::vector<Event>& log);

} // namespace chaiba::werewolf
