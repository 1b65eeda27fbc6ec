// The plan run (src/modes/planner/plan_run.h): stages in dependency order on a scripted host, the
// top K of a finished stage seating the next, statuses following, and the run's refusals and
// failures (a dependency not done, a host that refuses, a stage that fails, Stop).
#include "src/modes/planner/plan_run.h"

#include "src/modes/planner/plan_text.h"

#include <doctest/doctest.h>

using namespace chaiba::planner;

namespace {

// The stand-in's two-stage plan: a qualifying round robin, then its top 2 against engine:4.
const char* kTwoStages = R"(task plan: Engines
  needs final

task qual: Qualifying
  stage chess roundrobin
  player engine:1
  player engine:2
  player engine:3
  player random

task final: Final
  needs qual
  stage chess roundrobin
  player top 2 of qual
  player engine:4
)";

PlanGraph twoStages() {
    Result<PlanGraph> plan = parsePlan(kTwoStages);
    REQUIRE_MESSAGE(plan.ok(), plan.error);
    return *plan.value;
}

// Plays each stage for `pollsPerStage` polls, then ranks its seats in reverse order.
struct ScriptedHost : StageHost {
    std::vector<StageLaunch> launched;
    int polls = 0;
    int pollsPerStage = 2;
    std::optional<std::string> refuse;
    bool fail = false;
    bool stopped = false;
    std::optional<std::string> startStage(const StageLaunch& launch) override {
        if (refuse) return refuse;
        launched.push_back(launch);
        polls = 0;
        return std::nullopt;
    }
    Poll pollStage() override {
        Poll p;
        if (++polls < pollsPerStage) {
            p.state = State::Running;
            p.detail = "1/2 games";
            return p;
        }
        if (fail || stopped) {
            p.state = State::Failed;
            p.detail = "the host broke";
            return p;
        }
        p.state = State::Finished;
        p.ranking.assign(launched.back().seats.rbegin(), launched.back().seats.rend());
        return p;
    }
    void stopStage() override { stopped = true; }
};

TaskStatus statusOf(const PlanGraph& g, const char* id) { return g.find(id)->status; }

// Ticks until the run ends (bounded).
PlanGraph runToEnd(PlanRunner& runner, PlanGraph plan, StageHost& host) {
    for (int i = 0; i < 100 && runner.running(); ++i)
        if (auto next = runner.tick(plan, host)) plan = std::move(*next);
    return plan;
}

} // namespace

TEST_CASE("stageOrder puts a stage after the stages it needs") {
    CHECK(stageOrder(twoStages()) == std::vector<std::string>{"qual", "final"});
}

TEST_CASE("a two-stage plan runs to the end: the top 2 of qual seat the final, statuses follow") {
    PlanRunner runner;
    ScriptedHost host;
    REQUIRE_FALSE(runner.start(twoStages()).has_value());
    PlanGraph plan = twoStages();
    auto next = runner.tick(plan, host);
    REQUIRE(next);
    plan = *next;
    CHECK(statusOf(plan, "qual") == TaskStatus::Running);
    CHECK(runner.currentTask() == "qual");
    CHECK_FALSE(runner.tick(plan, host).has_value()); // still playing
    CHECK(runner.status() == "stage qual: 1/2 games");
    plan = runToEnd(runner, plan, host);
    CHECK_FALSE(runner.failed());
    REQUIRE(host.launched.size() == 2);
    CHECK(host.launched[0].seats == std::vector<std::string>{"engine:1", "engine:2", "engine:3", "random"});
    // qual's ranking is its seats reversed: random and engine:3 qualify.
    CHECK(host.launched[1].seats == std::vector<std::string>{"random", "engine:3", "engine:4"});
    CHECK(statusOf(plan, "qual") == TaskStatus::Done);
    CHECK(statusOf(plan, "final") == TaskStatus::Done);
    CHECK(statusOf(plan, "plan") == TaskStatus::Done);
    CHECK(runner.status() == "plan plan: done");
}

TEST_CASE("nothing left to run, a refusing host, a failing stage and Stop end the run with a reason") {
    ScriptedHost host;
    SUBCASE("no stage left") {
        PlanRunner runner;
        PlanGraph plan = twoStages();
        REQUIRE(runner.start(plan) == std::nullopt);
        plan = runToEnd(runner, plan, host);
        CHECK(runner.start(plan) == std::string("no stage left to run: every stage is done or skipped"));
        CHECK(PlanRunner().start(PlanGraph{}).has_value());
    }
    SUBCASE("the host refuses: the stage is marked failed") {
        PlanRunner runner;
        host.refuse = "the arena is busy";
        REQUIRE(runner.start(twoStages()) == std::nullopt);
        const PlanGraph plan = runToEnd(runner, twoStages(), host);
        CHECK(runner.failed());
        CHECK(runner.status() == "stage qual could not start: the arena is busy");
        CHECK(statusOf(plan, "qual") == TaskStatus::Failed);
        CHECK(statusOf(plan, "final") == TaskStatus::Planned);
    }
    SUBCASE("a stage fails: the run stops there") {
        PlanRunner runner;
        host.fail = true;
        REQUIRE(runner.start(twoStages()) == std::nullopt);
        const PlanGraph plan = runToEnd(runner, twoStages(), host);
        CHECK(runner.status() == "stage qual failed: the host broke");
        CHECK(statusOf(plan, "qual") == TaskStatus::Failed);
        CHECK(host.launched.size() == 1);
    }
    SUBCASE("Stop during a stage") {
        PlanRunner runner;
        host.pollsPerStage = 50;
        REQUIRE(runner.start(twoStages()) == std::nullopt);
        PlanGraph plan = *runner.tick(twoStages(), host);
        runner.stop(host);
        CHECK(host.stopped);
        plan = runToEnd(runner, plan, host);
        CHECK(runner.status() == "stage qual failed: stopped by you");
        CHECK(statusOf(plan, "qual") == TaskStatus::Failed);
    }
    SUBCASE("a dependency that is not a stage and not done blocks the stage after it") {
        Result<PlanGraph> plan = parsePlan("task plan: P\n  needs b\n\ntask a: Prepare\n\ntask b: B\n  needs a\n"
                                           "  stage chess arena\n  player engine:1\n  player random\n");
        REQUIRE(plan.ok());
        PlanRunner runner;
        REQUIRE(runner.start(*plan.value) == std::nullopt);
        runToEnd(runner, *plan.value, host);
        CHECK(runner.status() == "stage b waits for 'a' (planned): mark it done or skipped, or run it first");
        CHECK(host.launched.empty());
    }
}

TEST_CASE("resolveSeats: a top K whose ranking is unknown is refused, duplicates are seated once") {
    Stage stage;
    stage.entrants = {Entrant::seatSpec("engine:1"), Entrant::topOf(2, "qual"), Entrant::seatSpec("engine:1")};
    CHECK(resolveSeats(stage, {}).error == "takes the top 2 of 'qual', whose ranking is not known");
    auto seats = resolveSeats(stage, {{"qual", {"engine:1", "random", "engine:3"}}});
    REQUIRE(seats.ok());
    CHECK(*seats.value == std::vector<std::string>{"engine:1", "random"});
}

TEST_CASE("resolveSeats: a werewolf table seats each seat of *N, random as the bot, a top-K player once") {
    Stage stage;
    stage.game = GameKind::Werewolf;
    stage.entrants = {Entrant::seatSpec("llm:a/b"), Entrant::seatSpec("bot*3"), Entrant::seatSpec("random"),
                      Entrant::topOf(2, "qual")};
    auto seats = resolveSeats(stage, {{"qual", {"llm:a/b", "llm:c/d", "bot"}}});
    REQUIRE(seats.ok());
    CHECK(*seats.value == std::vector<std::string>{"llm:a/b", "bot", "bot", "bot", "bot", "llm:c/d"});
}
