// Werewolf bots: whole bot games always end with a winner, are deterministic per seed, and the
// bots follow their rules (the Seer reveals a found wolf, wolves kill a revealed Seer first and
// never vote a partner unless forced, the doctor guards the revealed Seer).
#include "engine/werewolf/bots.h"
#include "tests/werewolf_test_util.h"

#include <doctest/doctest.h>

using namespace chaiba::werewolf;
using namespace chaiba::werewolf::test;

namespace {
constexpr int kRoundBound = 8; // 8 seats: 6 deaths at most decide any game; saves and ties add a few

// Bots at a scripted table: the test applies some decisions itself and asks bots for others.
struct BotTable {
    Game game;
    std::vector<Bot> bots;
    size_t fed = 0;
    explicit BotTable(Game g) : game(std::move(g)) {
        for (int s = 0; s < game.seats(); ++s) bots.emplace_back(s, 5);
        feed();
    }
    void feed() {
        for (; fed < game.events().size(); ++fed)
            for (Bot& b : bots)
                if (visibleTo(game.events()[fed], b.seat(), game.roleOf(b.seat())))
                    b.observe(game.events()[fed]);
    }
    void apply(const Decision& d) {
        require(game.apply(d));
        feed();
    }
    Decision ask(int seat, DecisionKind kind) {
        for (const PendingDecision& p : game.pendingDecisions())
            if (p.seat == seat && p.kind == kind) return bots[static_cast<size_t>(seat)].decide(game, p);
        FAIL("no such pending decision");
        return {};
    }
};
} // namespace

TEST_CASE("werewolf bots read chat lines") {
    CHECK(readChat("I suspect P3.").accused == 2);
    CHECK_FALSE(readChat("I suspect P3.").claimsSeer);
    const ChatReading seer = readChat("I am the Seer. P12 is a wolf.");
    CHECK(seer.claimsSeer);
    CHECK(seer.accused == 11);
    CHECK(readChat("Let's take P5.").accused == 4);
    CHECK(readChat("P2 is lying. I suspect P2.").accused == 1);
    CHECK_FALSE(readChat("Good morning P4.").accused.has_value()); // no accusation
    CHECK_FALSE(readChat("I suspect SP3X.").accused.has_value());
}

TEST_CASE("werewolf an 8-seat bot game always ends with a winner, 200 seeds") {
    for (const Rules& rules : {Rules::balanced(), Rules::plain()}) {
        int villagerWins = 0;
        for (uint64_t seed = 1; seed <= 200; ++seed) {
            const BotGameResult r = playBotGame(8, {}, rules, seed);
            REQUIRE(r.game.has_value());
            REQUIRE_MESSAGE(r.winner.has_value(), "seed ", seed);
            CHECK_MESSAGE(r.rounds <= kRoundBound, "seed ", seed, " took ", r.rounds, " rounds");
            CHECK(r.game->isOver());
            CHECK(r.game->pendingDecisions().empty());
            CHECK(r.game->events().back().kind == EventKind::GameOver);
            CHECK(r.game->events().back().team == *r.winner);
            villagerWins += *r.winner == Team::Villagers ? 1 : 0;
        }
        CHECK(villagerWins > 0); // both teams win some
        CHECK(villagerWins < 200);
    }
}

TEST_CASE("werewolf bot games are deterministic per seed") {
    const BotGameResult a = playBotGame(8, {}, Rules::balanced(), 77);
    const BotGameResult b = playBotGame(8, {}, Rules::balanced(), 77);
    const BotGameResult c = playBotGame(8, {}, Rules::balanced(), 78);
    REQUIRE(a.game.has_value());
    CHECK(a.game->events() == b.game->events());
    CHECK(a.game->events() != c.game->events());
    CHECK(playBotGame(4, {}, Rules{}, 1).setupError == SetupError::SeatCount);
    for (int seats = kMinSeats; seats <= kMaxSeats; ++seats)
        CHECK(playBotGame(seats, {}, Rules{}, 3).winner.has_value());
}

TEST_CASE("werewolf the bot seer reveals a found wolf and the wolves kill it next") {
    BotTable t(makeGame(Rules::balanced()));
    t.apply(Decision::wolfVote(W1, V5));
    t.apply(Decision::wolfVote(W2, V5));
    t.apply(Decision::inspect(SEER, W1));
    t.apply(Decision::protect(DOC, V6));
    REQUIRE(t.game.phase() == Phase::Discussion);
    const Decision line = t.ask(SEER, DecisionKind::Speak);
    CHECK(line.text == "I am the Seer. P1 is a wolf.");
    t.apply(line);
    CHECK(t.game.eventsVisibleTo(V7).back().text == line.text); // said in public
    // Villagers echo the Seer; the wolves call it a liar.
    CHECK(t.ask(V7, DecisionKind::Speak).text == "I trust the Seer. I suspect P1.");
    CHECK(t.ask(W2, DecisionKind::Speak).text == "P3 is lying. I suspect P3.");
    require(t.game.endDiscussion());
    t.feed();
    // The seer votes the wolf; a wolf never votes its partner while it has a choice.
    CHECK(t.ask(SEER, DecisionKind::Vote).target == W1);
    CHECK(t.ask(W2, DecisionKind::Vote).target != W1);
    voteOut(t.game, V8, W1);
    t.feed();
    REQUIRE(t.game.phase() == Phase::Night);
    // Night 2: the first wolf proposes the Seer in the wolf chat, then both vote for it.
    const Decision proposal = t.ask(W1, DecisionKind::WolfVote);
    CHECK(proposal.kind == DecisionKind::Speak);
    CHECK(proposal.text == "Let's take P3.");
    t.apply(proposal);
    CHECK(t.ask(W1, DecisionKind::WolfVote).target == SEER);
    CHECK(t.ask(W2, DecisionKind::WolfVote).target == SEER);
    // The doctor guards the revealed Seer.
    CHECK(t.ask(DOC, DecisionKind::Protect).target == SEER);
}

TEST_CASE("werewolf bots keep their rules over 200 games") {
    int reveals = 0, huntedSeers = 0;
    for (uint64_t seed = 1; seed <= 200; ++seed) {
        const BotGameResult r = playBotGame(8, {}, seed % 2 ? Rules::plain() : Rules::balanced(), seed);
        REQUIRE(r.game.has_value());
        const Game& g = *r.game;
        std::vector<bool> alive(8, true);
        std::vector<int> found; // wolves the Seer found
        std::vector<int> candidates;
        bool seerRevealed = false;
        for (const Event& e : g.events()) {
            switch (e.kind) {
            case EventKind::SeerInspect:
                if (e.team == Team::Wolves) found.push_back(e.target);
                break;
            case EventKind::DayChat:
                if (g.roleOf(e.seat) == Role::Seer) {
                    const bool wolfAlive =
                        std::any_of(found.begin(), found.end(), [&](int w) { return alive[size_t(w)]; });
                    CHECK(wolfAlive == (e.text.rfind("I am the Seer.", 0) == 0));
                    seerRevealed = seerRevealed || wolfAlive;
                    reveals += wolfAlive ? 1 : 0;
                }
                break;
            case EventKind::WolfTarget:
                if (seerRevealed) {
                    int seer = 0;
                    while (g.roleOf(seer) != Role::Seer) ++seer;
                    if (alive[size_t(seer)]) {
                        CHECK(e.target == seer);
                        ++huntedSeers;
                    }
                }
                break;
            case EventKind::Revote: candidates = e.seats; break;
            case EventKind::VoteCast:
                if (g.teamOfSeat(e.seat) == Team::Wolves && g.teamOfSeat(e.target) == Team::Wolves) {
                    // Forced: a revote whose only other candidates are wolves.
                    REQUIRE_FALSE(candidates.empty());
                    for (int c : candidates) CHECK((c == e.seat || g.teamOfSeat(c) == Team::Wolves));
                }
                break;
            case EventKind::DawnDeath:
            case EventKind::Elimination: alive[size_t(e.target)] = false; break;
            case EventKind::PhaseStart:
                if (e.phase == Phase::Night) candidates.clear();
                break;
            default: break;
            }
        }
    }
    CHECK(reveals > 20);
    CHECK(huntedSeers > 10);
}

TEST_CASE("werewolf bot benchmark counts every game") {
    const BotBenchResult r = playBotGames(50, 8, {}, Rules::balanced(), 1000);
    CHECK(r.games == 50);
    CHECK(r.villagerWins + r.wolfWins + r.unfinished == 50);
    CHECK(r.unfinished == 0);
    CHECK(r.villagerWinRate() == doctest::Approx(r.villagerWins / 50.0));
    CHECK(r.totalRounds >= 50 * 2);
}
