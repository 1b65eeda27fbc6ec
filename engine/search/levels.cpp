// The level table and player-spec parsing; see levels.h. Ratings come from
// tests/calibrate/RESULTS.md (stockfish 15.1 UCI_Elo anchors).
#include "engine/search/levels.h"

#include <array>
#include <charconv>

namespace chaiba::search {

namespace {

// clang-format off
// level, name, random, depth, nodes, noise, blunder‰, margin, rating, note, hash MB (default 4)
// Ratings: maximum-likelihood fit on stockfish 15.1's UCI_Elo scale (tests/calibrate/RESULTS.md:
// 20-60 games per level, 95% intervals about +/-110-250). Level 1 never scores against stockfish's
// 1350 floor: it is rated through games against level 2 (chained, interval too narrow).
constexpr std::array<LevelSpec, 8> kLevels = {{
    // Any legal move, uniformly at random.
    {0, "random",       true,  0,  0,         0,   0,   0,   0, "random"},
    // Two plies (plus captures) with heavy noise; one move in ten merely looks fine at a glance.
    {1, "beginner",     false, 2,  20000,    60, 100, 200,  764, "≈750"},
    {2, "novice",       false, 2,  40000,    40,  50, 150,  983, "≈1000"},
    {3, "club",         false, 3,  80000,    30,  20, 100, 1233, "≈1250"},
    {4, "intermediate", false, 4,  150000,   30,  20, 100, 1518, "≈1500"},
    // From here the search is exact (no noise, no blunders); only its node budget grows.
    {5, "advanced",     false, 64, 8000,      0,   0,   0, 1724, "≈1700"},
    {6, "expert",       false, 64, 1000000,   0,   0,   0, 1984, "≈2000", 16},
    // Full strength: a node budget of one to two seconds on the reference machine (2.5-5 M nodes/s).
    {7, "master",       false, 64, 4000000,   0,   0,   0, 2219, "≈2200", 16},
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

std::optional<LevelSpec> parseEngineSpec(std::string_view spec) {
    if (spec == "random") return kLevels[0];
    if (spec == "engine") return kLevels.back();
    constexpr std::string_view prefix = "engine:";
    if (spec.substr(0, prefix.size()) != prefix) return std::nullopt;
    const std::string_view digits = spec.substr(prefix.size());
    int level = -1;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), level);
    if (ec != std::errc{} || end != digits.data() + digits.size()) return std::nullopt;
    return levelSpec(level);
}

std::string levelLabel(const LevelSpec& spec) {
    std::string label = "Engine \xC2\xB7 level " + std::to_string(spec.level);
    if (!spec.ratingNote.empty()) label += " \xC2\xB7 " + std::string(spec.ratingNote);
    return label;
}

} // namespace chaiba::search
