// A game's result as the run log writes it (gameResultJson, text written directly, not built as
// json values): byte for byte what nlohmann's dump() writes for the same values (sorted keys, its
// number format, its escapes), and read back whole by readGameResultJson.
#include "src/modes/werewolf/game_export.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <limits>

using namespace chaiba::werewolfmode;
using chaiba::werewolf::Role;
using chaiba::werewolf::Team;

namespace {
GameResult sample(int variant) {
    GameResult r;
    r.index = 1 + variant * 977;
    r.seed = variant == 2 ? std::numeric_limits<std::uint64_t>::max() : 42u + std::uint64_t(variant);
    r.rounds = 3 + variant;
    r.virtualMs = 123456789012LL * (variant + 1);
    r.wallSeconds = variant == 1 ? 0.0 : 0.000123 * (variant + 1);
    if (variant != 1) r.winner = variant % 2 ? Team::Wolves : Team::Villagers;
    const char* players[] = {"bot", "llm:openai/gpt-4o", "llm:a \"quoted\" \\ name", "llm:tab\there\b\f\x01",
                             "llm:caf\xC3\xA9/\xE6\xA8\xA1\xE5\x9E\x8B"};
    for (int s = 0; s < 8; ++s) {
        SeatResult seat;
        seat.player = players[(s + variant) % 5];
        seat.role = Role((s + variant) % 4);
        seat.alive = (s + variant) % 3 == 0;
        seat.won = s % 2 == 0;
        seat.asks = 40 + s;
        seat.fallbacks = s % 3 + s % 2; // at least the notes fallbacks, as the reader requires
        seat.notesAsks = 10 + s;
        seat.notesFallbacks = s % 2;
        seat.swing = {s, 3 * s, s / 2};
        seat.tokens = 1234567LL * s;
        seat.costUsd = s == 3 && variant == 2 ? std::nan("") : 0.1 * s + 1e-7 * variant;
        seat.villagerVotes = s;
        seat.villagerVotesOnWolves = s / 3;
        seat.inspections = s == 2 ? 3 : 0;
        seat.inspectionsOnWolves = s == 2 ? 1 : 0;
        seat.beliefs = 5 * s;
        seat.beliefScore = s / 3.0;
        for (int round = 0; round < s % 4; ++round) seat.beliefsByRound.push_back({round + 1, 0.25 * round + 1.0 / 7});
        r.seats.push_back(seat);
    }
    return r;
}
} // namespace

TEST_CASE("werewolf export a result is written as nlohmann writes it and reads back whole") {
    for (int variant = 0; variant < 4; ++variant) {
        const GameResult r = sample(variant);
        const std::string text = gameResultJson(r);
        const nlohmann::json parsed = nlohmann::json::parse(text, nullptr, false);
        REQUIRE_FALSE(parsed.is_discarded());
        CHECK(parsed.dump() == text);
        CHECK(parsed.size() == 11);
        CHECK(parsed["seats"][0].size() == 21);
        const auto back = readGameResultJson(text);
        REQUIRE_MESSAGE(back.isOk(), back.error);
        const GameResult& b = *back.value;
        CHECK(b.index == r.index);
        CHECK(b.seed == r.seed);
        CHECK(b.rounds == r.rounds);
        CHECK(b.virtualMs == r.virtualMs);
        CHECK(b.wallSeconds == r.wallSeconds);
        CHECK(b.winner == r.winner);
        REQUIRE(b.seats.size() == r.seats.size());
        for (std::size_t s = 0; s < r.seats.size(); ++s) {
            const SeatResult &x = r.seats[s], &y = b.seats[s];
            CHECK(y.player == x.player);
            CHECK(y.role == x.role);
            CHECK(y.alive == x.alive);
            CHECK(y.won == x.won);
            CHECK(y.asks == x.asks);
            CHECK(y.fallbacks == x.fallbacks);
            CHECK(y.notesAsks == x.notesAsks);
            CHECK(y.notesFallbacks == x.notesFallbacks);
            CHECK(y.swing.accusations == x.swing.accusations);
            CHECK(y.swing.listeners == x.swing.listeners);
            CHECK(y.swing.swayed == x.swing.swayed);
            CHECK(y.tokens == x.tokens);
            if (std::isfinite(x.costUsd)) CHECK(y.costUsd == x.costUsd); // NaN is written as null
            CHECK(y.villagerVotes == x.villagerVotes);
            CHECK(y.villagerVotesOnWolves == x.villagerVotesOnWolves);
            CHECK(y.inspections == x.inspections);
            CHECK(y.inspectionsOnWolves == x.inspectionsOnWolves);
            CHECK(y.beliefs == x.beliefs);
            CHECK(y.beliefScore == x.beliefScore);
            REQUIRE(y.beliefsByRound.size() == x.beliefsByRound.size());
            for (std::size_t k = 0; k < x.beliefsByRound.size(); ++k) {
                CHECK(y.beliefsByRound[k].beliefs == x.beliefsByRound[k].beliefs);
                CHECK(y.beliefsByRound[k].score == x.beliefsByRound[k].score);
            }
        }
    }
    CHECK(nlohmann::json::parse(gameResultJson(sample(1)))["winner"].is_null());
    CHECK(nlohmann::json::parse(gameResultJson(sample(2)))["seats"][3]["cost_usd"].is_null());
}
