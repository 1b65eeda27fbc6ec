// The kaggle rules preset above the engine: a model's "abstain" is read only where the rules allow
// it, the prompts say what the preset does (and balanced prompts do not change), the arena's config
// carries the preset (older configs read as before).
#include "src/modes/werewolf/answers.h"
#include "src/modes/werewolf/player_context.h"
#include "src/modes/werewolf/tournament.h"
#include "tests/werewolf_mode_test_util.h"
#include "tests/werewolf_test_util.h"

#include <doctest/doctest.h>

using namespace chaiba::werewolf;
using namespace chaiba::werewolfmode;
using chaiba::werewolf::test::makeGame;
using chaiba::werewolfmode::test::prompts;
namespace wt = chaiba::werewolf::test;

TEST_CASE("werewolf kaggle a model may answer abstain only where the rules allow it") {
    const Game g = makeGame(Rules::kaggle());
    const std::vector<int> allowed = {wt::V5, wt::V6};
    const auto yes = parseTargetAnswer(R"({"target": " Abstain ", "reasoning": "no evidence yet"})", g, allowed, true);
    REQUIRE(yes.isOk());
    CHECK(yes.value->target == kAbstain);
    CHECK(yes.value->reasoning == "no evidence yet");
    const auto no = parseTargetAnswer(R"({"target": "abstain"})", g, allowed, false);
    REQUIRE_FALSE(no.isOk());
    CHECK(no.error == "abstaining is not allowed for this decision. Choose one of: P5, P6.");
    const auto seat = parseTargetAnswer(R"({"target": "P6"})", g, allowed, true);
    REQUIRE(seat.isOk());
    CHECK(seat.value->target == wt::V6);
    const auto dead = parseTargetAnswer(R"({"target": "P9"})", g, allowed, true);
    REQUIRE_FALSE(dead.isOk());
    CHECK(dead.error.find("Choose one of: P5, P6, or \"abstain\".") != std::string::npos);
}

TEST_CASE("werewolf kaggle the prompts state the preset's rules") {
    const Game k = makeGame(Rules::kaggle());
    const Game b = makeGame(Rules::balanced());
    const TaskInfo vote{AskKind::Vote, {wt::V5, wt::V6}, Phase::Night, 0};
    const std::string kVote = taskText(prompts(), k, vote);
    CHECK(kVote.find("Allowed targets: P5, P6, or \"abstain\" (a vote for nobody)") != std::string::npos);
    CHECK(kVote.find("drawn at random") != std::string::npos);
    const std::string bVote = taskText(prompts(), b, vote);
    CHECK(bVote.find("abstain") == std::string::npos);
    CHECK(bVote.find("On a tie, nobody is eliminated today.") != std::string::npos);
    const TaskInfo wolf{AskKind::WolfVote, {wt::V5}, Phase::Night, 0};
    CHECK(taskText(prompts(), k, wolf).find("on a tie, one of the tied is drawn at random.") != std::string::npos);
    CHECK(taskText(prompts(), b, wolf).find("on a tie, the earliest vote stands. You cannot") != std::string::npos);
    const TaskInfo inspect{AskKind::Inspect, {wt::V5}, Phase::Night, 0};
    CHECK(taskText(prompts(), k, inspect).find("that player's role") != std::string::npos);
    CHECK(taskText(prompts(), b, inspect).find("abstain") == std::string::npos);
    CHECK(taskText(prompts(), b, inspect).find("know for certain\nwhether that player is a werewolf.") != std::string::npos);
    CHECK(taskText(prompts(), k, inspect).find("abstain") == std::string::npos); // a night action never abstains
}

TEST_CASE("werewolf kaggle the arena config carries the preset") {
    const auto k = parseConfigJson(R"({"players":["bot*8"],"rules":"kaggle"})");
    REQUIRE(k.isOk());
    CHECK(k.value->rules == RulesPreset::Kaggle);
    CHECK(configJson(*k.value).find("\"rules\":\"kaggle\"") != std::string::npos);
    CHECK(sessionConfigFor(*k.value, 0, {}).setup.rules == Rules::kaggle());
    // Older configs: "balanced", "plain", or none (balanced).
    CHECK(parseConfigJson(R"({"players":["bot*8"],"rules":"plain"})").value->rules == RulesPreset::Plain);
    CHECK(parseConfigJson(R"({"players":["bot*8"]})").value->rules == RulesPreset::Balanced);
    CHECK(sessionConfigFor(*parseConfigJson(R"({"players":["bot*8"]})").value, 0, {}).setup.rules ==
          Rules::balanced());
    CHECK(parseConfigJson(R"({"players":["bot*8"],"rules":"wild"})").error == "rules must be balanced, plain or kaggle");
}
