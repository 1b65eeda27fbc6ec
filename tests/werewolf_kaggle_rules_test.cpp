// The kaggle rules preset (Kaggle's envs/werewolf as its standard run config plays it): constructed
// games whose outcome is known for each rule - ties and abstentions drawn by the game's seeded
// generator and reproduced by the replay, abstentions counted for nobody, the Seer seeing the role,
// the doctor's self-save - and the bots under the preset.
#include "engine/werewolf/bots.h"
#include "engine/werewolf/replay.h"
#include "tests/werewolf_test_util.h"

#include <doctest/doctest.h>

#include <set>

using namespace chaiba::werewolf;
using namespace chaiba::werewolf::test;

namespace {
const Event& lastOf(const Game& g, EventKind kind) {
    for (auto it = g.events().rbegin(); it != g.events().rend(); ++it)
        if (it->kind == kind) return *it;
    FAIL("no such event");
    return g.events().front();
}

void requireReplays(const Game& g) {
    const ReplayResult r = replay(g.events());
    REQUIRE_MESSAGE(r.game.has_value(), r.error);
    CHECK(*r.game == g);
}

// The generator the rules draw from, as the game seeds it (makeGame deals with seed 42).
chaiba::SplitMix64 drawsOf(uint64_t seed) { return chaiba::SplitMix64(seed ^ kDrawSalt); }
} // namespace

TEST_CASE("werewolf the kaggle preset switches") {
    const Rules k = Rules::kaggle();
    CHECK(k.doctorSelfSave);
    CHECK(k.doctorRepeatSave);
    CHECK(k.tieRule == TieRule::Random);
    CHECK(k.randomFirstSpeaker);
    CHECK(k.revealRoles);
    CHECK(k.seerSeesRole);
    CHECK(k.abstainAllowed);
    CHECK(k.randomWolfTie);
    CHECK(rulesOf(*parseRulesPreset("kaggle")) == k);
    CHECK(rulesOf(*parseRulesPreset("plain")) == Rules::plain());
    CHECK(rulesOf(*parseRulesPreset("balanced")) == Rules::balanced());
    CHECK_FALSE(parseRulesPreset("Kaggle").has_value());
    CHECK_FALSE(parseRulesPreset("").has_value());
    // The older presets do not draw, see the role or abstain.
    for (const Rules& r : {Rules::balanced(), Rules::plain()}) {
        CHECK_FALSE(r.seerSeesRole);
        CHECK_FALSE(r.abstainAllowed);
        CHECK_FALSE(r.randomFirstSpeaker);
        CHECK_FALSE(r.randomWolfTie);
        CHECK(r.tieRule != TieRule::Random);
    }
}

TEST_CASE("werewolf kaggle the first speaker is drawn by the seeded generator") {
    Game g = makeGame(Rules::kaggle());
    night(g, V5, W1, V5); // saved: all 8 alive
    chaiba::SplitMix64 draws = drawsOf(42);
    const int first = static_cast<int>(draws.below(8));
    REQUIRE(g.phase() == Phase::Discussion);
    CHECK(g.speakingOrder().front() == first);
    CHECK(g.speakingOrder().size() == 8);
    requireReplays(g);
    // Over seeds the first speaker is not always the same seat (balanced rotates from P1 on day 1).
    std::set<int> firsts;
    for (uint64_t seed = 1; seed <= 20; ++seed) {
        NewGame n = Game::createDealt(table8(), Rules::kaggle(), seed);
        night(*n.game, V5, W1, V5);
        firsts.insert(n.game->speakingOrder().front());
    }
    CHECK(firsts.size() > 3);
}

TEST_CASE("werewolf kaggle a tied day vote is drawn among the tied and the replay reproduces it") {
    // W1 W2 SEER V7 vote V6, DOC V5 V6 V8 vote V7: 4 against 4.
    const auto tied = [](int s) { return (s == W1 || s == W2 || s == SEER || s == V7) ? V6 : V7; };
    std::set<int> drawn;
    for (uint64_t seed = 1; seed <= 24; ++seed) {
        NewGame n = Game::createDealt(table8(), Rules::kaggle(), seed);
        Game& g = *n.game;
        night(g, V5, W1, V5);
        dayVote(g, tied);
        chaiba::SplitMix64 draws = drawsOf(seed);
        draws.below(8); // the first speaker
        const int expected = std::vector<int>{V6, V7}[static_cast<size_t>(draws.below(2))];
        const Event& out = lastOf(g, EventKind::Elimination);
        CHECK(out.target == expected);
        CHECK(out.seats == std::vector<int>{V6, V7});
        CHECK_FALSE(g.isAlive(expected));
        CHECK(g.livingSeats().size() == 7);
        CHECK(countKind(g.events(), EventKind::NoElimination) == 0);
        CHECK(countKind(g.events(), EventKind::Revote) == 0);
        requireReplays(g);
        drawn.insert(expected);
    }
    CHECK(drawn == std::set<int>{V6, V7}); // a draw, not a fixed choice
}

TEST_CASE("werewolf kaggle an abstention counts for nobody") {
    Game g = makeGame(Rules::kaggle());
    night(g, V5, W1, V5);
    // Two for V6, one for V7, five abstain: V6 leaves (a plurality of the votes cast).
    dayVote(g, [](int s) {
        if (s == W1 || s == W2) return V6;
        if (s == SEER) return V7;
        return kAbstain;
    });
    const Event& out = lastOf(g, EventKind::Elimination);
    CHECK(out.target == V6);
    CHECK(out.seats.empty()); // no draw
    CHECK(countKind(g.events(), EventKind::VoteCast) == 8);
    CHECK(describeEvent(g.events()[g.events().size() - 4]).find("abstains") != std::string::npos);
    requireReplays(g);
}

TEST_CASE("werewolf abstaining is refused where the rules do not allow it") {
    for (const Rules& rules : {Rules::balanced(), Rules::plain()}) {
        Game g = makeGame(rules);
        night(g, V5, W1, V5);
        require(g.endDiscussion());
        const Game before = g;
        const ApplyResult r = g.apply(Decision::vote(V6, kAbstain));
        CHECK(r.error == DecisionError::AbstainForbidden);
        CHECK(g == before);
        for (const PendingDecision& p : g.pendingDecisions()) CHECK_FALSE(p.abstain);
    }
    // Under kaggle a vote may abstain; a night action may not.
    Game k = makeGame(Rules::kaggle());
    CHECK(k.apply(Decision::inspect(SEER, kAbstain)).error == DecisionError::AbstainForbidden);
    CHECK(k.apply(Decision::protect(DOC, kAbstain)).error == DecisionError::AbstainForbidden);
    for (const PendingDecision& p : k.pendingDecisions())
        CHECK(p.abstain == (p.kind == DecisionKind::WolfVote));
}

TEST_CASE("werewolf kaggle every vote abstaining eliminates a living player drawn at random") {
    NewGame n = Game::createDealt(table8(), Rules::kaggle(), 7);
    Game& g = *n.game;
    night(g, V5, W1, V5);
    const std::vector<int> living = g.livingSeats();
    dayVote(g, [](int) { return kAbstain; });
    chaiba::SplitMix64 draws = drawsOf(7);
    draws.below(8);
    const int expected = living[static_cast<size_t>(draws.below(living.size()))];
    const Event& out = lastOf(g, EventKind::Elimination);
    CHECK(out.target == expected);
    CHECK(out.seats == living);
    CHECK(g.livingSeats().size() == 7);
    requireReplays(g);

    // The same abstentions where a tie eliminates nobody: nobody leaves, and the event says why.
    Rules noTie = Rules::kaggle();
    noTie.tieRule = TieRule::NoElimination;
    Game h = makeGame(noTie);
    night(h, V5, W1, V5);
    dayVote(h, [](int) { return kAbstain; });
    const Event& none = lastOf(h, EventKind::NoElimination);
    CHECK(none.seats.empty());
    CHECK(describeEvent(none) == "Every vote was an abstention: nobody is eliminated.");
    CHECK(h.livingSeats().size() == 8);
    requireReplays(h);
}

TEST_CASE("werewolf kaggle the wolves' tie and their abstentions are drawn") {
    // W1 names V5, W2 names V6: a tie, drawn (balanced: the earliest vote, V5, stands).
    std::set<int> victims;
    for (uint64_t seed = 1; seed <= 24; ++seed) {
        NewGame n = Game::createDealt(table8(), Rules::kaggle(), seed);
        Game& g = *n.game;
        require(g.apply(Decision::wolfVote(W1, V5)));
        require(g.apply(Decision::wolfVote(W2, V6)));
        require(g.apply(Decision::inspect(SEER, W1)));
        require(g.apply(Decision::protect(DOC, V8)));
        const int expected = std::vector<int>{V5, V6}[static_cast<size_t>(drawsOf(seed).below(2))];
        const Event& target = lastOf(g, EventKind::WolfTarget);
        CHECK(target.target == expected);
        CHECK(target.seats == std::vector<int>{V5, V6});
        CHECK_FALSE(g.isAlive(expected));
        requireReplays(g);
        victims.insert(expected);
    }
    CHECK(victims == std::set<int>{V5, V6});
    Game b = makeGame(Rules::balanced());
    require(b.apply(Decision::wolfVote(W1, V5)));
    require(b.apply(Decision::wolfVote(W2, V6)));
    require(b.apply(Decision::inspect(SEER, W1)));
    require(b.apply(Decision::protect(DOC, V8)));
    CHECK(lastOf(b, EventKind::WolfTarget).target == V5);
    CHECK(lastOf(b, EventKind::WolfTarget).seats.empty());

    // Both wolves abstain: a villager (never a wolf) is drawn among the six living non-wolves.
    Game g = makeGame(Rules::kaggle());
    night(g, kAbstain, W1, V8);
    const std::vector<int> prey = {SEER, DOC, V5, V6, V7, V8};
    const int expected = prey[static_cast<size_t>(drawsOf(42).below(prey.size()))];
    CHECK(lastOf(g, EventKind::WolfTarget).target == expected);
    CHECK(lastOf(g, EventKind::WolfTarget).seats == prey);
    CHECK(g.isAlive(expected) == (expected == V8)); // the doctor's save still holds
    requireReplays(g);

    // Abstaining allowed but no random wolf tie: every wolf abstaining attacks nobody.
    Rules quiet = Rules::kaggle();
    quiet.randomWolfTie = false;
    Game h = makeGame(quiet);
    night(h, kAbstain, W1, V8);
    CHECK(lastOf(h, EventKind::WolfTarget).target == kNoSeat);
    CHECK(countKind(h.events(), EventKind::DawnNoDeath) == 1);
    CHECK(h.livingSeats().size() == 8);
    requireReplays(h);
}

TEST_CASE("werewolf kaggle the seer learns the role") {
    Game k = makeGame(Rules::kaggle());
    night(k, V5, DOC, V5);
    const Event& seen = lastOf(k, EventKind::SeerInspect);
    REQUIRE(seen.revealedRole.has_value());
    CHECK(*seen.revealedRole == Role::Doctor);
    CHECK(seen.team == Team::Villagers);
    CHECK(describeEvent(seen) == "P3 inspects P4: the Doctor.");
    requireReplays(k);
    Game b = makeGame(Rules::balanced());
    night(b, V5, DOC, V5);
    CHECK_FALSE(lastOf(b, EventKind::SeerInspect).revealedRole.has_value());
}

TEST_CASE("werewolf kaggle the doctor may save himself, also two nights running") {
    Game g = makeGame(Rules::kaggle());
    night(g, DOC, W1, DOC);
    CHECK(g.isAlive(DOC));
    CHECK(countKind(g.events(), EventKind::DawnNoDeath) == 1);
    dayVote(g, [](int s) { return s == V8 ? V7 : V8; });
    REQUIRE(g.phase() == Phase::Night);
    night(g, DOC, W2, DOC); // the same save again: allowed, and it holds
    CHECK(g.isAlive(DOC));
    CHECK(countKind(g.events(), EventKind::DawnNoDeath) == 2);
    requireReplays(g);
    Game b = makeGame(Rules::balanced());
    CHECK(b.apply(Decision::protect(DOC, DOC)).error == DecisionError::SelfProtectForbidden);
}

TEST_CASE("werewolf kaggle bot games finish, replay and abstain") {
    int abstentions = 0, draws = 0;
    for (uint64_t seed = 1; seed <= 40; ++seed) {
        const BotGameResult r = playBotGame(8, {}, Rules::kaggle(), seed);
        REQUIRE(r.game.has_value());
        CHECK(r.winner.has_value());
        requireReplays(*r.game);
        for (const Event& e : r.game->events()) {
            abstentions += e.kind == EventKind::VoteCast && e.target == kAbstain;
            draws += (e.kind == EventKind::Elimination || e.kind == EventKind::WolfTarget) && !e.seats.empty();
            if (e.kind == EventKind::VoteCast && e.target == kAbstain)
                CHECK(teamOf(r.game->roleOf(e.seat)) == Team::Villagers); // bot wolves never abstain
        }
    }
    CHECK(abstentions > 0);
    CHECK(draws > 0);
}
