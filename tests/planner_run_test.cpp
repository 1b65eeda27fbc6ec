// The plan run (src/modes/planner/plan_run.h): stages in dependency order on a scripted host, the
// top K of a finished stage seating the next, statuses following, and the run's refusals and
// failures (a dependency not done, a host that refuses, a stage that fails, Stop).
#include "src/modes/planner/plan_run.h"

#include "src/modes/planner/plan_text.h"

#include <doctest/doctest.h>

#include <algorithm>

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
    double spendPerStage = 0; // what each stage reports it spent (spread over its polls)
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
        p.spentUsd = spendPerStage * std::min(polls + 1, pollsPerStage) / pollsPerStage;
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

// The models' plan of the page: two stages with a model seat and no budget of their own under the
// root's cap, then an engine-only stage.
const char* kCapped = R"(task plan: Capped
  cap 0.01
  needs free

task first: First
  stage chess roundrobin
  player llm:openai/gpt-4o
  player engine:1

task second: Second
  needs first
  stage chess roundrobin
  player llm:openai/gpt-4o
  player engine:2

task free: Engines only
  needs second
  stage chess roundrobin
  player engine:3
  player engine:4
)";

TEST_CASE("stageAllowance: a stage's own budget within what the cap leaves, the rest shared by stages without one") {
    Result<PlanGraph> parsed = parsePlan(kCapped);
    REQUIRE_MESSAGE(parsed.ok(), parsed.error);
    PlanGraph plan = *parsed.value;
    // No budget of their own: the three stages share the cap, money a stage leaves passes on.
    StageAllowance first = stageAllowance(plan, "first", 0);
    REQUIRE(first.usd);
    CHECK(*first.usd == doctest::Approx(0.01 / 3));
    CHECK_FALSE(first.spent);
    CHECK(first.text.find("0.01 USD cap") != std::string::npos);
    plan.tasks[size_t(plan.indexOf("first"))].status = TaskStatus::Done;
    CHECK(*stageAllowance(plan, "second", 0.001).usd == doctest::Approx((0.01 - 0.001) / 2));
    CHECK(stageAllowance(plan, "second", 0.01).spent);
    CHECK(stageAllowance(plan, "second", 0.02).spent); // (a game that ran past it)
    // A later stage's own budget is kept for it; a stage's own budget is held to what is left.
    plan.tasks[size_t(plan.indexOf("free"))].stage->budgetUsd = 0.004;
    CHECK(*stageAllowance(plan, "second", 0.001).usd == doctest::Approx(0.01 - 0.001 - 0.004));
    CHECK(*stageAllowance(plan, "free", 0.008).usd == doctest::Approx(0.002));
    // Without a cap: the stage's own budget, or no limit.
    plan.tasks[0].budgetCapUsd.reset();
    CHECK(*stageAllowance(plan, "free", 5).usd == doctest::Approx(0.004));
    CHECK_FALSE(stageAllowance(plan, "second", 5).usd);
}

TEST_CASE("the root's cap caps a run: each stage is launched with its share, a model stage is not started once the cap is spent") {
    Result<PlanGraph> parsed = parsePlan(kCapped);
    REQUIRE_MESSAGE(parsed.ok(), parsed.error);
    ScriptedHost host;
    host.spendPerStage = 0.008; // each model stage's games run past its share
    PlanRunner runner;
    REQUIRE_FALSE(runner.start(*parsed.value));
    PlanGraph plan = runToEnd(runner, *parsed.value, host);
    // The cap is gone after the second stage, but an engine stage costs nothing: it still runs.
    REQUIRE(host.launched.size() == 3);
    REQUIRE(host.launched[0].budgetUsd);
    CHECK(*host.launched[0].budgetUsd == doctest::Approx(0.01 / 3));
    REQUIRE(host.launched[1].budgetUsd);
    CHECK(*host.launched[1].budgetUsd == doctest::Approx((0.01 - 0.008) / 2));
    CHECK_FALSE(host.launched[2].budgetUsd);
    CHECK(runner.spentUsd() == doctest::Approx(0.016 + 0.008));
    CHECK_FALSE(runner.failed());
    CHECK(statusOf(plan, "free") == TaskStatus::Done);

    // The same with a model at the last table: it is not started, and the run says why.
    PlanGraph withModel = *parsed.value;
    withModel.tasks[size_t(withModel.indexOf("free"))].stage->entrants[0] = Entrant::seatSpec("llm:openai/gpt-4o");
    ScriptedHost again;
    again.spendPerStage = 0.008;
    PlanRunner capped;
    REQUIRE_FALSE(capped.start(withModel));
    withModel = runToEnd(capped, withModel, again);
    CHECK(again.launched.size() == 2);
    CHECK(capped.failed());
    CHECK(capped.status().find("cap of 0.01 USD is spent") != std::string::npos);
    CHECK(statusOf(withModel, "free") == TaskStatus::Planned);
}

TEST_CASE("a stopped run resumes from the stored results: a stage done is not played again, its ranking seats the next") {
    PlanRunner first;
    ScriptedHost host;
    host.pollsPerStage = 1;
    REQUIRE_FALSE(first.start(twoStages()).has_value());
    PlanGraph plan = twoStages();
    // Play qual, then stop during the final.
    while (first.running() && first.results().empty())
        if (auto next = first.tick(plan, host)) plan = std::move(*next);
    REQUIRE(first.results().count("qual"));
    CHECK(first.results().at("qual").ranking == std::vector<std::string>{"random", "engine:3", "engine:2", "engine:1"});
    if (auto next = first.tick(plan, host)) plan = std::move(*next); // the final starts
    REQUIRE(first.currentTask() == "final");
    first.stop(host);
    plan = runToEnd(first, plan, host);
    CHECK(statusOf(plan, "qual") == TaskStatus::Done);
    CHECK(statusOf(plan, "final") == TaskStatus::Failed);
    // What the page stores, read back by a new runner (a reload): the final alone is played.
    std::string why;
    std::optional<std::map<std::string, StageResult>> stored = readStageResults(stageResultsJson(first.results()), &why);
    REQUIRE_MESSAGE(stored, why);
    CHECK(*stored == first.results());
    PlanRunner second;
    second.restore(std::move(*stored));
    ScriptedHost again;
    again.pollsPerStage = 1;
    REQUIRE_FALSE(second.start(plan).has_value());
    plan = runToEnd(second, plan, again);
    CHECK_FALSE(second.failed());
    REQUIRE(again.launched.size() == 1);
    CHECK(again.launched[0].taskId == "final");
    CHECK(again.launched[0].seats == std::vector<std::string>{"random", "engine:3", "engine:4"});
    CHECK(statusOf(plan, "final") == TaskStatus::Done);
    // A damaged or newer store is refused with why.
    CHECK_FALSE(readStageResults("{", &why));
    CHECK(why == "the stored stage results are not JSON");
    CHECK_FALSE(readStageResults(R"({"version":9,"stages":{}})", &why));
    CHECK(why == "the stored stage results are from a newer version");
}

TEST_CASE("advanceFrom: the top K of a table, and a tie at the cut named with the rule that broke it") {
    StageResult r;
    r.ranking = {"engine:3", "engine:2", "random", "engine:1"};
    r.standings = {{"engine:3", 1620, 3, 2.5}, {"engine:2", 1500, 3, 1.5}, {"random", 1500, 3, 1.5}, {"engine:1", 1380, 3, 0.5}};
    r.tieRule = "by the Bradley-Terry rating; equal ratings keep the order the players were listed in";
    Advance one = advanceFrom(r, 1);
    CHECK(one.seats == std::vector<std::string>{"engine:3"});
    CHECK(one.tieNote.empty());
    Advance two = advanceFrom(r, 2);
    CHECK(two.seats == std::vector<std::string>{"engine:3", "engine:2"});
    CHECK(two.tieNote == "a tie at the cut: engine:2 and random share a rating of 1500; engine:2 went on by the table's "
                         "rule (by the Bradley-Terry rating; equal ratings keep the order the players were listed in)");
    CHECK(advanceFrom(r, 3).tieNote.empty()); // 3rd and 4th differ
    CHECK(advanceFrom(r, 4).seats.size() == 4);
    StageResult bare; // a host without a table: the ranking alone, no tie known
    bare.ranking = {"a", "b"};
    CHECK(advanceFrom(bare, 1).seats == std::vector<std::string>{"a"});
    CHECK(advanceFrom(bare, 1).tieNote.empty());
}
