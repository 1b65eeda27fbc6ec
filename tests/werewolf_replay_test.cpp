// Werewolf replay: a log rebuilds the same game (state and log), and a tampered log is refused
// at the first event that does not replay.
#include "engine/werewolf/bots.h"
#include "engine/werewolf/replay.h"
#include "tests/werewolf_test_util.h"

#include <doctest/doctest.h>

using namespace chaiba::werewolf;
using namespace chaiba::werewolf::test;

namespace {
// A scripted game with chat, a revote and a save, still running at the end.
Game scripted() {
    Game g = makeGame(Rules::plain());
    require(g.speak(W1, "Let's take P5."));
    night(g, V5, W1, V5); // saved
    require(g.speak(V6, "I suspect P2."));
    require(g.speak(W2, "I suspect P6."));
    dayVote(g, [](int s) { return (s == W1 || s == W2 || s == SEER || s == V7) ? V6 : V7; });
    dayVote(g, [](int s) { return s == V6 ? V7 : V6; }); // revote: V6 out
    require(g.apply(Decision::inspect(SEER, W2)));
    return g;
}
} // namespace

TEST_CASE("werewolf replay of a scripted log gives the same game") {
    const Game g = scripted();
    REQUIRE(countKind(g.events(), EventKind::Revote) == 1);
    const ReplayResult r = replay(g.events());
    REQUIRE_MESSAGE(r.ok(), r.error);
    CHECK(*r.game == g);
    CHECK(r.game->events() == g.events());
    CHECK(r.game->pendingDecisions() == g.pendingDecisions());
}

TEST_CASE("werewolf replay of finished bot games gives the same game") {
    for (uint64_t seed = 1; seed <= 20; ++seed) {
        const Rules rules = seed % 2 ? Rules::plain() : Rules::balanced();
        const BotGameResult played = playBotGame(8, {}, rules, seed);
        REQUIRE(played.game.has_value());
        const ReplayResult r = replay(played.game->events());
        REQUIRE_MESSAGE(r.ok(), r.error);
        CHECK(*r.game == *played.game);
        CHECK(r.game->winner() == played.winner);
        CHECK(r.game->isOver());
    }
}

TEST_CASE("werewolf replay refuses a tampered log") {
    const Game g = scripted();
    std::vector<Event> log = g.events();
    CHECK_FALSE(replay({}).ok());

    // A vote changed to a dead player.
    std::vector<Event> badVote = log;
    const auto vote = std::find_if(badVote.begin(), badVote.end(),
                                   [](const Event& e) { return e.kind == EventKind::VoteCast; });
    REQUIRE(vote != badVote.end());
    vote->target = 99;
    const ReplayResult a = replay(badVote);
    CHECK_FALSE(a.ok());
    CHECK(a.failedAt == static_cast<size_t>(vote - badVote.begin()));
    CHECK(a.error.find("vote_cast") != std::string::npos);

    // A derived event edited (the revote lists other players).
    std::vector<Event> badRevote = log;
    for (Event& e : badRevote)
        if (e.kind == EventKind::Revote) e.seats = {V5, V8};
    CHECK_FALSE(replay(badRevote).ok());

    // A derived event removed: the game writes it anyway.
    std::vector<Event> missing = log;
    missing.erase(std::find_if(missing.begin(), missing.end(),
                               [](const Event& e) { return e.kind == EventKind::DawnNoDeath; }));
    CHECK_FALSE(replay(missing).ok());

    // A log cut right after a decision whose consequences are missing.
    std::vector<Event> cut = log;
    while (!cut.empty() && cut.back().kind != EventKind::Elimination) cut.pop_back();
    REQUIRE(!cut.empty());
    cut.pop_back(); // the elimination (derived from the last vote) is gone
    CHECK_FALSE(replay(cut).ok());

    // Another deal (a different seed) is a different game.
    std::vector<Event> reseeded = log;
    reseeded.front().seed = 7;
    const ReplayResult b = replay(reseeded);
    REQUIRE(b.ok()); // the roles are in the deal: the seed is only recorded
    CHECK_FALSE(*b.game == g);
}
