// Stakes parsing, the seeded roll and the model's text for twist_of_fate (see twist_of_fate.h).
#include "src/modes/story/twist_of_fate.h"

#include <algorithm>
#include <array>
#include <cassert>

namespace chaiba::story {


namespace {

constexpr std::string_view kExample = "'1-30: the rope snaps; 31-100: you climb on'";

bool isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}
bool isDigit(char c) {
    return c >= '0' && c <= '9';
}

std::string_view trim(std::string_view text) {
    while (!text.empty() && isSpace(text.front())) text.remove_prefix(1);
    while (!text.empty() && isSpace(text.back())) text.remove_suffix(1);
    return text;
}

void skipSpaces(std::string_view& text) {
    while (!text.empty() && isSpace(text.front())) text.remove_prefix(1);
}

bool consume(std::string_view& text, std::string_view prefix) {
    if (text.substr(0, prefix.size()) != prefix) return false;
    text.remove_prefix(prefix.size());
    return true;
}

// Reads ASCII digits; very long numbers saturate (they are out of range either way).
bool readNumber(std::string_view& text, int& value) {
    if (text.empty() || !isDigit(text.front())) return false;
    long long n = 0;
    while (!text.empty() && isDigit(text.front())) {
        n = std::min(n * 10 + (text.front() - '0'), 1000000LL);
        text.remove_prefix(1);
    }
    value = static_cast<int>(n);
    return true;
}

// '-', en dash, em dash, minus sign, or the word "to".
bool consumeRangeSeparator(std::string_view& text) {
    static constexpr std::array<std::string_view, 4> kDashes = {"-", "\xE2\x80\x93", "\xE2\x80\x94",
                                                                "\xE2\x88\x92"};
    for (std::string_view dash : kDashes)
        if (consume(text, dash)) return true;
    if (text.size() >= 3 && text.substr(0, 2) == "to" && (isSpace(text[2]) || isDigit(text[2]))) {
        text.remove_prefix(2);
        return true;
    }
    return false;
}

enum class PieceShape { Band, Malformed, Text };

// Reads "low-high: outcome" or "n: outcome" at the start of piece. Malformed: it starts like a
// band (a number and a range separator) but does not finish like one; Text: not a band at all.
PieceShape readBand(std::string_view piece, StakeBand& band) {
    std::string_view rest = piece;
    if (consume(rest, "- ") || consume(rest, "* ") || consume(rest, "\xE2\x80\xA2 ")) skipSpaces(rest);
    int low = 0;
    if (!readNumber(rest, low)) return PieceShape::Text;
    skipSpaces(rest);
    int high = low;
    bool ranged = false;
    if (consumeRangeSeparator(rest)) {
        ranged = true;
        skipSpaces(rest);
        if (!readNumber(rest, high)) return PieceShape::Malformed;
        skipSpaces(rest);
    }
    if (!consume(rest, ":")) return ranged ? PieceShape::Malformed : PieceShape::Text;
    band.low = low;
    band.high = high;
    band.outcome = std::string(trim(rest));
    return PieceShape::Band;
}

std::string bandName(const StakeBand& band) {
    return band.low == band.high ? std::to_string(band.low)
                                 : std::to_string(band.low) + "-" + std::to_string(band.high);
}

std::string joinProblems(const std::vector<std::string>& problems) {
    std::string out;
    for (const std::string& problem : problems) out += (out.empty() ? "" : "; ") + problem;
    return out;
}

} // namespace

std::string describeNumbers(const std::vector<int>& sortedNumbers) {
    std::string out;
    for (std::size_t i = 0; i < sortedNumbers.size();) {
        std::size_t j = i;
        while (j + 1 < sortedNumbers.size() && sortedNumbers[j + 1] == sortedNumbers[j] + 1) ++j;
        if (!out.empty()) out += ", ";
        out += std::to_string(sortedNumbers[i]);
        if (j > i) {
            out += '-';
            out += std::to_string(sortedNumbers[j]);
        }
        i = j + 1;
    }
    return out;
}

StakesParse parseStakes(std::string_view stakes) {
    StakesParse result;
    std::vector<std::string> problems;

    // Step 1. Pieces between ';' and new lines; bands, or text continuing the previous outcome.
    std::size_t start = 0;
    char separatorBefore = ';';
    while (start <= stakes.size()) {
        std::size_t end = stakes.find_first_of(";\n", start);
        if (end == std::string_view::npos) end = stakes.size();
        const std::string_view piece = trim(stakes.substr(start, end - start));
        if (!piece.empty()) {
            StakeBand band;
            const PieceShape shape = readBand(piece, band);
            if (shape == PieceShape::Band) {
                result.bands.push_back(std::move(band));
            } else if (shape == PieceShape::Text && !result.bands.empty()) {
                std::string& outcome = result.bands.back().outcome;
                outcome += (outcome.empty() ? "" : separatorBefore == ';' ? "; " : "\n") + std::string(piece);
            } else {
                problems.push_back("cannot read \"" + std::string(piece) +
                                   "\" (a band looks like \"31-100: you " + "climb on\")");
            }
        }
        if (end < stakes.size()) separatorBefore = stakes[end];
        start = end + 1;
    }
    if (result.bands.empty() && problems.empty()) {
        result.error = "the stakes are empty: give bands that cover 1-100, like " + std::string(kExample);
        return result;
    }

    // Step 2. Each band on its own: inside 1-100, forwards, with an outcome.
    std::array<int, kTwistMax + 1> cover{};
    // Numbers a reported band meant to cover: not reported again as missing. After an unreadable
    // piece nobody knows what was meant, so missing numbers are not reported at all.
    std::array<bool, kTwistMax + 1> claimed{};
    const bool unreadable = !problems.empty();
    for (const StakeBand& band : result.bands) {
        bool usable = true;
        if (band.low > band.high) {
            problems.push_back("band " + std::to_string(band.low) + "-" + std::to_string(band.high) +
                               " runs backwards (write " + std::to_string(band.high) + "-" +
                               std::to_string(band.low) + ")");
            usable = false;
        } else if (band.low < kTwistMin || band.high > kTwistMax) {
            problems.push_back("band " + bandName(band) + " is out of range (numbers run from 1 to 100)");
            usable = false;
        }
        if (band.outcome.empty()) problems.push_back("band " + bandName(band) + " has no outcome");
        if (!usable)
            for (int n = std::max(std::min(band.low, band.high), kTwistMin);
                 n <= std::min(std::max(band.low, band.high), kTwistMax); ++n)
                claimed[static_cast<std::size_t>(n)] = true;
        if (usable)
            for (int n = band.low; n <= band.high; ++n) ++cover[static_cast<std::size_t>(n)];
    }

    // Step 3. Together: every number of 1-100 in exactly one band.
    std::vector<int> missing, doubled;
    for (int n = kTwistMin; n <= kTwistMax; ++n) {
        if (cover[static_cast<std::size_t>(n)] == 0 && !claimed[static_cast<std::size_t>(n)])
            missing.push_back(n);
        if (cover[static_cast<std::size_t>(n)] > 1) doubled.push_back(n);
    }
    if (!missing.empty() && !unreadable)
        problems.push_back(std::string(missing.size() == 1 ? "number " : "numbers ") +
                           describeNumbers(missing) + (missing.size() == 1 ? " is" : " are") +
                           " not covered by any band");
    if (!doubled.empty())
        problems.push_back(std::string(doubled.size() == 1 ? "number " : "numbers ") +
                           describeNumbers(doubled) + (doubled.size() == 1 ? " is" : " are") +
                           " in more than one band");

    if (!problems.empty()) {
        result.error = "invalid stakes: " + joinProblems(problems) +
                       ". The bands must cover 1-100 exactly once, like " + std::string(kExample) + ".";
        result.bands.clear();
        return result;
    }
    std::stable_sort(result.bands.begin(), result.bands.end(),
                     [](const StakeBand& a, const StakeBand& b) { return a.low < b.low; });
    return result;
}

TwistOfFate rollTwist(std::vector<StakeBand> bands, StoryRng& rng) {
    assert(!bands.empty() && "rollTwist needs the bands of a successful parseStakes");
    TwistOfFate twist;
    twist.bands = std::move(bands);
    twist.roll = rng.between(kTwistMin, kTwistMax);
    for (std::size_t i = 0; i < twist.bands.size(); ++i)
        if (twist.bands[i].contains(twist.roll)) twist.hitIndex = i;
    return twist;
}

std::string twistText(const TwistOfFate& twist) {
    const StakeBand& band = twist.hit();
    return "Rolled " + std::to_string(twist.roll) + " on 1-100.\nOutcome (" + bandName(band) +
           "): " + band.outcome + "\nThis outcome is binding: narrate it as what happens.";
}

} // namespace chaiba::story
