// The built-in engine's named levels: from a uniformly random mover to full strength. Each level
// is a recipe (search depth and node cap, evaluation noise, blunder chance) and carries the rating
// measured against Debian's stockfish (tests/calibrate/RESULTS.md says how).
#pragma once

#include "engine/search/search.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace chaiba::search {

// One level's recipe. Weak levels lose like people do: they search shallowly (missing tactics
// deeper than their horizon), judge positions with noise (inaccurate plans), and now and then
// play a "plausible" move that merely looks fine at a glance (a blunder a human might make),
// never an absurd one: blunders are drawn only from moves whose one-ply score is within
// `blunderMarginCp` of the best one-ply score.
struct LevelSpec {
    int level = 0;
    std::string_view name;
    bool randomMover = false;    // level 0: any legal move, uniformly
    int maxDepth = 0;            // iterative-deepening depth cap (plies)
    uint64_t maxNodes = 0;       // node cap per move (0 = none); makes the level machine-independent
    int evalNoiseCp = 0;         // std-dev of Gaussian noise added to each root move's score
    int blunderPermille = 0;     // chance per move of playing a plausible-looking move instead
    int blunderMarginCp = 0;     // how plausible: within this of the best one-ply score
    int ratingElo = 0;           // calibrated rating on stockfish's UCI_Elo scale (0 = unrated)
    std::string_view ratingNote; // "≈1600", "< 1350" ...: what the app shows next to the level
    // Transposition table size. Every move starts from an empty table of this size (see
    // chooseMove), so a level plays the same wherever it runs: CLI, arena, UCI, web worker; a
    // level with kFeatureKeepTables starts from its own tables of the seat's previous move.
    std::size_t hashMb = 4;
    // Which search techniques and evaluation terms the level uses (SearchFeature bits): levels
    // 1-7 were calibrated with the classic search and keep it.
    uint32_t searchFeatures = kSearchClassic;
};

// All levels, weakest first; level N is kLevels[N].
std::span<const LevelSpec> levels();
int maxLevel();
// Nothing when out of range.
std::optional<LevelSpec> levelSpec(int level);

// "Engine · level 4 · ≈1600"
std::string levelLabel(const LevelSpec& spec);

} // namespace chaiba::search
