// A built-in player: picks a move for a position at a named level (levels.h), deterministically
// for a given seed. This is what the match runner, the app and `chaiba uci` call.
#pragma once

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

// Small deterministic generator (splitmix64), identical on every platform.
class SplitMix64 {
public:
    explicit SplitMix64(uint64_t seed) : state_(seed) {}
    uint64_t next() {
        uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    // Uniform in [0, n).
    uint32_t below(uint32_t n) { return static_cast<uint32_t>(next() % n); }
    // Approximately normal with standard deviation `sigma`, integer arithmetic only (Irwin-Hall).
    int gaussian(int sigma);

private:
    uint64_t state_;
};

} // namespace chaiba::search
