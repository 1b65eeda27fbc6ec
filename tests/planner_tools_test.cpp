// The planner's tool dispatch (src/modes/planner/plan_tools.h) and its schema files: each tool with
// good arguments, malformed JSON, missing fields and wrong types; cards; the diff.
#include "src/modes/planner/plan_diff.h"
#include "src/modes/planner/plan_text.h"
#include "src/modes/planner/plan_tools.h"

#include "tests/planner_fixtures.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>

using namespace chaiba::planner;
using chaiba::planner::testing::catalog;
using chaiba::planner::testing::samplePlan;

namespace {

bool contains(const std::string& text, std::string_view part) {
    return text.find(part) != std::string::npos;
}

PlannerToolResult run(const PlanGraph& g, std::string_view name, std::string_view args) {
    return runPlannerTool(g, name, args, catalog());
}

// An error without a graph whose text contains `part`.
void checkError(const PlannerToolResult& r, std::string_view part) {
    CHECK(r.isError);
    CHECK_FALSE(r.graph.has_value());
    CHECK_MESSAGE(contains(r.text, part), r.text);
}

std::string readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

} // namespace

TEST_CASE("planner tool schema files parse and match their names") {
    REQUIRE(plannerToolNames().size() == 9);
    for (std::string_view name : plannerToolNames()) {
        CAPTURE(name);
        std::string text =
            readFile(std::string(CHAIBA_SOURCE_DIR) + "/assets/planner/tools/" + std::string(name) + ".json");
        REQUIRE_FALSE(text.empty());
        auto j = nlohmann::json::parse(text, nullptr, false);
        REQUIRE_FALSE(j.is_discarded());
        CHECK(j["name"] == name);
        CHECK(j["description"].is_string());
        CHECK(j["parameters"]["type"] == "object");
        CHECK(j["parameters"]["properties"].is_object());
        // Every required field is a declared property.
        if (j["parameters"].contains("required"))
            for (const auto& field : j["parameters"]["required"])
                CHECK(j["parameters"]["properties"].contains(field.get<std::string>()));
    }
}

TEST_CASE("planner tool get_graph") {
    PlanGraph g = samplePlan();
    PlannerToolResult r = run(g, "get_graph", "{}");
    CHECK_FALSE(r.isError);
    CHECK_FALSE(r.graph.has_value());
    CHECK(r.text == serializePlan(g));
    CHECK(run(g, "get_graph", "").text == serializePlan(g)); // empty arguments are {}
    checkError(run(g, "get_graph", R"({"verbose": true})"),
               "unknown field 'verbose' (this tool takes no arguments)");
}

TEST_CASE("planner tool add_task") {
    PlanGraph g = samplePlan();
    PlannerToolResult r =
        run(g, "add_task", R"({"id": "semis", "name": "  Semi finals ", "depends_on": ["groups"],
        "decisions": ["Top 4 only."], "description": "Line one\r\nline two",
        "stage": {"game": "chess", "format": "roundrobin", "participants": ["top 4 of groups"], "games": 2,
                  "tempo": "ticker", "ticker_seconds": 20, "budget_usd": 1.5, "chess960": true}})");
    REQUIRE_MESSAGE(!r.isError, r.text);
    REQUIRE(r.graph.has_value());
    const Task& t = *r.graph->find("semis");
    CHECK(t.name == "Semi finals");
    CHECK(t.description == "Line one\nline two");
    CHECK(t.status == TaskStatus::Planned);
    CHECK(t.decisions == std::vector<std::string>{"Top 4 only."});
    CHECK(t.stage->entrants == std::vector<Entrant>{Entrant::topOf(4, "groups")});
    CHECK(t.stage->tickerSeconds == 20);
    CHECK(t.stage->budgetUsd == 1.5);
    CHECK(t.stage->chess960);
    CHECK(r.card.text() == "add_task semis: Semi finals");
    CHECK(contains(r.text, "OK: add_task semis: Semi finals\nPlan: 5 tasks, stage budgets 7.5 of 10 USD\n"));
    CHECK(contains(
        r.text,
        "- semis [planned] Semi finals; needs groups; chess roundrobin, 4 players, 2 games, 1.5 USD\n"));

    checkError(run(g, "add_task", R"({"id": "groups", "name": "Again"})"),
               "Error: add_task: a task 'groups' already exists");
    checkError(run(g, "add_task", R"({"id": "x", "name": "X", "depends_on": ["final"]})"),
               "did you mean 'finals'?");
    checkError(run(g, "add_task", R"({"id": "x", "name": "X", "stage": {"game": "chess", "format": "arena",
        "participants": ["llm:acme/unknown", "random"], "games": 1}})"),
               "unknown model 'acme/unknown'");
    checkError(run(g, "add_task",
                   R"({"id": "x", "name": "X"})"
                   "garbage"),
               "add_task: the arguments are not valid JSON");
    checkError(run(g, "add_task", R"({"id": "x", "name": )"), "not valid JSON");
    checkError(run(g, "add_task", R"(["x"])"), "add_task: the arguments must be a JSON object, got an array");
    checkError(run(g, "add_task", R"({"id": "x"})"), "add_task: missing required field 'name' (a string)");
    checkError(run(g, "add_task", R"({"id": 7, "name": "X"})"),
               "add_task: field 'id' must be a string, got an integer");
    checkError(run(g, "add_task", R"({"id": "x", "name": "X", "depends_on": "groups"})"),
               "field 'depends_on' must be an array of strings, got a string");
    checkError(run(g, "add_task", R"({"id": "x", "name": "X", "depends_on": [1]})"),
               "field 'depends_on' must hold strings only, got an integer");
    checkError(run(g, "add_task", R"({"id": "x", "name": "X", "dependsOn": ["groups"]})"),
               "unknown field 'dependsOn'");
    checkError(run(g, "add_task", R"({"id": "x", "name": "X", "status": "started"})"),
               "unknown status 'started'");
    checkError(run(g, "add_task", R"({"id": "x", "name": "X", "stage": {"game": "chess", "format": "arena",
        "participants": ["random", "engine"]}})"),
               "add_task: stage: missing required field 'games' (an integer)");
    checkError(run(g, "add_task", R"({"id": "x", "name": "X", "stage": {"game": "chess", "format": "arena",
        "participants": ["random", "engine"], "games": 2.5}})"),
               "stage: field 'games' must be an integer, got a number");
    checkError(run(g, "add_task", R"({"id": "x", "name": "X", "stage": {"game": "go", "format": "arena",
        "participants": ["random", "engine"], "games": 2}})"),
               "stage: unknown game 'go' (chess or werewolf)");
    checkError(run(g, "add_task", R"({"id": "x", "name": "X", "stage": {"game": "chess", "format": "arena",
        "participants": ["stockfish", "engine"], "games": 2}})"),
               "stage: participant 'stockfish': unknown player spec 'stockfish'");
    checkError(run(g, "add_task", R"({"id": "x", "name": "X", "stage": "chess"})"),
               "field 'stage' must be an object, got a string");
    checkError(run(g, "add_task", R"({"id": "x", "name": "X", "stage": {"game": "chess", "format": "arena",
        "participants": ["engine:9", "engine"], "games": 2}})"),
               "engine level must be a number from 0 to 7, got 9 in 'engine:9'");
}

TEST_CASE("planner tool remove_task") {
    PlanGraph g = samplePlan();
    PlannerToolResult r = run(g, "remove_task", R"({"id": "notes"})");
    REQUIRE_FALSE(r.isError);
    CHECK(r.graph->tasks.size() == 3);
    CHECK(r.card.text() == "remove_task notes: was Write up the results");
    checkError(run(g, "remove_task", R"({"id": "plan"})"), "cannot be removed");
    checkError(run(g, "remove_task", R"({"id": "note"})"), "no task 'note'; did you mean 'notes'?");
    checkError(run(g, "remove_task", R"({})"), "missing required field 'id'");
    checkError(run(g, "remove_task", R"({"id": null})"), "field 'id' must be a string, got null");
    checkError(run(g, "remove_task", "{id: notes}"), "not valid JSON");
}

TEST_CASE("planner tool set_status") {
    PlanGraph g = samplePlan();
    PlannerToolResult r = run(g, "set_status", R"({"id": "groups", "status": "ready"})");
    REQUIRE_FALSE(r.isError);
    CHECK(r.graph->find("groups")->status == TaskStatus::Ready);
    CHECK(r.card == ToolCard{"set_status", "groups", "planned", "ready"});
    CHECK(r.card.text() == "set_status groups: planned → ready");
    checkError(run(g, "set_status", R"({"id": "finals", "status": "ready"})"),
               "before its dependencies are done");
    checkError(run(g, "set_status", R"({"id": "groups", "status": "finished"})"),
               "unknown status 'finished'");
    checkError(run(g, "set_status", R"({"id": "groups"})"), "missing required field 'status' (a string)");
    checkError(run(g, "set_status", R"({"id": "groups", "status": 3})"),
               "field 'status' must be a string, got an integer");
    checkError(run(g, "set_status", "[]"), "must be a JSON object");
}

TEST_CASE("planner tool update_task") {
    PlanGraph g = samplePlan();
    PlannerToolResult r = run(
        g, "update_task", R"({"id": "finals", "name": "Grand final", "add_decision": "Engine 5 stays."})");
    REQUIRE_MESSAGE(!r.isError, r.text);
    CHECK(r.graph->find("finals")->name == "Grand final");
    CHECK(r.graph->find("finals")->decisions == std::vector<std::string>{"Engine 5 stays."});
    CHECK(r.card.text() == "update_task finals: name 'Finals'; 0 decisions → name 'Grand final'; 1 decision");

    PlannerToolResult stage =
        run(g, "update_task", R"({"id": "notes", "stage": {"game": "werewolf", "format": "arena",
        "participants": ["llm:openai/gpt-4o", "llm:deepseek/deepseek-chat", "random"], "games": 5, "budget_usd": 1}})");
    CHECK(stage.text == "Error: update_task: task 'notes': a werewolf stage seats 5 to 16 players (has 3)");
    stage = run(g, "update_task", R"({"id": "notes", "stage": {"game": "werewolf", "format": "arena",
        "participants": ["llm:openai/gpt-4o", "llm:deepseek/deepseek-chat", "bot*5"], "games": 5, "budget_usd": 1,
        "rules": "plain", "roles": "werewolf:2,seer,doctor,villager:3"}})");
    REQUIRE_MESSAGE(!stage.isError, stage.text);
    CHECK(stage.card.text() == "update_task notes: no stage → werewolf arena, 7 players, 5 games, 1 USD");
    CHECK(stage.graph->find("notes")->stage->rules == chaiba::werewolf::RulesPreset::Plain);
    CHECK(stage.graph->find("notes")->stage->roles == "werewolf:2,seer,doctor,villager:3");
    CHECK(run(g, "update_task", R"({"id": "notes", "stage": {"game": "werewolf", "format": "arena",
        "participants": ["bot*5"], "games": 5, "rules": "fair"}})").text ==
          "Error: update_task: stage: unknown rules 'fair' (balanced, plain or kaggle)");
    PlannerToolResult removed = run(*stage.graph, "update_task", R"({"id": "notes", "stage": null})");
    REQUIRE_FALSE(removed.isError);
    CHECK_FALSE(removed.graph->find("notes")->stage.has_value());

    PlannerToolResult cap = run(g, "update_task", R"({"id": "plan", "budget_cap_usd": 20})");
    REQUIRE_FALSE(cap.isError);
    CHECK(cap.card.text() == "update_task plan: cap 10 USD → cap 20 USD");
    CHECK_FALSE(
        run(g, "update_task", R"({"id": "plan", "budget_cap_usd": null})").graph->root().budgetCapUsd);
    checkError(run(g, "update_task", R"({"id": "plan", "budget_cap_usd": 5})"),
               "over the plan's cap of 5 USD");
    checkError(run(g, "update_task", R"({"id": "plan", "budget_cap_usd": "5"})"),
               "field 'budget_cap_usd' must be a number, got a string");
    checkError(run(g, "update_task", R"({"id": "notes", "budget_cap_usd": 5})"),
               "only the root task 'plan' carries a budget cap");
    checkError(run(g, "update_task", R"({"id": "fnals", "name": "X"})"), "did you mean 'finals'?");
    checkError(run(g, "update_task", R"({"name": "X"})"), "missing required field 'id'");
    checkError(run(g, "update_task", R"({"id": "finals", "decisions": "one"})"),
               "field 'decisions' must be an array of strings");
    checkError(run(g, "update_task", R"({"id": "finals", "stage": {"game": "chess"}})"),
               "stage: missing required field 'format'");
    checkError(
        run(g, "update_task", R"({"id": "finals", "stage": {"game": "chess", "format": "arena", "games": 1,
        "participants": ["random", "engine"], "extra": 1}})"),
        "stage: unknown field 'extra'");
}

TEST_CASE("planner tool add_dependency and remove_dependency") {
    PlanGraph g = samplePlan();
    PlannerToolResult r = run(g, "add_dependency", R"({"task": "notes", "depends_on": "finals"})");
    REQUIRE_FALSE(r.isError);
    CHECK(r.graph->find("notes")->dependsOn == std::vector<std::string>{"finals"});
    CHECK(r.card.text() == "add_dependency notes → finals: notes needs nothing → notes needs finals");
    checkError(run(g, "add_dependency", R"({"task": "groups", "depends_on": "plan"})"),
               "would close a cycle: groups → plan → finals → groups");
    checkError(run(g, "add_dependency", R"({"task": "groups"})"), "missing required field 'depends_on'");
    checkError(run(g, "add_dependency", R"({"task": "groups", "depends_on": ["plan"]})"),
               "field 'depends_on' must be a string, got an array");
    checkError(run(g, "add_dependency", "{"), "not valid JSON");

    PlannerToolResult back =
        run(*r.graph, "remove_dependency", R"({"task": "notes", "depends_on": "finals"})");
    REQUIRE_FALSE(back.isError);
    CHECK(*back.graph == g);
    CHECK(back.card.text() == "remove_dependency notes → finals: notes needs finals → notes needs nothing");
    checkError(run(g, "remove_dependency", R"({"task": "finals", "depends_on": "groups"})"),
               "change the stage first");
    checkError(run(g, "remove_dependency", R"({"task": "notes", "depends_on": "plan"})"),
               "does not depend on 'plan'");
    checkError(run(g, "remove_dependency", R"({"task": true, "depends_on": "plan"})"),
               "field 'task' must be a string, got a boolean");
}

TEST_CASE("planner tool replace_graph") {
    PlanGraph g = samplePlan();
    std::string text = serializePlan(g) + "\ntask extra: Extra\n  needs notes\n";
    nlohmann::json args = {{"text", text}};
    PlannerToolResult r = run(g, "replace_graph", args.dump());
    REQUIRE_MESSAGE(!r.isError, r.text);
    CHECK(r.graph->tasks.size() == 5);
    CHECK(r.card.text() == "replace_graph: 4 tasks → 5 tasks (+1 task, +1 edge)");
    checkError(run(g, "replace_graph", nlohmann::json{{"text", "task a: A\n  stauts done\n"}}.dump()),
               "Error: replace_graph: line 2: unknown key 'stauts'");
    checkError(run(g, "replace_graph", R"({"graph": "task a: A"})"), "unknown field 'graph' (fields: text)");
    checkError(run(g, "replace_graph", R"({"text": 5})"), "field 'text' must be a string, got an integer");
    checkError(run(g, "replace_graph", R"({"text": "task a: A\n  needs b\ntask b: B\n  needs a\n"})"),
               "dependency cycle: a → b → a");
}

TEST_CASE("planner tool unknown tool") {
    checkError(run(samplePlan(), "delete_everything", "{}"),
               "unknown tool 'delete_everything' (tools: get_graph, add_task");
}

TEST_CASE("planner diff") {
    PlanGraph before = samplePlan();
    CHECK(diffPlans(before, before).empty());
    CHECK(diffPlans(before, before).text() == "no changes");

    PlanGraph after = *removeTask(before, "notes", catalog()).value;
    Task a;
    a.id = "a";
    a.name = "A";
    a.dependsOn = {"finals"};
    after = *addTask(after, a, catalog()).value;
    Task b = a;
    b.id = "b";
    after = *addTask(after, b, catalog()).value;
    after = *removeDependency(after, "plan", "finals", catalog()).value;
    TaskUpdate rename;
    rename.name = "Groups";
    after = *updateTask(after, "groups", rename, catalog()).value;

    PlanDiff d = diffPlans(before, after);
    CHECK(d.addedTasks == std::vector<std::string>{"a", "b"});
    CHECK(d.removedTasks == std::vector<std::string>{"notes"});
    CHECK(d.changedTasks == std::vector<std::string>{"groups"}); // edge changes are not "changed"
    CHECK(d.addedEdges == std::vector<PlanEdge>{{"a", "finals"}, {"b", "finals"}});
    CHECK(d.removedEdges == std::vector<PlanEdge>{{"plan", "finals"}});
    CHECK(d.text() == "+2 tasks, −1 task, +2 edges, −1 edge, 1 changed");

    PlanDiff back = diffPlans(after, before);
    CHECK(back.text() == "+1 task, −2 tasks, +1 edge, −2 edges, 1 changed");
}

TEST_CASE("planner list_models: the catalog filtered and cheapest first, unknown ids answered with the closest ones") {
    auto model = [](std::string id, double in, double out, bool tools) {
        chaiba::llm::ModelInfo m;
        m.id = std::move(id);
        m.name = m.id;
        m.pricing.promptUsdPerToken = in / 1e6;
        m.pricing.completionUsdPerToken = out / 1e6;
        m.contextLength = 128000;
        m.supportsTools = tools;
        return m;
    };
    const PlanContext ctx = PlanContext::withCatalog({model("openai/gpt-4o", 2.5, 10, true),
                                                      model("openai/gpt-4o-mini", 0.15, 0.6, true),
                                                      model("deepseek/deepseek-chat", 0.3, 1.2, true),
                                                      model("some/text-only", 0.01, 0.02, false)});
    const PlanGraph g = samplePlan();
    PlannerToolResult all = runPlannerTool(g, "list_models", "{}", ctx);
    REQUIRE_FALSE(all.isError);
    CHECK_FALSE(all.graph); // reads, changes nothing
    CHECK(contains(all.text, "4 of 4 models match"));
    CHECK(all.text.find("some/text-only") < all.text.find("openai/gpt-4o-mini")); // cheapest first
    CHECK(all.text.find("openai/gpt-4o-mini") < all.text.find("deepseek/deepseek-chat"));
    PlannerToolResult tools = runPlannerTool(g, "list_models", R"({"tools_only":true,"limit":2})", ctx);
    CHECK(contains(tools.text, "3 of 4 models match (the first 2 by price)"));
    CHECK_FALSE(contains(tools.text, "some/text-only"));
    CHECK_FALSE(contains(tools.text, "openai/gpt-4o:"));
    PlannerToolResult gpt = runPlannerTool(g, "list_models", R"({"contains":"GPT","sort":"id"})", ctx);
    CHECK(contains(gpt.text, "2 of 4 models match"));
    CHECK(contains(runPlannerTool(g, "list_models", R"({"sort":"cost"})", ctx).text, "must be price, id or context"));
    CHECK(contains(runPlannerTool(g, "list_models", "{}", catalog()).text, "catalog is not available"));
    // An id that is not in the catalog is refused with the closest ones to copy.
    PlannerToolResult unknown = runPlannerTool(
        g, "add_task",
        R"({"id":"x","name":"X","stage":{"game":"chess","format":"roundrobin","games":1,"participants":["llm:openai/gpt-4o-mnii","random"]}})",
        ctx);
    REQUIRE(unknown.isError);
    INFO(unknown.text);
    CHECK(contains(unknown.text, "unknown model 'openai/gpt-4o-mnii' (not in the model catalog; did you mean 'openai/gpt-4o-mini'"));
}
