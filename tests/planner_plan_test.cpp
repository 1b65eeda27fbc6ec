// The plan graph's mutations and refusals (src/modes/planner/plan.h): every mutation once as it
// should work and once per refusal, the closest-id hint, cycle paths and the status table.
#include "src/modes/planner/plan.h"

#include "tests/planner_fixtures.h"

#include <doctest/doctest.h>

using namespace chaiba::planner;
using chaiba::planner::testing::catalog;
using chaiba::planner::testing::chessStage;
using chaiba::planner::testing::samplePlan;

namespace {

Task simpleTask(std::string id, std::vector<std::string> deps = {}) {
    Task t;
    t.id = std::move(id);
    t.name = "Task " + t.id;
    t.dependsOn = std::move(deps);
    return t;
}

bool contains(const std::string& text, std::string_view part) {
    return text.find(part) != std::string::npos;
}

} // namespace

TEST_CASE("planner edit distance and closest id") {
    CHECK(editDistance("", "") == 0);
    CHECK(editDistance("final", "finals") == 1);
    CHECK(editDistance("kitten", "sitting") == 3);
    PlanGraph g = samplePlan();
    CHECK(closestId(g, "final") == "finals");
    CHECK(closestId(g, "grups") == "groups");
    CHECK(closestId(PlanGraph{}, "x").empty());
    CHECK(missingTaskMessage(g, "final") == "no task 'final'; did you mean 'finals'?");
}

TEST_CASE("planner add task") {
    const PlanGraph g = samplePlan();
    const PlanGraph copy = g;
    Task t = simpleTask("report", {"finals"});
    t.decisions = {"Short report."};
    PlanResult r = addTask(g, t, catalog());
    REQUIRE(r.ok());
    CHECK(r.value->tasks.size() == 5);
    CHECK(*r.value->find("report") == t);
    CHECK(g == copy); // the input is never changed

    SUBCASE("duplicate id") {
        PlanResult dup = addTask(g, simpleTask("groups"), catalog());
        CHECK_FALSE(dup.ok());
        CHECK(dup.error == "a task 'groups' already exists");
    }
    SUBCASE("missing dependency names the closest id") {
        PlanResult missing = addTask(g, simpleTask("report", {"final"}), catalog());
        CHECK_FALSE(missing.ok());
        CHECK(contains(missing.error, "no task 'final'; did you mean 'finals'?"));
    }
    SUBCASE("bad id and bad name") {
        CHECK(contains(addTask(g, simpleTask("a b"), catalog()).error, "may only use letters"));
        CHECK(contains(addTask(g, simpleTask(""), catalog()).error, "must not be empty"));
        Task unnamed = simpleTask("x");
        unnamed.name = "";
        CHECK(contains(addTask(g, unnamed, catalog()).error, "the name must not be empty"));
        Task twoLines = simpleTask("x");
        twoLines.name = "a\nb";
        CHECK(contains(addTask(g, twoLines, catalog()).error, "the name must be one line"));
    }
    SUBCASE("unknown model") {
        Task t2 = simpleTask("extra");
        t2.stage = chessStage(StageFormat::Arena,
                              {Entrant::seatSpec("llm:openai/gpt-9"), Entrant::seatSpec("random")}, 0);
        PlanResult bad = addTask(g, t2, catalog());
        CHECK_FALSE(bad.ok());
        CHECK(contains(bad.error, "unknown model 'openai/gpt-9'"));
        // An empty catalog function accepts every model.
        CHECK(addTask(g, t2, PlanContext{}).ok());
    }
    SUBCASE("engine level outside the planner's 0..7") {
        Task t2 = simpleTask("extra");
        t2.stage =
            chessStage(StageFormat::Arena, {Entrant::seatSpec("engine:8"), Entrant::seatSpec("engine:7")}, 0);
        CHECK(contains(addTask(g, t2, catalog()).error, "engine level must be a number from 0 to 7, got 8 in 'engine:8'"));
        t2.stage->entrants[0] = Entrant::seatSpec("engine:0");
        CHECK(addTask(g, t2, catalog()).ok());
        t2.stage->entrants[0] = Entrant::seatSpec("engine:-1");
        CHECK(contains(addTask(g, t2, catalog()).error, "from 0 to 7, got -1 in 'engine:-1'"));
    }
    SUBCASE("K larger than the source stage") {
        Task t2 = simpleTask("playoff", {"groups"});
        t2.stage = chessStage(StageFormat::RoundRobin, {Entrant::topOf(5, "groups")}, 0);
        PlanResult bad = addTask(g, t2, catalog());
        CHECK(contains(bad.error, "top 5 of 'groups': its stage ranks only 4 participants"));
        t2.stage->entrants[0].topK = 4;
        CHECK(addTask(g, t2, catalog()).ok());
    }
    SUBCASE("top K needs the dependency and a stage") {
        Task t2 = simpleTask("playoff");
        t2.stage = chessStage(StageFormat::RoundRobin, {Entrant::topOf(2, "groups")}, 0);
        CHECK(contains(addTask(g, t2, catalog()).error, "must depend on it"));
        t2.dependsOn = {"notes"};
        t2.stage->entrants[0] = Entrant::topOf(2, "notes");
        CHECK(contains(addTask(g, t2, catalog()).error, "task 'notes' has no stage"));
    }
    SUBCASE("total budget over the root's cap") {
        Task t2 = simpleTask("extra");
        t2.stage =
            chessStage(StageFormat::Arena, {Entrant::seatSpec("random"), Entrant::seatSpec("engine")}, 4.5);
        PlanResult bad = addTask(g, t2, catalog());
        CHECK_FALSE(bad.ok());
        CHECK(contains(bad.error, "the stage budgets total 10.5 USD, over the plan's cap of 10 USD"));
        t2.stage->budgetUsd = 4;
        CHECK(addTask(g, t2, catalog()).ok());
    }
    SUBCASE("stage rules") {
        Task t2 = simpleTask("extra");
        t2.stage = chessStage(StageFormat::Arena, {Entrant::seatSpec("random")}, 0);
        CHECK(contains(addTask(g, t2, catalog()).error, "at least 2 participants (has 1)"));
        t2.stage =
            chessStage(StageFormat::Arena, {Entrant::seatSpec("random"), Entrant::seatSpec("engine")}, 0);
        t2.stage->chess960 = true;
        t2.stage->entrants = {Entrant::seatSpec("bot*4"), Entrant::seatSpec("random")};
        t2.stage->game = GameKind::Werewolf;
        CHECK(contains(addTask(g, t2, catalog()).error, "chess960 is for chess stages only"));
        t2.stage->chess960 = false;
        t2.stage->games = 0;
        CHECK(contains(addTask(g, t2, catalog()).error, "games must be in 1..10000"));
        t2.stage->games = 3;
        t2.stage->budgetUsd = -1;
        CHECK(contains(addTask(g, t2, catalog()).error, "budget must be"));
    }
    SUBCASE("a cap outside the root") {
        Task t2 = simpleTask("extra");
        t2.budgetCapUsd = 3;
        CHECK(contains(addTask(g, t2, catalog()).error, "only the root task carries a budget cap"));
    }
}

TEST_CASE("planner remove task") {
    const PlanGraph g = samplePlan();
    const PlanGraph copy = g;
    PlanResult r = removeTask(g, "notes", catalog());
    REQUIRE(r.ok());
    CHECK(r.value->tasks.size() == 3);
    CHECK(r.value->find("notes") == nullptr);

    // Removing a task removes every edge to it.
    PlanGraph h = *addDependency(g, "plan", "notes", catalog()).value;
    REQUIRE(h.find("plan")->dependsOn == std::vector<std::string>{"finals", "notes"});
    PlanGraph removed = *removeTask(h, "notes", catalog()).value;
    CHECK(removed.find("plan")->dependsOn == std::vector<std::string>{"finals"});

    CHECK(removeTask(g, "plan", catalog()).error ==
          "the root task 'plan' is the plan itself and cannot be removed");
    CHECK(removeTask(g, "note", catalog()).error == "no task 'note'; did you mean 'notes'?");
    CHECK(contains(removeTask(g, "groups", catalog()).error, "task 'finals' takes the top 2 of 'groups'"));
    // Without the stage that ranks from it, groups can go (and the finals lose the edge).
    PlanGraph noFinals = *removeTask(g, "finals", catalog()).value;
    CHECK(noFinals.find("plan")->dependsOn.empty());
    CHECK(removeTask(noFinals, "groups", catalog()).ok());
    CHECK(g == copy);
}

TEST_CASE("planner status transition table") {
    using S = TaskStatus;
    const S all[] = {S::Planned, S::Ready, S::Running, S::Done, S::Failed, S::Skipped};
    std::string table;
    for (S from : all) {
        table += statusName(from);
        table += ':';
        for (S to : all) {
            if (!statusTransitionAllowed(from, to)) continue;
            table += ' ';
            table += statusName(to);
        }
        table += '\n';
    }
    CHECK(table == "planned: ready skipped\n"
                   "ready: planned running skipped\n"
                   "running: done failed\n"
                   "done:\n"
                   "failed: planned ready skipped\n"
                   "skipped: planned\n");
    for (S s : all) CHECK(parseStatus(statusName(s)) == s);
    CHECK_FALSE(parseStatus("finished").has_value());
}

TEST_CASE("planner set status") {
    const PlanGraph g = samplePlan();
    const PlanGraph copy = g;
    PlanGraph ready = *setStatus(g, "groups", TaskStatus::Ready, catalog()).value;
    CHECK(ready.find("groups")->status == TaskStatus::Ready);
    CHECK(g == copy);

    SUBCASE("ready only when every dependency is done") {
        PlanResult r = setStatus(g, "finals", TaskStatus::Ready, catalog());
        CHECK(r.error ==
              "task 'finals': cannot be ready before its dependencies are done: 'groups' (planned)");
        PlanGraph h = *setStatus(ready, "groups", TaskStatus::Running, catalog()).value;
        h = *setStatus(h, "groups", TaskStatus::Done, catalog()).value;
        CHECK(setStatus(h, "finals", TaskStatus::Ready, catalog()).ok());
        // A skipped dependency also unblocks.
        PlanGraph s = *setStatus(g, "groups", TaskStatus::Skipped, catalog()).value;
        CHECK(setStatus(s, "finals", TaskStatus::Ready, catalog()).ok());
    }
    SUBCASE("running only from ready") {
        PlanResult r = setStatus(g, "groups", TaskStatus::Running, catalog());
        CHECK(r.error ==
              "task 'groups': cannot go from planned to running; from planned it may go to ready, skipped");
        CHECK(setStatus(ready, "groups", TaskStatus::Running, catalog()).ok());
    }
    SUBCASE("done is final") {
        PlanGraph h = *setStatus(ready, "groups", TaskStatus::Running, catalog()).value;
        h = *setStatus(h, "groups", TaskStatus::Done, catalog()).value;
        PlanResult r = setStatus(h, "groups", TaskStatus::Planned, catalog());
        CHECK(
            r.error ==
            "task 'groups': cannot go from done to planned; from done it may go to nothing (done is final)");
    }
    SUBCASE("failed can be retried") {
        PlanGraph h = *setStatus(ready, "groups", TaskStatus::Running, catalog()).value;
        h = *setStatus(h, "groups", TaskStatus::Failed, catalog()).value;
        CHECK(setStatus(h, "groups", TaskStatus::Ready, catalog()).ok());
    }
    SUBCASE("same status and missing task") {
        CHECK(setStatus(g, "groups", TaskStatus::Planned, catalog()).error ==
              "task 'groups': is already planned");
        CHECK(setStatus(g, "group", TaskStatus::Ready, catalog()).error ==
              "no task 'group'; did you mean 'groups'?");
    }
}

TEST_CASE("planner update task") {
    const PlanGraph g = samplePlan();
    const PlanGraph copy = g;
    TaskUpdate u;
    u.name = "Grand final";
    u.description = "Two lines\nof text";
    u.decisions = std::vector<std::string>{"Double round robin."};
    u.addDecision = "Engine 5 as a yardstick.";
    PlanGraph h = *updateTask(g, "finals", u, catalog()).value;
    const Task& f = *h.find("finals");
    CHECK(f.name == "Grand final");
    CHECK(f.description == "Two lines\nof text");
    CHECK(f.decisions == std::vector<std::string>{"Double round robin.", "Engine 5 as a yardstick."});
    CHECK(f.stage == g.find("finals")->stage);
    CHECK(g == copy);

    SUBCASE("stage set, changed and removed") {
        TaskUpdate s;
        s.stage = chessStage(StageFormat::Gauntlet,
                             {Entrant::seatSpec("engine:1"), Entrant::seatSpec("engine:2")}, 1);
        PlanGraph withStage = *updateTask(g, "notes", s, catalog()).value;
        CHECK(withStage.find("notes")->stage->format == StageFormat::Gauntlet);
        TaskUpdate remove;
        remove.stage = std::optional<Stage>{};
        CHECK_FALSE(
            updateTask(withStage, "notes", remove, catalog()).value->find("notes")->stage.has_value());
        // Removing the groups' stage breaks the finals' top 2.
        CHECK(contains(updateTask(g, "groups", remove, catalog()).error, "task 'groups' has no stage"));
    }
    SUBCASE("refusals") {
        TaskUpdate over;
        over.stage =
            chessStage(StageFormat::Arena, {Entrant::seatSpec("random"), Entrant::seatSpec("engine")}, 9);
        CHECK(contains(updateTask(g, "notes", over, catalog()).error, "over the plan's cap of 10 USD"));
        TaskUpdate cap;
        cap.budgetCapUsd = 20.0;
        CHECK(contains(updateTask(g, "notes", cap, catalog()).error,
                       "only the root task 'plan' carries a budget cap"));
        CHECK(updateTask(g, "plan", cap, catalog()).value->root().budgetCapUsd == 20.0);
        cap.budgetCapUsd = 5.0;
        CHECK(contains(updateTask(g, "plan", cap, catalog()).error, "the stage budgets total 6 USD"));
        TaskUpdate noCap;
        noCap.budgetCapUsd = std::optional<double>{};
        CHECK_FALSE(updateTask(g, "plan", noCap, catalog()).value->root().budgetCapUsd.has_value());
        TaskUpdate emptyName;
        emptyName.name = "";
        CHECK(contains(updateTask(g, "notes", emptyName, catalog()).error, "the name must not be empty"));
        CHECK(updateTask(g, "fnals", u, catalog()).error == "no task 'fnals'; did you mean 'finals'?");
    }
}

TEST_CASE("planner add dependency") {
    const PlanGraph g = samplePlan();
    const PlanGraph copy = g;
    PlanGraph h = *addDependency(g, "notes", "finals", catalog()).value;
    CHECK(h.find("notes")->dependsOn == std::vector<std::string>{"finals"});
    CHECK(g == copy);

    PlanResult cycle = addDependency(h, "groups", "notes", catalog());
    CHECK(cycle.error ==
          "making 'groups' depend on 'notes' would close a cycle: groups → notes → finals → groups");
    CHECK(addDependency(g, "groups", "plan", catalog()).error ==
          "making 'groups' depend on 'plan' would close a cycle: groups → plan → finals → groups");
    CHECK(addDependency(g, "notes", "notes", catalog()).error ==
          "task 'notes': a task cannot depend on itself");
    CHECK(addDependency(g, "finals", "groups", catalog()).error ==
          "task 'finals': already depends on 'groups'");
    CHECK(addDependency(g, "notes", "final", catalog()).error == "no task 'final'; did you mean 'finals'?");
    CHECK(addDependency(g, "note", "finals", catalog()).error == "no task 'note'; did you mean 'notes'?");
}

TEST_CASE("planner remove dependency") {
    const PlanGraph g = samplePlan();
    const PlanGraph copy = g;
    PlanGraph h = *removeDependency(g, "plan", "finals", catalog()).value;
    CHECK(h.root().dependsOn.empty());
    CHECK(g == copy);
    CHECK(removeDependency(g, "plan", "notes", catalog()).error ==
          "task 'plan': does not depend on 'notes' (it depends on 'finals')");
    CHECK(removeDependency(g, "notes", "plan", catalog()).error ==
          "task 'notes': does not depend on 'plan' (it has no dependencies)");
    CHECK(contains(removeDependency(g, "finals", "groups", catalog()).error,
                   "its stage takes the top 2 of 'groups'"));
    CHECK(removeDependency(g, "plan", "finale", catalog()).error ==
          "no task 'finale'; did you mean 'finals'?");
}

TEST_CASE("planner validation finds cycles with their path") {
    PlanGraph g;
    g.tasks = {simpleTask("root", {"a"}), simpleTask("a", {"b"}), simpleTask("b", {"c"}),
               simpleTask("c", {"a"})};
    auto cycle = findCycle(g);
    REQUIRE(cycle.has_value());
    CHECK(pathText(*cycle) == "a → b → c → a");
    auto problem = validatePlan(g, PlanContext{});
    REQUIRE(problem.has_value());
    CHECK(problem->message == "dependency cycle: a → b → c → a");
    g.tasks[3].dependsOn.clear();
    CHECK_FALSE(findCycle(g).has_value());
    CHECK_FALSE(validatePlan(g, PlanContext{}).has_value());
    CHECK(validatePlan(PlanGraph{}, PlanContext{})->message ==
          "the plan has no tasks: its first task is the root");
}

TEST_CASE("planner entrants parse and print") {
    CHECK(parseEntrant("llm:openai/gpt-4o").value->seat == "llm:openai/gpt-4o");
    CHECK(parseEntrant(" top 3 of groups ").value->text() == "top 3 of groups");
    CHECK(parseEntrant("top 3 of groups").value->count() == 3);
    CHECK(parseEntrant("engine").ok());
    CHECK(parseEntrant("random").ok());
    CHECK_FALSE(parseEntrant("top three of groups").ok());
    CHECK_FALSE(parseEntrant("top 3 groups").ok());
    CHECK_FALSE(parseEntrant("stockfish").ok());
    CHECK_FALSE(parseEntrant("").ok());
    CHECK(numberText(2.5) == "2.5");
    CHECK(numberText(0.1) == "0.1");
    CHECK(parseNumber("1e-05") == 1e-05);
    CHECK_FALSE(parseNumber("inf").has_value());
    CHECK_FALSE(parseNumber("0x10").has_value());
    CHECK_FALSE(parseNumber("1e999").has_value());
}

TEST_CASE("planner werewolf stages") {
    PlanGraph g = samplePlan(); // groups: 4 chess participants
    Task t = simpleTask("village");
    Stage s;
    s.game = GameKind::Werewolf;
    s.games = 3;
    s.entrants = {Entrant::seatSpec("llm:openai/gpt-4o"), Entrant::seatSpec("bot*5")};
    t.stage = s;
    SUBCASE("a valid table: seats with *N, default deal, plain rules, a deal that fits") {
        PlanResult ok = addTask(g, t, catalog());
        REQUIRE_MESSAGE(ok.ok(), ok.error);
        CHECK(ok.value->find("village")->stage->participantCount() == 6);
        CHECK(ok.value->find("village")->stage->rankedCount() == 2); // the model and the bot
        t.stage->rules = chaiba::werewolf::RulesPreset::Plain;
        t.stage->roles = "werewolf,seer,doctor,villager:3";
        CHECK(addTask(g, t, catalog()).ok());
    }
    SUBCASE("refusals") {
        auto refusal = [&](const Stage& stage) {
            Task copy = t;
            copy.stage = stage;
            return addTask(g, copy, catalog()).error;
        };
        Stage bad = s;
        bad.entrants[0] = Entrant::seatSpec("llm:nobody/none");
        CHECK(contains(refusal(bad), "unknown model 'nobody/none' (not in the model catalog)"));
        bad = s;
        bad.entrants[0] = Entrant::seatSpec("engine:3");
        CHECK(contains(refusal(bad), "unknown player spec 'engine:3' (expected llm:MODEL_ID, random or bot, each maybe *N)"));
        bad = s;
        bad.entrants[1] = Entrant::seatSpec("bot*2");
        CHECK(contains(refusal(bad), "a werewolf stage seats 5 to 16 players (has 3)"));
        bad = s;
        bad.entrants[1] = Entrant::seatSpec("bot*16");
        CHECK(contains(refusal(bad), "(has 17)"));
        bad = s;
        bad.format = StageFormat::RoundRobin;
        CHECK(contains(refusal(bad), "a werewolf stage uses format arena"));
        bad = s;
        bad.tickerSeconds = 30;
        CHECK(contains(refusal(bad), "tempo ticker is for chess stages only"));
        bad = s;
        bad.roles = "werewolf:3,seer,villager:2";
        CHECK(contains(refusal(bad), "roles 'werewolf:3,seer,villager:2' for 6 seats:"));
        bad.roles = "wizard,villager:5";
        CHECK(contains(refusal(bad), "roles: unknown role 'wizard'"));
        bad = s;
        bad.budgetUsd = 20;
        CHECK(contains(refusal(bad), "over the plan's cap of 10 USD"));
        // A chess stage takes no werewolf seats, roles or rules.
        Stage chess = chessStage(StageFormat::Arena, {Entrant::seatSpec("bot"), Entrant::seatSpec("engine")}, 0);
        CHECK(contains(refusal(chess), "unknown player spec 'bot' (expected llm:MODEL_ID, engine:LEVEL, engine or random)"));
        chess.entrants[0] = Entrant::seatSpec("engine*2");
        CHECK(contains(refusal(chess), "'engine*2': each seat plays once here (no *N"));
        chess.entrants[0] = Entrant::seatSpec("random");
        chess.roles = "werewolf,villager:4";
        CHECK(contains(refusal(chess), "roles and rules are for werewolf stages only"));
    }
    SUBCASE("K against a werewolf source counts distinct players") {
        PlanResult with = addTask(g, t, catalog());
        REQUIRE(with.ok());
        Task next = simpleTask("final", {"village"});
        next.stage = chessStage(StageFormat::RoundRobin, {Entrant::topOf(3, "village"), Entrant::seatSpec("engine")}, 0);
        CHECK(contains(addTask(*with.value, next, catalog()).error,
                       "top 3 of 'village': its stage ranks only 2 distinct players"));
        next.stage->entrants[0].topK = 2;
        CHECK(addTask(*with.value, next, catalog()).ok());
    }
}

TEST_CASE("stage seats: each game's grammar in play's one seat parser, engine levels 0..7") {
    CHECK(chessStageSeats().forms() == "llm:MODEL_ID, engine:LEVEL, engine or random");
    CHECK(chessStageSeats().maxEngineLevel == 7);
    CHECK(werewolfStageSeats().forms() == "llm:MODEL_ID, random or bot, each maybe *N");
    CHECK(seatEntry("bot*6")->count == 6);
    CHECK(seatEntry("engine:9")->spec.level == 9); // any level number until the stage's game checks it
    CHECK_FALSE(seatEntry("stockfish").has_value());
    CHECK(tablePlayer("random") == "bot");
    CHECK(tablePlayer("llm:x/y*2") == "llm:x/y");
    CHECK(parseEntrant("bot*x").error ==
          "'bot*x': *N must be a seat count from 1 to 16; a participant may also be 'top K of TASK_ID'");
}
