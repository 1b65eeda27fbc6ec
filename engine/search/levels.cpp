// The level table; see levels.h (spec text is read by src/play/seat.h). Ratings come from
// tests/calibrate/RESULTS.md (stockfish 15.1 UCI_Elo anchors).
#include "engine/search/levels.h"

#include <array>

namespace chaiba::search {

namespace {

// clang-format off
// level, name, random, depth, nodes, noise, blunder‰, margin, rating, note, hash MB (default 4)
// Ratings: maximum-likelihood fit of each level's games against stockfish 15.1 at fixed UCI_Elo
// (tests/calibrate/RESULTS.md: sitting 4, and sittings 8-11 with stockfish at a node budget;
// 108-256 games per level 1-7, 95% intervals +/-60-71; level 8 100 games, +/-72; level 9 268, +/-44,
// sittings 17-19).
// Every move starts from an empty table of the level's size, so these are the moves calibrated.
constexpr std::array<LevelSpec, 10> kLevels = {{
    // Any legal move, uniformly at random (lost 20/20 to level 1: below ~600).
    {0, "random",       true,  0,  0,         0,   0,   0,    0, "random"},
    // Two plies (plus captures) with heavy noise; one move in ten merely looks fine at a glance.
    {1, "beginner",     false, 2,  20000,    60, 100, 200,  996, "≈1000"},
    {2, "novice",       false, 2,  40000,    40,  50, 150, 1158, "≈1150"},
    {3, "club",         false, 3,  80000,    37,  30, 125, 1346, "≈1350"},
    {4, "intermediate", false, 4,  150000,   30,  20, 100, 1528, "≈1550"},
    // From here the search is exact (no noise, no blunders); only its node budget grows.
    {5, "advanced",     false, 64, 12000,     0,   0,   0, 1753, "≈1750"},
    {6, "expert",       false, 64, 300000,    0,   0,   0, 1982, "≈2000", 16},
    // Full strength: a node budget of about a second per move on the reference machine (2 cores,
    // 4-5 M nodes/s): 0.79 s on average, 1.1 s at most, in calibration games.
    {7, "master",       false, 64, 4000000,   0,   0,   0, 2088, "≈2100", 16},
    // The top levels' search as calibrated in sittings 8-9 (kSearchTopLevels: also continuation
    // history, threats, passed pawns by the kings, drawish end games scaled) at 0.36 s a move native,
    // 0.43 s in WASM on the speed positions. Sittings 8, 9 and 11: 2154 [2082, 2225] from 100 games.
    {8, "grandmaster",  false, 64, 700000,    0,   0,   0, 2154, "≈2150", 32, kSearchTopLevels},
    // The strongest search (kSearchStrongest: level 8's and capture history, razoring, connected
    // pawns, outposts, rooks on the 7th, blocked passers, safe checks) with the node clock
    // (kFeatureNodeTime, sitting 13: the budget is a cap, a move stops once the clock says so) and
    // the evaluation network (kFeatureNnue, sittings 17-19) with a 4 000 000-node cap: 0.69-0.71 s
    // a move native on average in its sitting-18 and 19 games (two games on 2 cores), 0.87 s in the
    // browser's worker against its anchors. Sittings 17-19: 2436 [2392, 2479] over 268 games
    // against SF 2300-2600 (sitting 13's search without the network: 2229 [2171, 2287]).
    {9, "champion",     false, 64, 4000000,   0,   0,   0, 2436, "≈2450", 32, kSearchFullStrength | kFeatureNodeTime},
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
