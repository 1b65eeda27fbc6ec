// The Werewolf player context: truncation keeps the newest chat with a marker, a seat sees only
// its audience's events (a villager never reads the wolves' chat or the Seer's results), the vote
// tally while voting and the voting history, and the prompt's order (system line with the role and
// strategy, then notes, game state, task, response format).
#include "src/modes/werewolf/answers.h"
#include "src/modes/werewolf/player_context.h"
#include "tests/werewolf_mode_test_util.h"
#include "tests/werewolf_test_util.h"

#include <doctest/doctest.h>

using namespace chaiba::werewolf;
using namespace chaiba::werewolfmode;
using chaiba::werewolf::test::makeGame;
using chaiba::werewolf::test::require;
using chaiba::werewolfmode::test::prompts;
namespace wt = chaiba::werewolf::test;

TEST_CASE("werewolf context: truncation keeps the newest messages and marks the cut") {
    const std::vector<std::string> lines = {"aaaa", "bbbb", "cccc", "dddd"};
    CHECK(truncateOldestFirst(lines, 100) == lines);
    const std::vector<std::string> cut = truncateOldestFirst(lines, 10); // two lines of 4 + newline
    REQUIRE(cut.size() == 3);
    CHECK(cut[0] == "[... 2 earlier messages cut ...]");
    CHECK(cut[1] == "cccc");
    CHECK(cut[2] == "dddd");
    CHECK(truncateOldestFirst(lines, 0) == std::vector<std::string>{"[... 4 earlier messages cut ...]"});
    CHECK(truncateOldestFirst({}, 0).empty());
}

TEST_CASE("werewolf context: a long day chat is cut oldest first inside the game state") {
    Game g = makeGame();
    wt::night(g, wt::V5, wt::W1, wt::V8);
    REQUIRE(g.phase() == Phase::Discussion);
    for (int i = 0; i < 200; ++i)
        require(g.speak(wt::V6, "message number " + std::to_string(i) + " of the day"));
    ContextOptions small;
    small.chatTokenBudget = 100; // ~400 characters
    const std::string state = buildGameState(g, wt::V7, small);
    CHECK(state.find("message number 199 of the day") != std::string::npos);
    CHECK(state.find("message number 0 of the day") == std::string::npos);
    CHECK(state.find("earlier messages cut ...]") != std::string::npos);
    const std::string full = buildGameState(g, wt::V7, ContextOptions{100000, 4});
    CHECK(full.find("message number 0 of the day") != std::string::npos);
    CHECK(full.find("earlier messages cut") == std::string::npos);
}

TEST_CASE("werewolf context: a villager never sees the wolves' chat, votes or the Seer's results") {
    Game g = makeGame();
    require(g.speak(wt::W1, "Let's take P5, the secret plan."));
    wt::night(g, wt::V5, wt::W1, wt::V8);
    const std::string villager = buildGameState(g, wt::V6);
    const std::string wolf = buildGameState(g, wt::W2);
    const std::string seer = buildGameState(g, wt::SEER);
    CHECK(villager.find("secret plan") == std::string::npos);
    CHECK(villager.find("voted to kill") == std::string::npos);
    CHECK(villager.find("WEREWOLF") == std::string::npos);
    CHECK(villager.find("Your pack") == std::string::npos);
    CHECK(wolf.find("[Night 1, wolves only] P1: Let's take P5, the secret plan.") != std::string::npos);
    CHECK(wolf.find("Your pack (the other wolves): P1.") != std::string::npos);
    CHECK(wolf.find("P2 voted to kill P5") != std::string::npos);
    CHECK(seer.find("you inspected P1: a WEREWOLF") != std::string::npos);
    CHECK(seer.find("secret plan") == std::string::npos);
    // The dawn is public: P5 died with the role revealed.
    CHECK(villager.find("P5 killed in night 1 (Villager)") != std::string::npos);
    CHECK(villager.find("Living players (7): P1, P2, P3, P4, P6 (you), P7, P8.") != std::string::npos);
    // The whole prompt of a villager holds no wolf-only text either.
    const auto messages = buildMessages(prompts(), g, wt::V6, "", {AskKind::Chat, {}, Phase::Night, 0});
    for (const auto& m : messages) CHECK(m.content.find("secret plan") == std::string::npos);
}

TEST_CASE("werewolf context: the tally while voting and the history of every vote") {
    Game g = makeGame();
    wt::night(g, wt::V5, wt::W1, wt::V8);
    wt::dayVote(g, [](int s) { return s == wt::V8 ? wt::V7 : wt::V8; }); // P8 out, 6 to 1
    wt::night(g, wt::V6, wt::W2, wt::V7);
    require(g.endDiscussion());
    require(g.apply(Decision::vote(wt::W1, wt::SEER)));
    require(g.apply(Decision::vote(wt::W2, wt::SEER)));
    require(g.apply(Decision::vote(wt::SEER, wt::W1)));
    const std::string state = buildGameState(g, wt::V7);
    CHECK(state.find("Voting history:\n- Day 1: P7: 1 (P8); P8: 6 (P1, P2, P3, P4, P6, P7) -> P8 eliminated "
                     "(Villager).") != std::string::npos);
    CHECK(state.find("Current vote (Day 2): P1: 1 (P3); P3: 2 (P1, P2); not yet voted: P4, P7.") !=
          std::string::npos);
    CHECK(state.find("Round 2, phase: vote.") != std::string::npos);
}

TEST_CASE("werewolf context: the prompt follows the original structure") {
    Game g = makeGame();
    TaskInfo task{AskKind::Inspect, {0, 1, 3}, Phase::Night, 0};
    const auto m = buildMessages(prompts(), g, wt::SEER, "P2 seems nervous.", task);
    REQUIRE(m.size() == 2);
    CHECK(m[0].role == chaiba::llm::Role::System);
    CHECK(m[0].content.rfind(
              "You are playing a social deduction game (Werewolf) as player P3. Your role is Seer", 0) == 0);
    CHECK(m[0].content.find("[Strategy Document]\n# Seer strategy") != std::string::npos);
    const std::string& u = m[1].content;
    const auto notes = u.find("[Your Notes]\nP2 seems nervous.");
    const auto state = u.find("[Game State]\nYou are P3, the Seer (team villagers).");
    const auto taskAt = u.find("[Task]\nIt is night 1.");
    const auto format = u.find("[Response Format]\nOne JSON object: {\"target\"");
    CHECK(notes == 0);
    CHECK(notes < state);
    CHECK(state < taskAt);
    CHECK(taskAt < format);
    CHECK(format != std::string::npos);
    CHECK(u.find("Allowed targets: P1, P2, P4") != std::string::npos);
    // A strategy edited in Settings replaces the shipped one until reset.
    WerewolfPrompts edited = prompts();
    edited.setStrategy(Role::Seer, "Reveal at once.");
    CHECK(buildMessages(edited, g, wt::SEER, "", task)[0].content.find("Reveal at once.") !=
          std::string::npos);
    edited.resetStrategy(Role::Seer);
    CHECK(edited.strategy(Role::Seer) == prompts().strategy(Role::Seer));
}

TEST_CASE("werewolf answers: targets must be allowed, living and known") {
    Game g = makeGame();
    wt::night(g, wt::V5, wt::W1, wt::V8);
    require(g.endDiscussion());
    const std::vector<int> allowed = g.allowedTargets(wt::V6, DecisionKind::Vote);
    auto ok = parseTargetAnswer(R"({"target":"p2","reasoning":"why not"})", g, allowed);
    REQUIRE(ok.isOk());
    CHECK(ok.value->target == 1);
    CHECK(ok.value->reasoning == "why not");
    CHECK(parseTargetAnswer(R"({"target":3})", g, allowed).value->target == 2);
    CHECK(parseTargetAnswer(R"({"target":"P5"})", g, allowed).error.rfind("P5 is dead.", 0) == 0);
    CHECK(parseTargetAnswer(R"({"target":"P12"})", g, allowed).error.rfind("there is no player P12", 0) == 0);
    CHECK(parseTargetAnswer(R"({"target":"P6"})", g, allowed).error.rfind("P6 is not an allowed target", 0) ==
          0);
    CHECK(parseTargetAnswer(R"({"target":"nobody"})", g, allowed).error.find("Choose one of: P1, P2") !=
          std::string::npos);
    CHECK_FALSE(parseTargetAnswer(R"({"reasoning":"no target"})", g, allowed).isOk());

    auto chat = parseChatAnswer(R"({"send":true,"message":" Hi ","suspicions":{"P2":1.5,"P9x":0.2}})", g);
    REQUIRE(chat.isOk());
    CHECK(chat.value->message == "Hi");
    CHECK(chat.value->suspicions == std::vector<Suspicion>{{1, 1.0}});
    CHECK_FALSE(parseChatAnswer(R"({"send":true,"message":"  "})", g).isOk());
    CHECK(parseChatAnswer(R"({"send":false,"message":"ignored"})", g).value->message.empty());
    CHECK(parseNotesAnswer(std::string(10, 'x') + "\n" + std::string(10, 'y'), 15)
              .value->rfind("xxxxxxxxxx\n[notes cut", 0) == 0);
    CHECK_FALSE(parseNotesAnswer(" \n ", 100).isOk());
}
