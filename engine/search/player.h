// A built-in player: picks a move for a position at a named level (levels.h), deterministically
// for a given seed. This is what the match runner, the app and `chaiba uci` call.
#pragma once

#include "engine/common/splitmix64.h"

#include "engine/search/levels.h"
#include "engine/search/search.h"

#include <cstdint>
#include <vector>

namespace chaiba::search {

struct MoveChoice {
    chess::Move move{};
    bool hasMove = false; // false when the game is over (no legal move)
    int score = 0;        // centipawns from the mover's view, as the level saw it
    int depth = 0;
    uint64_t nodes = 0;
    std::vector<chess::Move> pv;
    bool blunder = false; // the level's blunder roll fired (for logs and tests)
};

// Chooses a move for the side to move. `limits` adds caller limits (a stop flag, a time limit,
// a tighter node budget) on top of the level's own caps; the level's own depth and node caps
// always apply, so a level is machine-independent unless the caller adds a time limit.
// `searcher` (optional) only lends its memory: it is reset to the level's table size first, so
// same position + history + level + seed -> same move, whatever the searcher did before.
// `position` is restored on return.
MoveChoice chooseMove(chess::Position& position, const LevelSpec& level, uint64_t seed,
                      const SearchLimits& limits = {}, Searcher* searcher = nullptr);

// The same for the current position of a game, with its history (so repetitions are seen).
MoveChoice chooseMove(const chess::Game& game, const LevelSpec& level, uint64_t seed,
                      const SearchLimits& limits = {}, Searcher* searcher = nullptr);

using SplitMix64 = chaiba::SplitMix64;
// Approximately normal with standard deviation `sigma`, integer arithmetic only (Irwin-Hall).
int gaussian(SplitMix64& rng, int sigma);

} // namespace chaiba::search
