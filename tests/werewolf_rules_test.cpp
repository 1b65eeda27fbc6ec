// Werewolf rules: deal, night actions (wolves, seer, doctor), day votes and ties, win checks, the
// typed errors of invalid decisions, and what each seat may see.
#include "engine/werewolf/game.h"
#include "tests/werewolf_test_util.h"

#include <doctest/doctest.h>

using namespace chaiba::werewolf;
using namespace chaiba::werewolf::test;

TEST_CASE("werewolf splitmix64 golden values and an unbiased bound") {
    SplitMix64 rng(0);
    CHECK(rng.next() == 0xE220A8397B1DCDAFULL);
    CHECK(rng.next() == 0x6E789E6AA1B965F4ULL);
    CHECK(rng.next() == 0x06C45D188009454FULL);
    SplitMix64 dice(7);
    std::vector<int> seen(6, 0);
    for (int i = 0; i < 6000; ++i) ++seen[static_cast<size_t>(dice.below(6))];
    for (int n : seen) CHECK(n > 800);
}

TEST_CASE("werewolf default deal and setup errors") {
    std::vector<Role> eight = defaultRoles(8);
    CHECK(std::count(eight.begin(), eight.end(), Role::Werewolf) == 2);
    CHECK(std::count(eight.begin(), eight.end(), Role::Seer) == 1);
    CHECK(std::count(eight.begin(), eight.end(), Role::Doctor) == 1);
    CHECK(std::count(eight.begin(), eight.end(), Role::Villager) == 4);
    const std::vector<Role> five = defaultRoles(5), sixteen = defaultRoles(16);
    CHECK(std::count(five.begin(), five.end(), Role::Werewolf) == 1);
    CHECK(std::count(sixteen.begin(), sixteen.end(), Role::Werewolf) == 4);
    for (int n = kMinSeats; n <= kMaxSeats; ++n) CHECK(validateRoles(n, defaultRoles(n)) == SetupError::None);
    CHECK(defaultRoles(4).empty());
    CHECK(Game::create({4, {}, Rules{}, 1}).error == SetupError::SeatCount);
    CHECK(Game::create({17, {}, Rules{}, 1}).error == SetupError::SeatCount);
    CHECK(Game::create({6, defaultRoles(8), Rules{}, 1}).error == SetupError::RoleCount);
    CHECK(Game::createDealt(std::vector<Role>(6, Role::Villager), Rules{}, 1).error == SetupError::NoWolf);
    CHECK(Game::createDealt(
              {Role::Werewolf, Role::Werewolf, Role::Werewolf, Role::Seer, Role::Villager, Role::Villager},
              Rules{}, 1)
              .error == SetupError::TooManyWolves);
    CHECK(parseRole("wolf") == Role::Werewolf);
    CHECK(parseRole("SEER") == Role::Seer);
    CHECK_FALSE(parseRole("witch").has_value());
    CHECK(seatName(0) == "P1");
    CHECK(parseSeatName("p12") == 11);
    CHECK_FALSE(parseSeatName("P0").has_value());
}

TEST_CASE("werewolf deal is deterministic per seed and differs across seeds") {
    const auto dealOf = [](uint64_t seed) {
        NewGame g = Game::create({8, {}, Rules{}, seed});
        REQUIRE(g.ok());
        std::vector<Role> roles;
        for (int s = 0; s < 8; ++s) roles.push_back(g.game->roleOf(s));
        return roles;
    };
    CHECK(dealOf(1) == dealOf(1));
    CHECK(dealOf(123456789) == dealOf(123456789));
    int different = 0;
    for (uint64_t seed = 2; seed < 22; ++seed) different += dealOf(seed) != dealOf(1) ? 1 : 0;
    CHECK(different >= 18);
    // Golden deal: native and WASM must agree (portable SplitMix64 Fisher-Yates).
    CHECK(dealRoles(table8(), 1) == dealRoles(table8(), 1));
    std::vector<Role> dealt = dealOf(1);
    std::vector<Role> sorted = dealt, expected = defaultRoles(8);
    std::sort(sorted.begin(), sorted.end());
    std::sort(expected.begin(), expected.end());
    CHECK(sorted == expected); // a permutation of the default deal
}

TEST_CASE("werewolf a new game: private roles, the pack, night 1 pending decisions") {
    Game g = makeGame();
    CHECK(g.phase() == Phase::Night);
    CHECK(g.round() == 1);
    CHECK(g.events().front().kind == EventKind::Deal);
    CHECK(g.events().front().audience.kind == AudienceKind::Spectators);
    // Each seat learns its own role only; wolves learn the pack.
    for (int s = 0; s < 8; ++s) {
        const std::vector<Event> seen = g.eventsVisibleTo(s);
        CHECK(countKind(seen, EventKind::Deal) == 0);
        CHECK(countKind(seen, EventKind::RoleAssigned) == 1);
        CHECK(countKind(seen, EventKind::PackRevealed) == (s <= W2 ? 1 : 0));
    }
    const std::vector<PendingDecision> pending = g.pendingDecisions();
    const auto find = [&](int seat, DecisionKind k) {
        return std::find_if(pending.begin(), pending.end(),
                            [&](const PendingDecision& p) { return p.seat == seat && p.kind == k; });
    };
    REQUIRE(find(W1, DecisionKind::WolfVote) != pending.end());
    CHECK(find(W1, DecisionKind::WolfVote)->targets == std::vector<int>{SEER, DOC, V5, V6, V7, V8});
    CHECK_FALSE(find(W1, DecisionKind::Speak)->required);
    CHECK(find(SEER, DecisionKind::Inspect)->targets == std::vector<int>{W1, W2, DOC, V5, V6, V7, V8});
    CHECK(find(DOC, DecisionKind::Protect)->targets == std::vector<int>{W1, W2, SEER, V5, V6, V7, V8});
    CHECK(find(V5, DecisionKind::Speak) == pending.end()); // villagers sleep
    CHECK(find(V5, DecisionKind::Vote) == pending.end());
}

TEST_CASE("werewolf villagers win the moment the last wolf is voted out") {
    Game g = makeGame();
    night(g, V5, W1, V6);
    CHECK_FALSE(g.isAlive(V5));
    voteOut(g, W1, V6);
    CHECK_FALSE(g.isAlive(W1));
    CHECK(g.phase() == Phase::Night);
    night(g, V6, W2, V7);
    voteOut(g, W2, V7);
    CHECK(g.isOver());
    CHECK(g.phase() == Phase::Over);
    CHECK(g.winner() == Team::Villagers);
    // The elimination is followed by the game over and nothing else.
    const std::vector<Event>& log = g.events();
    REQUIRE(log.size() >= 2);
    CHECK(log.back().kind == EventKind::GameOver);
    CHECK(log.back().team == Team::Villagers);
    CHECK(log.back().roles == table8());
    CHECK(log[log.size() - 2].kind == EventKind::Elimination);
    CHECK(log[log.size() - 2].target == W2);
    CHECK(g.pendingDecisions().empty());
    const size_t size = log.size();
    const Game before = g;
    CHECK(g.apply(Decision::vote(SEER, DOC)).error == DecisionError::GameOver);
    CHECK(g.apply(Decision::inspect(SEER, DOC)).error == DecisionError::GameOver);
    CHECK(g.speak(SEER, "gg").error == DecisionError::GameOver);
    CHECK(g.endDiscussion().error == DecisionError::GameOver);
    CHECK(g.events().size() == size);
    CHECK(g == before);
}

TEST_CASE("werewolf wolves win at dawn when they reach parity") {
    // 5 seats: P1 wolf, P2 seer, P3 doctor, P4 and P5 villagers.
    Game g = makeGame(Rules::balanced(),
                      {Role::Werewolf, Role::Seer, Role::Doctor, Role::Villager, Role::Villager});
    night(g, 3, 2, 4); // P4 dies
    voteOut(g, 4, 0);  // the village votes out villager P5: 1 wolf against 2
    CHECK_FALSE(g.isOver());
    night(g, 1, 0, 0); // the seer dies: 1 against 1
    CHECK(g.isOver());
    CHECK(g.winner() == Team::Wolves);
    CHECK(g.events()[g.events().size() - 2].kind == EventKind::DawnDeath);
    CHECK(countKind(g.events(), EventKind::PhaseStart) == 4); // N1, D1, V1, N2; no day 2
    CHECK(g.pendingDecisions().empty());
}

TEST_CASE("werewolf wolves win by a day elimination that gives them parity") {
    Game g = makeGame(Rules::balanced(),
                      {Role::Werewolf, Role::Seer, Role::Doctor, Role::Villager, Role::Villager});
    night(g, 3, 0, 4); // P4 dies: 1 wolf, 3 others
    voteOut(g, 4, 0);  // P5 out: 1 against 2
    night(g, 1, 0, 1); // the doctor saves the seer
    CHECK(g.events()[g.events().size() - 2].kind == EventKind::DawnNoDeath);
    CHECK_FALSE(g.isOver());
    voteOut(g, 2, 0); // the doctor is voted out: 1 against 1
    CHECK(g.isOver());
    CHECK(g.winner() == Team::Wolves);
    CHECK(g.events()[g.events().size() - 2].kind == EventKind::Elimination);
    CHECK(g.pendingDecisions().empty());
}

TEST_CASE("werewolf a doctor's save prevents the death") {
    Game g = makeGame();
    night(g, V5, W1, V5);
    CHECK(g.isAlive(V5));
    CHECK(g.livingSeats().size() == 8);
    CHECK(g.events()[g.events().size() - 2].kind == EventKind::DawnNoDeath);
    CHECK(g.phase() == Phase::Discussion);
    // The wolves learn their target; nobody else does.
    CHECK(countKind(g.eventsVisibleTo(W2), EventKind::WolfTarget) == 1);
    CHECK(countKind(g.eventsVisibleTo(DOC), EventKind::WolfTarget) == 0);
    // Without the save the victim dies.
    Game h = makeGame();
    night(h, V5, W1, V6);
    CHECK_FALSE(h.isAlive(V5));
}

TEST_CASE("werewolf doctor self-save follows its switch") {
    Game balanced = makeGame(Rules::balanced());
    const std::vector<int> allowed = balanced.allowedTargets(DOC, DecisionKind::Protect);
    CHECK(std::find(allowed.begin(), allowed.end(), DOC) == allowed.end());
    CHECK(balanced.apply(Decision::protect(DOC, DOC)).error == DecisionError::SelfProtectForbidden);

    Game plain = makeGame(Rules::plain());
    const std::vector<int> open = plain.allowedTargets(DOC, DecisionKind::Protect);
    CHECK(std::find(open.begin(), open.end(), DOC) != open.end());
    night(plain, DOC, W1, DOC);
    CHECK(plain.isAlive(DOC));
    CHECK(plain.events()[plain.events().size() - 2].kind == EventKind::DawnNoDeath);
}

TEST_CASE("werewolf doctor consecutive saves follow their switch") {
    Game g = makeGame(Rules::balanced());
    night(g, V5, W1, V6);
    voteOut(g, V7, W1);
    CHECK(g.apply(Decision::protect(DOC, V6)).error == DecisionError::RepeatProtectForbidden);
    const std::vector<int> allowed = g.allowedTargets(DOC, DecisionKind::Protect);
    CHECK(std::find(allowed.begin(), allowed.end(), V6) == allowed.end());
    night(g, V8, W2, SEER);
    voteOut(g, W1, V6);
    // Two nights later V6 may be saved again.
    require(g.apply(Decision::protect(DOC, V6)));

    Game plain = makeGame(Rules::plain());
    night(plain, V5, W1, V6);
    voteOut(plain, V7, W1);
    require(plain.apply(Decision::protect(DOC, V6)));
}

TEST_CASE("werewolf the seer learns the true team and only the seer sees it") {
    Game g = makeGame();
    require(g.apply(Decision::inspect(SEER, W2)));
    const Event result = g.events().back();
    CHECK(result.kind == EventKind::SeerInspect);
    CHECK(result.target == W2);
    CHECK(result.team == Team::Wolves);
    CHECK(g.apply(Decision::inspect(SEER, V5)).error == DecisionError::AlreadyDecided);
    for (int s = 0; s < 8; ++s)
        CHECK(countKind(g.eventsVisibleTo(s), EventKind::SeerInspect) == (s == SEER ? 1 : 0));
    CHECK(countKind(g.publicEvents(), EventKind::SeerInspect) == 0);
    CHECK(countKind(g.events(), EventKind::SeerInspect) == 1); // the spectator sees it
    night(g, V5, kNoSeat, V6);
    voteOut(g, V6, W1);
    require(g.apply(Decision::inspect(SEER, DOC)));
    CHECK(g.events().back().team == Team::Villagers);
    // The doctor's protections (nights 1 and 2) are his alone.
    require(g.apply(Decision::protect(DOC, V7)));
    for (int s = 0; s < 8; ++s)
        CHECK(countKind(g.eventsVisibleTo(s), EventKind::DoctorProtect) == (s == DOC ? 2 : 0));
}

namespace {
// 8 living (the night's victim saved): W1 W2 SEER V7 vote V6, DOC V5 V6 V8 vote V7.
int tiedVote(int s) {
    return (s == W1 || s == W2 || s == SEER || s == V7) ? V6 : V7;
}
Game tiedDay(const Rules& rules) {
    Game g = makeGame(rules);
    night(g, V5, W1, V5);
    REQUIRE(g.livingSeats().size() == 8);
    dayVote(g, tiedVote);
    return g;
}
} // namespace

TEST_CASE("werewolf a tie eliminates nobody under NoElimination") {
    Game g = tiedDay(Rules::balanced());
    CHECK(g.events()[g.events().size() - 2].kind == EventKind::NoElimination);
    CHECK(g.events()[g.events().size() - 2].seats == std::vector<int>{V6, V7});
    CHECK(g.livingSeats().size() == 8);
    CHECK(g.phase() == Phase::Night);
    CHECK(g.round() == 2);
    CHECK(countKind(g.events(), EventKind::Revote) == 0);
}

TEST_CASE("werewolf a tie triggers a revote among the tied") {
    Game g = tiedDay(Rules::plain());
    CHECK(g.events().back().kind == EventKind::Revote);
    CHECK(g.events().back().seats == std::vector<int>{V6, V7});
    CHECK(g.phase() == Phase::Vote);
    CHECK(g.round() == 1);
    CHECK(g.revoteCandidates() == std::vector<int>{V6, V7});
    CHECK(g.allowedTargets(W1, DecisionKind::Vote) == std::vector<int>{V6, V7});
    CHECK(g.allowedTargets(V6, DecisionKind::Vote) == std::vector<int>{V7});
    const Game before = g;
    CHECK(g.apply(Decision::vote(W1, V8)).error == DecisionError::NotACandidate);
    CHECK(g == before);
    // The revote decides: V6 out.
    dayVote(g, [](int s) { return s == V6 ? V7 : V6; });
    CHECK_FALSE(g.isAlive(V6));
    CHECK(g.phase() == Phase::Night);
    CHECK(g.revoteCandidates().empty());
    CHECK(g.allowedTargets(W1, DecisionKind::WolfVote).size() == 5); // everyone again, but the pack
}

TEST_CASE("werewolf a second tie in the revote eliminates nobody") {
    Game g = tiedDay(Rules::plain());
    REQUIRE(g.events().back().kind == EventKind::Revote);
    // V6 -> V7, V7 -> V6, W1 W2 SEER -> V6, DOC V5 V8 -> V7: 4 against 4 again.
    dayVote(g, [](int s) {
        if (s == V6) return V7;
        if (s == V7) return V6;
        return (s == W1 || s == W2 || s == SEER) ? V6 : V7;
    });
    CHECK(g.events()[g.events().size() - 2].kind == EventKind::NoElimination);
    CHECK(g.livingSeats().size() == 8);
    CHECK(g.phase() == Phase::Night);
    CHECK(g.round() == 2);
    CHECK(countKind(g.events(), EventKind::Revote) == 1);
}

TEST_CASE("werewolf the dead cannot act, talk or vote") {
    Game g = makeGame();
    night(g, SEER, W1, V6); // the seer dies at night
    CHECK_FALSE(g.isAlive(SEER));
    CHECK(g.speak(SEER, "I was the seer!").error == DecisionError::DeadSeat);
    require(g.speak(V5, "Who did this?"));
    require(g.endDiscussion());
    CHECK(g.apply(Decision::vote(SEER, W1)).error == DecisionError::DeadSeat);
    CHECK(g.apply(Decision::vote(W1, SEER)).error == DecisionError::DeadTarget);
    for (const PendingDecision& p : g.pendingDecisions()) {
        CHECK(p.seat != SEER);
        CHECK(std::find(p.targets.begin(), p.targets.end(), SEER) == p.targets.end());
    }
    voteOut(g, W1, V5); // a wolf voted out
    CHECK(g.phase() == Phase::Night);
    CHECK(g.apply(Decision::wolfVote(W1, V5)).error == DecisionError::DeadSeat);
    CHECK(g.speak(W1, "avenge me").error == DecisionError::DeadSeat);
    CHECK(g.apply(Decision::inspect(SEER, W2)).error == DecisionError::DeadSeat);
    // The night needs only the living: W2 and the doctor.
    require(g.apply(Decision::wolfVote(W2, V6)));
    require(g.apply(Decision::protect(DOC, V7)));
    CHECK(g.phase() == Phase::Discussion);
    CHECK(std::find(g.speakingOrder().begin(), g.speakingOrder().end(), W1) == g.speakingOrder().end());
}

TEST_CASE("werewolf wolf chat never appears in a villager's visible events") {
    Game g = makeGame();
    require(g.speak(W1, "Let's take P3, she looks like the seer."));
    require(g.speak(W2, "Agreed."));
    night(g, SEER, V5, V6);
    require(g.speak(V6, "Good morning."));
    for (int s = 0; s < 8; ++s) {
        const std::vector<Event> seen = g.eventsVisibleTo(s);
        const bool wolf = s == W1 || s == W2;
        CHECK(countKind(seen, EventKind::WolfChat) == (wolf ? 2 : 0));
        CHECK(countKind(seen, EventKind::WolfVote) == (wolf ? 2 : 0));
        CHECK(countKind(seen, EventKind::WolfTarget) == (wolf ? 1 : 0));
        CHECK(countKind(seen, EventKind::DayChat) == 1);
        if (!wolf)
            for (const Event& e : seen) CHECK(e.text.find("seer") == std::string::npos);
    }
    CHECK(countKind(g.publicEvents(), EventKind::WolfChat) == 0);
    CHECK(countKind(g.events(), EventKind::WolfChat) == 2);
    CHECK(g.eventsVisibleTo(8).empty()); // not a seat
    // Only wolves talk at night.
    Game h = makeGame();
    CHECK(h.speak(V5, "psst").error == DecisionError::NotYourTurn);
    CHECK(h.speak(SEER, "psst").error == DecisionError::NotYourTurn);
}

TEST_CASE("werewolf invalid decisions are refused with a typed error and change nothing") {
    Game g = makeGame();
    const Game before = g;
    struct Case {
        Decision d;
        DecisionError error;
    };
    const Case cases[] = {
        {Decision::wolfVote(9, V5), DecisionError::UnknownSeat},
        {Decision::wolfVote(-1, V5), DecisionError::UnknownSeat},
        {Decision::wolfVote(W1, 8), DecisionError::UnknownTarget},
        {Decision::wolfVote(W1, W1), DecisionError::SelfTarget},
        {Decision::wolfVote(W1, W2), DecisionError::PartnerTarget},
        {Decision::wolfVote(V5, V6), DecisionError::NotYourTurn},
        {Decision::inspect(SEER, SEER), DecisionError::SelfTarget},
        {Decision::inspect(V5, V6), DecisionError::NotYourTurn},
        {Decision::protect(W1, V6), DecisionError::NotYourTurn},
        {Decision::vote(V5, V6), DecisionError::NotYourTurn},
        {Decision::speak(W1, "   "), DecisionError::EmptyText},
        {Decision::speak(W1, std::string(kMaxChatChars + 1, 'a')), DecisionError::TextTooLong},
    };
    for (const Case& c : cases) {
        const ApplyResult r = g.apply(c.d);
        CHECK_MESSAGE(r.error == c.error, decisionErrorName(r.error), " ", r.message);
        CHECK_FALSE(r.message.empty());
        CHECK(g == before);
    }
    CHECK(g.endDiscussion().error == DecisionError::NotInDiscussion);
    require(g.apply(Decision::wolfVote(W1, V5)));
    CHECK(g.apply(Decision::wolfVote(W1, V6)).error == DecisionError::AlreadyDecided);

    g = makeGame();
    night(g, V5, W1, V6);
    const Game day = g;
    CHECK(g.apply(Decision::vote(V6, V7)).error == DecisionError::NotYourTurn); // discussion first
    CHECK(g.apply(Decision::wolfVote(W1, V6)).error == DecisionError::NotYourTurn);
    CHECK(g == day);
    require(g.endDiscussion());
    CHECK(g.apply(Decision::vote(V6, V6)).error == DecisionError::SelfTarget);
    CHECK(g.apply(Decision::vote(V6, V5)).error == DecisionError::DeadTarget);
    CHECK(g.speak(V6, "too late").error == DecisionError::NotYourTurn);
    require(g.apply(Decision::vote(V6, V7)));
    CHECK(g.apply(Decision::vote(V6, V8)).error == DecisionError::AlreadyDecided);
    CHECK(decisionErrorName(DecisionError::PartnerTarget) == "partner_target");
}

TEST_CASE("werewolf wolves tied on the victim: the earliest vote decides, a majority overrules") {
    Game g = makeGame();
    require(g.apply(Decision::wolfVote(W2, V7))); // first vote
    require(g.apply(Decision::wolfVote(W1, V6)));
    require(g.apply(Decision::inspect(SEER, V5)));
    require(g.apply(Decision::protect(DOC, V5)));
    CHECK_FALSE(g.isAlive(V7));
    CHECK(g.isAlive(V6));

    // Three wolves: two for V6 beat the first vote for V7.
    std::vector<Role> roles = table8();
    roles[V8] = Role::Werewolf;
    Game h = makeGame(Rules::balanced(), roles);
    require(h.apply(Decision::wolfVote(V8, V7)));
    require(h.apply(Decision::wolfVote(W1, V6)));
    require(h.apply(Decision::wolfVote(W2, V6)));
    require(h.apply(Decision::inspect(SEER, V5)));
    require(h.apply(Decision::protect(DOC, V5)));
    CHECK_FALSE(h.isAlive(V6));
    CHECK(h.isAlive(V7));
}

TEST_CASE("werewolf speaking order: fixed or rotating first speaker") {
    Game fixed = makeGame(Rules::plain());
    night(fixed, V5, W1, V6);
    CHECK(fixed.speakingOrder() == std::vector<int>{0, 1, 2, 3, 5, 6, 7});
    CHECK(fixed.events().back().seats == fixed.speakingOrder());
    Game rotating = makeGame(Rules::balanced());
    night(rotating, V5, W1, V6);
    CHECK(rotating.speakingOrder() == std::vector<int>{0, 1, 2, 3, 5, 6, 7}); // day 1 starts at P1
    voteOut(rotating, V7, W1);
    night(rotating, V8, W1, SEER);
    CHECK(rotating.speakingOrder() == std::vector<int>{1, 2, 3, 5, 0}); // day 2 starts at P2
    voteOut(fixed, W1, V6);
    night(fixed, V7, W2, V6);
    CHECK(fixed.speakingOrder() == std::vector<int>{1, 2, 3, 5, 7}); // the lowest living seat
}

TEST_CASE("werewolf roles of the dead are revealed only when the switch is on") {
    Rules hidden = Rules::balanced();
    hidden.revealRoles = false;
    Game g = makeGame(hidden);
    night(g, V5, W1, V6);
    CHECK(g.events()[g.events().size() - 2].kind == EventKind::DawnDeath);
    CHECK_FALSE(g.events()[g.events().size() - 2].revealedRole.has_value());
    voteOut(g, W1, V6);
    const auto elimination = std::find_if(g.events().begin(), g.events().end(),
                                          [](const Event& e) { return e.kind == EventKind::Elimination; });
    REQUIRE(elimination != g.events().end());
    CHECK_FALSE(elimination->revealedRole.has_value());
    Game shown = makeGame(Rules::plain());
    night(shown, V5, W1, V6);
    CHECK(shown.events()[shown.events().size() - 2].revealedRole == Role::Villager);
    CHECK(describeEvent(shown.events()[shown.events().size() - 2]) ==
          "Dawn: P5 was killed in the night (Villager).");
}

TEST_CASE("werewolf rule presets") {
    const Rules b = Rules::balanced();
    CHECK_FALSE(b.doctorSelfSave);
    CHECK_FALSE(b.doctorRepeatSave);
    CHECK(b.tieRule == TieRule::NoElimination);
    CHECK(b.rotateFirstSpeaker);
    CHECK(b == Rules{});
    const Rules p = Rules::plain();
    CHECK(p.doctorSelfSave);
    CHECK(p.doctorRepeatSave);
    CHECK(p.tieRule == TieRule::Revote);
    CHECK_FALSE(p.rotateFirstSpeaker);
    CHECK(p.revealRoles);
}
