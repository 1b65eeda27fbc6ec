// The level table; see levels.h (spec text is read by src/play/seat.h). Ratings come from
// tests/calibrate/RESULTS.md (stockfish 15.1 UCI_Elo anchors).
#include "engine/search/levels.h"

#include <array>

namespace chaiba::search {

namespace {

// clang-format off
// level, name, random, depth, nodes, noise, blunder‰, margin, rating, note, hash MB (default 4)
// Ratings: maximum-likelihood fit of each level's games against stockfish 15.1 at fixed UCI_Elo
// (tests/calibrate/RESULTS.md, sitting 4: 40-80 games per level, 95% intervals about +/-85-150;
// levels 8-9 sittings 5-7, 54 and 90 games, +/-95 and +/-75 so far).
// Every move starts from an empty table of the level's size, so these are the moves calibrated.
constexpr std::array<LevelSpec, 10> kLevels = {{
    // Any legal move, uniformly at random (lost 20/20 to level 1: below ~620).
    {0, "random",       true,  0,  0,         0,   0,   0,    0, "random"},
    // Two plies (plus captures) with heavy noise; one move in ten merely looks fine at a glance.
    {1, "beginner",     false, 2,  20000,    60, 100, 200, 1020, "≈1000"},
    {2, "novice",       false, 2,  40000,    40,  50, 150, 1188, "≈1200"},
    {3, "club",         false, 3,  80000,    37,  30, 125, 1351, "≈1350"},
    {4, "intermediate", false, 4,  150000,   30,  20, 100, 1541, "≈1550"},
    // From here the search is exact (no noise, no blunders); only its node budget grows.
    {5, "advanced",     false, 64, 12000,     0,   0,   0, 1779, "≈1800"},
    {6, "expert",       false, 64, 300000,    0,   0,   0, 1903, "≈1900", 16},
    // Full strength: a node budget of about a second per move on the reference machine (2 cores,
    // 4-5 M nodes/s): 0.79 s on average, 1.1 s at most, in calibration games.
    {7, "master",       false, 64, 4000000,   0,   0,   0, 2096, "≈2100", 16},
    // The stronger search (kSearchStrongest: the full evaluation, history with malus, counter
    // moves, improving/IIR/SEE pruning, the deeper null move). Sittings 5-7:
    // 2098 [2001, 2193] from 54 games.
    {8, "grandmaster",  false, 64, 300000,    0,   0,   0, 2098, "≈2100", 16, kSearchStrongest},
    // The stronger search at about a second a move in the browser's engine worker (1.35 s in WASM
    // under Node with the machine at load 12). 2238 [2162, 2313] from 90 games (sittings 5-7).
    {9, "champion",     false, 64, 1500000,   0,   0,   0, 2238, "≈2250", 32, kSearchStrongest},
}};
// clang-format on

} // namespace

std::span<const LevelSpec> levels() {
    return kLevels;
}
int maxLevel() {
    return static_cast<int>(kLevels.size()) - 1;
}

std::optional<LevelSpec> levelSpec(int level) {
    if (level < 0 || level > maxLevel()) return std::nullopt;
    return kLevels[static_cast<std::size_t>(level)];
}

std::string levelLabel(const LevelSpec& spec) {
    std::string label = "Engine \xC2\xB7 level " + std::to_string(spec.level);
    if (!spec.ratingNote.empty()) label += " \xC2\xB7 " + std::string(spec.ratingNote);
    return label;
}

} // namespace chaiba::search
