// twist_of_fate: parsing stakes into 1-100 bands (every way it can go wrong), and seeded rolls.
#include "src/modes/story/story_tools.h"
#include "src/modes/story/twist_of_fate.h"

#include <doctest/doctest.h>

#include <cmath>

using namespace chaiba::story;

namespace {

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

std::string errorOf(std::string_view stakes) {
    const StakesParse parsed = parseStakes(stakes);
    CHECK_FALSE(parsed.ok());
    CHECK(parsed.bands.empty());
    return parsed.error;
}

} // namespace

TEST_CASE("story stakes parse the semicolon form") {
    const StakesParse parsed = parseStakes("1-30: the rope snaps; 31-100: you climb on");
    REQUIRE(parsed.ok());
    REQUIRE(parsed.bands.size() == 2);
    CHECK(parsed.bands[0].low == 1);
    CHECK(parsed.bands[0].high == 30);
    CHECK(parsed.bands[0].outcome == "the rope snaps");
    CHECK(parsed.bands[1].low == 31);
    CHECK(parsed.bands[1].high == 100);
    CHECK(parsed.bands[1].outcome == "you climb on");
}

TEST_CASE("story stakes parse the newline form with list markers, in any order") {
    const StakesParse parsed = parseStakes("- 61-100: the guard waves you through\n"
                                           "- 1-20: the guard recognises you\r\n"
                                           "\n"
                                           "* 21 - 60: the guard asks for a bribe\n");
    REQUIRE(parsed.ok());
    REQUIRE(parsed.bands.size() == 3);
    CHECK(parsed.bands[0].outcome == "the guard recognises you");
    CHECK(parsed.bands[1].low == 21);
    CHECK(parsed.bands[1].high == 60);
    CHECK(parsed.bands[2].outcome == "the guard waves you through");
}

TEST_CASE("story stakes accept an en dash, an em dash, 'to' and single numbers") {
    const StakesParse parsed = parseStakes("1\xE2\x80\x93"
                                           "30: snaps; 31\xE2\x80\x94"
                                           "98: holds; 99 to 99: frays; "
                                           "100: a miracle");
    REQUIRE(parsed.ok());
    REQUIRE(parsed.bands.size() == 4);
    CHECK(parsed.bands[0].high == 30);
    CHECK(parsed.bands[1].low == 31);
    CHECK(parsed.bands[2].low == 99);
    CHECK(parsed.bands[3].low == 100);
    CHECK(parsed.bands[3].high == 100);
    CHECK(parsed.bands[3].outcome == "a miracle");
}

TEST_CASE("story stakes keep a semicolon inside an outcome") {
    const StakesParse parsed = parseStakes("1-50: you fall; 2 ribs crack; 51-100: you hold on");
    REQUIRE(parsed.ok());
    REQUIRE(parsed.bands.size() == 2);
    CHECK(parsed.bands[0].outcome == "you fall; 2 ribs crack");
}

TEST_CASE("story stakes with a gap say which numbers are missing") {
    const std::string error = errorOf("1-30: snaps; 41-90: holds; 92-100: frays");
    CHECK(contains(error, "numbers 31-40, 91 are not covered by any band"));
}

TEST_CASE("story stakes with an overlap say which numbers are doubled") {
    const std::string error = errorOf("1-30: snaps; 25-100: holds");
    CHECK(contains(error, "numbers 25-30 are in more than one band"));
    CHECK_FALSE(contains(error, "not covered"));
}

TEST_CASE("story stakes with bad numbers are errors that quote the band") {
    CHECK(contains(errorOf("1-30 the rope snaps; 31-100: you climb on"),
                   "cannot read \"1-30 the rope snaps\""));
    CHECK(contains(errorOf("one to thirty: snaps; 31-100: holds"), "cannot read \"one to thirty: snaps\""));
    CHECK(contains(errorOf("1-30.5: snaps; 31-100: holds"), "cannot read \"1-30.5: snaps\""));
    CHECK(contains(errorOf("1-: snaps; 2-100: holds"), "cannot read"));
    CHECK(contains(errorOf("60-1: snaps; 61-100: holds"), "band 60-1 runs backwards (write 1-60)"));
    CHECK(contains(errorOf("1-30: ; 31-100: holds"), "band 1-30 has no outcome"));
    CHECK(contains(errorOf(""), "the stakes are empty"));
    CHECK(contains(errorOf(" ; \n "), "the stakes are empty"));
}

TEST_CASE("story stakes out of range name the band and not the gap it leaves") {
    std::string error = errorOf("0-30: snaps; 31-100: holds");
    CHECK(contains(error, "band 0-30 is out of range"));
    CHECK_FALSE(contains(error, "not covered"));
    error = errorOf("1-30: snaps; 31-120: holds");
    CHECK(contains(error, "band 31-120 is out of range"));
    error = errorOf("1-30: snaps; 31-50: holds; 60-99999999999: frays");
    CHECK(contains(error, "out of range"));
    CHECK(contains(error, "numbers 51-59 are not covered"));
}

TEST_CASE("story twist rolls the same for the same seed and lands in the reported band") {
    const StakesParse parsed = parseStakes("1-30: snaps; 31-100: holds");
    REQUIRE(parsed.ok());
    for (std::uint64_t seed : {0ULL, 1ULL, 42ULL, 0xdeadbeefULL}) {
        StoryRng a(seed), b(seed);
        const TwistOfFate first = rollTwist(parsed.bands, a);
        const TwistOfFate second = rollTwist(parsed.bands, b);
        CHECK(first.roll == second.roll);
        CHECK(first.roll >= 1);
        CHECK(first.roll <= 100);
        CHECK(first.hit().contains(first.roll));
        CHECK(twistText(first) == twistText(second));
    }
    // Golden rolls: native and WebAssembly builds must agree on these.
    StoryRng rng(2024);
    std::vector<int> rolls;
    for (int i = 0; i < 8; ++i) rolls.push_back(rng.between(1, 100));
    CHECK(rolls == std::vector<int>{62, 43, 72, 26, 79, 20, 52, 75});
}

TEST_CASE("story twist hits every band about as often as its width") {
    const StakesParse parsed = parseStakes("1-5: crit fail; 6-35: fail; 36-90: success; 91-100: crit");
    REQUIRE(parsed.ok());
    std::vector<int> hits(parsed.bands.size(), 0);
    const int seeds = 20000;
    for (int seed = 0; seed < seeds; ++seed) {
        StoryRng rng(static_cast<std::uint64_t>(seed) * 7919 + 13);
        const TwistOfFate twist = rollTwist(parsed.bands, rng);
        REQUIRE(twist.hit().contains(twist.roll));
        ++hits[twist.hitIndex];
    }
    for (std::size_t i = 0; i < hits.size(); ++i) {
        CAPTURE(i);
        const double share = double(hits[i]) / seeds;
        CHECK(std::abs(share - parsed.bands[i].width() / 100.0) < 0.015);
    }
}

TEST_CASE("story twist_of_fate tool returns the roll, all bands and a binding text") {
    StoryRng rng(5);
    const StoryToolResult result = twistOfFate("1-30: the rope snaps; 31-100: you climb on", rng);
    REQUIRE_FALSE(result.isError);
    REQUIRE(result.twist);
    CHECK(result.twist->bands.size() == 2);
    CHECK(contains(result.text, "Rolled " + std::to_string(result.twist->roll)));
    CHECK(contains(result.text, result.twist->hit().outcome));
    CHECK(contains(result.text, "binding"));
    CHECK_FALSE(result.change);

    const StoryToolResult bad = twistOfFate("1-30: the rope snaps", rng);
    CHECK(bad.isError);
    CHECK(contains(bad.text, "numbers 31-100 are not covered"));
}

TEST_CASE("story describeNumbers compresses runs") {
    CHECK(describeNumbers({}) == "");
    CHECK(describeNumbers({7}) == "7");
    CHECK(describeNumbers({1, 2, 3, 5, 9, 10}) == "1-3, 5, 9-10");
}
