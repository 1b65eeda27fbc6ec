// twist_of_fate: the model states the stakes as bands of 1-100 ("1-30: the rope snaps; 31-100:
// you climb on"), the game rolls, and the band that hits is binding. Parsing, the seeded roll and
// the typed outcome the screen draws.
#pragma once

#include "engine/common/splitmix64.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace chaiba::story {

// Dice and image names draw from the project's one seeded generator (engine/common/splitmix64.h).
using StoryRng = chaiba::SplitMix64;

constexpr int kTwistMin = 1;
constexpr int kTwistMax = 100;

// One band of the stakes: the numbers low..high (inclusive) lead to outcome.
struct StakeBand {
    int low = 0;
    int high = 0;
    std::string outcome;

    int width() const { return high - low + 1; }
    bool contains(int roll) const { return roll >= low && roll <= high; }
};

// The bands in order of their numbers (covering 1-100 exactly once), or a message for the model
// that names every problem: unreadable bands, numbers out of range, missing or doubled numbers.
struct StakesParse {
    std::vector<StakeBand> bands;
    std::string error;
    bool ok() const { return error.empty(); }
};

// Bands are separated by ';' or new lines; each is "low-high: outcome" (also "low–high" with an
// en or em dash, "low to high", or "n: outcome" for a single number), optionally after a list
// marker ("- ", "* "). A piece that does not start like a band continues the previous outcome, so
// outcomes may contain ';'.
StakesParse parseStakes(std::string_view stakes);

// What it is: one roll of the dice, with everything the screen draws (all bands, the roll, which
// band hit).
struct TwistOfFate {
    std::vector<StakeBand> bands;
    int roll = 0;
    std::size_t hitIndex = 0;

    const StakeBand& hit() const { return bands[hitIndex]; }
};

// Rolls 1-100 and finds the band; bands must be a successful parse.
TwistOfFate rollTwist(std::vector<StakeBand> bands, StoryRng& rng);

// The tool result the model reads: the roll, the band, and that the outcome is binding.
std::string twistText(const TwistOfFate& twist);

// "1-30, 45, 90-100": numbers as compact ranges (for messages).
std::string describeNumbers(const std::vector<int>& sortedNumbers);

} // namespace chaiba::story
