// The plan text format (src/modes/planner/plan_text.h): hand-written plans, errors with line
// numbers, the spec's example, and a seeded fuzz test (random plans round trip; mutated text
// parses or fails cleanly, and what parses re-serializes stably).
#include "src/modes/planner/plan_text.h"

#include "tests/planner_fixtures.h"

#include <doctest/doctest.h>

#include <fstream>
#include <random>
#include <sstream>

using namespace chaiba::planner;
using chaiba::planner::testing::catalog;
using chaiba::planner::testing::samplePlan;

namespace {

bool contains(const std::string& text, std::string_view part) {
    return text.find(part) != std::string::npos;
}

std::string readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

std::string errorOf(std::string_view text) {
    auto r = parsePlan(text);
    return r.ok() ? "(parsed)" : r.error;
}

// A random valid plan: dependencies only point to later tasks (so no cycles), top-K entrants only
// rank stages the task depends on, budgets within the cap.
PlanGraph randomPlan(std::mt19937& rng) {
    auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
    const char* words[] = {"alpha", "beta", "final round", "a:b", "#tag", "über", "x  y", "$5 cap", "–"};
    auto text = [&](int minWords) {
        std::string s;
        int n = minWords + pick(4);
        for (int i = 0; i < n; ++i) {
            if (!s.empty()) s += ' ';
            s += words[pick(9)];
        }
        return s;
    };
    PlanGraph g;
    int n = 1 + pick(8);
    for (int i = 0; i < n; ++i) {
        Task t;
        t.id = "t";
        t.id += std::to_string(i);
        t.id += pick(2) ? "-x" : ".y";
        t.name = text(1);
        t.status = static_cast<TaskStatus>(pick(6));
        if (pick(2)) {
            std::string d;
            int lines = 1 + pick(3);
            for (int l = 0; l < lines; ++l) {
                if (l) d += '\n';
                if (pick(3) == 0) continue;
                if (pick(2)) d += "  ";
                d += text(0);
            }
            t.description = d;
        }
        for (int k = pick(3); k > 0; --k) t.decisions.push_back(text(1));
        g.tasks.push_back(t);
    }
    for (int i = 0; i < n; ++i)
        for (int j = i + 1; j < n; ++j)
            if (pick(3) == 0)
                g.tasks[static_cast<size_t>(i)].dependsOn.push_back(g.tasks[static_cast<size_t>(j)].id);
    // Stages from the last task backwards, so a source's count is known when a later one ranks it.
    double total = 0;
    for (int i = n - 1; i >= 1; --i) {
        Task& t = g.tasks[static_cast<size_t>(i)];
        if (pick(2)) continue;
        Stage s;
        s.game = static_cast<GameKind>(pick(2));
        const bool werewolf = s.game == GameKind::Werewolf;
        s.format = werewolf ? StageFormat::Arena : static_cast<StageFormat>(pick(4));
        s.games = 1 + pick(50);
        if (!werewolf && pick(2)) s.tickerSeconds = 1 + pick(120);
        s.budgetUsd = pick(2) ? pick(1000) / 100.0 : pick(7) / 3.0;
        s.chess960 = s.game == GameKind::Chess && pick(2);
        if (werewolf) {
            // A table of 5..16: top K of earlier stages (K <= 2 each), then bots and models.
            s.rules = static_cast<chaiba::werewolf::RulesPreset>(pick(3)); // balanced, plain, kaggle
            const char* players[] = {"bot", "bot*3", "random", "llm:openai/gpt-4o-mini", "llm:deepseek/deepseek-chat*2"};
            for (const std::string& dep : t.dependsOn) {
                const Task* src = g.find(dep);
                if (src->stage && pick(2))
                    s.entrants.push_back(Entrant::topOf(1 + pick(std::min(2, src->stage->rankedCount())), dep));
            }
            while (s.participantCount() < 5 || (s.participantCount() < 13 && pick(3) == 0))
                s.entrants.push_back(Entrant::seatSpec(players[pick(5)]));
            if (pick(2)) s.roles = "werewolf:2,seer,villager:" + std::to_string(s.participantCount() - 3);
            if (s.participantCount() < 7) s.roles.clear(); // two wolves need at least 7 seats
            total += s.budgetUsd;
            t.stage = s;
            continue;
        }
        const char* seats[] = {"llm:openai/gpt-4o-mini",
                               "llm:deepseek/deepseek-chat",
                               "engine",
                               "random",
                               "engine:0",
                               "engine:7"};
        for (const std::string& dep : t.dependsOn) {
            const Task* src = g.find(dep);
            if (src->stage && pick(2))
                s.entrants.push_back(Entrant::topOf(1 + pick(src->stage->rankedCount()), dep));
        }
        while (s.participantCount() < 2 || pick(3) == 0)
            s.entrants.push_back(Entrant::seatSpec(seats[pick(6)]));
        total += s.budgetUsd;
        t.stage = s;
    }
    if (pick(2)) g.tasks[0].budgetCapUsd = total + pick(5);
    return g;
}

} // namespace

TEST_CASE("planner text round trip of the sample plan") {
    PlanGraph g = samplePlan();
    std::string text = serializePlan(g);
    CHECK(text == "task plan: Find the best cheap model\n"
                  "  status planned\n"
                  "  cap 10\n"
                  "  needs finals\n"
                  "  desc Cheap and strong.\n"
                  "  decision Chess first.\n"
                  "\n"
                  "task groups: Group stage\n"
                  "  status planned\n"
                  "  stage chess roundrobin\n"
                  "  games 2\n"
                  "  tempo max-speed\n"
                  "  budget 4\n"
                  "  chess960 off\n"
                  "  player llm:openai/gpt-4o-mini\n"
                  "  player llm:openai/gpt-4o\n"
                  "  player engine:3\n"
                  "  player random\n"
                  "\n"
                  "task finals: Finals\n"
                  "  status planned\n"
                  "  needs groups\n"
                  "  stage chess double-roundrobin\n"
                  "  games 2\n"
                  "  tempo max-speed\n"
                  "  budget 2\n"
                  "  chess960 off\n"
                  "  player top 2 of groups\n"
                  "  player engine:5\n"
                  "\n"
                  "task notes: Write up the results\n"
                  "  status planned\n");
    auto parsed = parsePlan(text, catalog());
    REQUIRE(parsed.ok());
    CHECK(*parsed.value == g);
    CHECK(serializePlan(*parsed.value) == text);
}

TEST_CASE("planner text reads hand-written plans") {
    std::string text = "# a comment\n"
                       "task root: The plan\r\n"
                       "cap 3.5\n"
                       "\n"
                       "task q: Qualifiers\n"
                       "\tstatus done\n"
                       "  stage werewolf arena\n"
                       "  player llm:x/y\n"
                       "  player bot*3\n"
                       "  player random\n"
                       "  rules plain\n"
                       "  roles werewolf,seer,villager:3\n"
                       "  budget 1.25\n"
                       "  desc  indented line\n"
                       "  desc\n"
                       "  desc last\n"
                       "task f: Final: best of three\n"
                       "  needs q\n"
                       "  needs root2\n"
                       "  stage chess gauntlet\n"
                       "  games 3\n"
                       "  chess960 on\n"
                       "  player engine:7\n"
                       "  player top 2 of q\n"
                       "task root2: Other\n";
    auto r = parsePlan(text);
    REQUIRE_MESSAGE(r.ok(), r.error);
    const PlanGraph& g = *r.value;
    REQUIRE(g.tasks.size() == 4);
    CHECK(g.root().budgetCapUsd == 3.5);
    const Task& q = *g.find("q");
    CHECK(q.status == TaskStatus::Done);
    CHECK(q.stage->game == GameKind::Werewolf);
    CHECK(q.stage->participantCount() == 5);
    CHECK(q.stage->rules == chaiba::werewolf::RulesPreset::Plain);
    CHECK(q.stage->roles == "werewolf,seer,villager:3");
    CHECK(q.stage->budgetUsd == 1.25);
    CHECK(q.stage->games == 1); // default
    CHECK(q.description == " indented line\n\nlast");
    const Task& f = *g.find("f");
    CHECK(f.name == "Final: best of three");
    CHECK(f.dependsOn == std::vector<std::string>{"q", "root2"});
    CHECK(f.stage->chess960);
    CHECK(f.stage->entrants[1] == Entrant::topOf(2, "q"));
    std::string canonical = serializePlan(g);
    CHECK(*parsePlan(canonical).value == g);
    CHECK(serializePlan(*parsePlan(canonical).value) == canonical);
}

TEST_CASE("planner text errors name the line") {
    CHECK(errorOf("") == "the plan has no tasks: its first task is the root");
    CHECK(errorOf("status done\n") == "line 1: expected 'task ID: NAME' before 'status'");
    CHECK(errorOf("task a The plan\n") == "line 1: write 'task ID: NAME'");
    CHECK(errorOf("task a:\n") == "line 1: task 'a' has no name: write 'task ID: NAME'");
    CHECK(errorOf("task a: A\n\n  stauts done\n") == "line 3: unknown key 'stauts' (keys: task, status, cap, "
                                                     "needs, desc, decision, stage, games, tempo, budget, "
                                                     "chess960, rules, roles, player)");
    CHECK(errorOf("task a: A\n  status finished\n") ==
          "line 2: unknown status 'finished' (planned, ready, running, done, failed, skipped)");
    CHECK(errorOf("task a: A\n  status done\n  status ready\n") ==
          "line 3: a second 'status' for task 'a' (the first is on line 2)");
    CHECK(errorOf("task a: A\n  games 3\n") ==
          "line 2: 'games' belongs to a stage: write 'stage GAME FORMAT' first");
    CHECK(errorOf("task a: A\n  stage chess league\n") ==
          "line 2: write 'stage GAME FORMAT': GAME chess or werewolf, FORMAT arena, roundrobin, "
          "double-roundrobin or gauntlet");
    CHECK(errorOf("task a: A\n  cap lots\n") ==
          "line 2: the cap must be a number of USD, e.g. 'cap 5' or 'cap 2.5'");
    CHECK(errorOf("task a: A\n  cap inf\n") ==
          "line 2: the cap must be a number of USD, e.g. 'cap 5' or 'cap 2.5'");
    CHECK(errorOf("task a: A\n  needs b,,c\n") ==
          "line 2: an empty id in 'needs' (ids are separated by commas)");
    CHECK(errorOf("task a: A\n  stage chess arena\n  tempo slow\n") ==
          "line 3: write 'tempo max-speed' or 'tempo ticker SECONDS'");
    CHECK(errorOf("task a: A\n  stage chess arena\n  chess960 yes\n") ==
          "line 3: write 'chess960 on' or 'chess960 off'");
    CHECK(errorOf("task a: A\n  stage chess arena\n  games many\n") ==
          "line 3: games must be a whole number, e.g. 'games 10'");
    CHECK(contains(errorOf("task a: A\n  stage chess arena\n  player stockfish\n"),
                   "line 3: unknown player spec 'stockfish'"));
    CHECK(errorOf("task a: A\ntask b: B\ntask a: C\n") ==
          "line 3: a second task 'a' (the first is on line 1)");
    // Validation problems name the task's line.
    CHECK(errorOf("task a: A\n  needs finals\n\ntask final: F\n") ==
          "line 1: task 'a': depends on a missing task: no task 'finals'; did you mean 'final'?");
    CHECK(errorOf("task a: A\n  needs b\ntask b: B\n  needs c\ntask c: C\n  needs a\n") ==
          "line 1: dependency cycle: a → b → c → a");
    CHECK(errorOf("task a: A\n  cap 1\ntask b: B\n  stage chess arena\n  budget 2\n  player random\n  player "
                  "engine\n") ==
          "line 1: the stage budgets total 2 USD, over the plan's cap of 1 USD (set on the root task 'a')");
    CHECK(errorOf("task a: A\ntask b: B\n  stage chess arena\n  player engine:9\n  player engine\n") ==
          "line 2: task 'b': engine level must be a number from 0 to 7, got 9 in 'engine:9'");
    // The model catalog applies when given.
    std::string withModel = "task a: A\n  stage chess arena\n  player llm:nobody/none\n  player random\n";
    CHECK(parsePlan(withModel).ok());
    CHECK(parsePlan(withModel, catalog()).error ==
          "line 1: task 'a': unknown model 'nobody/none' (not in the model catalog)");
}

TEST_CASE("planner format spec example parses and round trips") {
    std::string spec = readFile(std::string(CHAIBA_SOURCE_DIR) + "/assets/planner/format.md");
    REQUIRE_FALSE(spec.empty());
    // The example is the last ``` block.
    size_t close = spec.rfind("```");
    size_t open = spec.rfind("```\n", close - 1);
    REQUIRE(close != std::string::npos);
    REQUIRE(open != std::string::npos);
    std::string example = spec.substr(open + 4, close - open - 4);
    auto r = parsePlan(example);
    REQUIRE_MESSAGE(r.ok(), r.error);
    CHECK(r.value->tasks.size() == 4);
    CHECK(r.value->find("finals")->stage->participantCount() == 3);
    const Stage& village = *r.value->find("village")->stage;
    CHECK(village.game == GameKind::Werewolf);
    CHECK(village.participantCount() == 8); // two models and bot*6
    CHECK(village.rankedCount() == 3);
    CHECK(serializePlan(*r.value) == example); // the example is written canonically
}

TEST_CASE("planner text replace plan") {
    PlanGraph g = samplePlan();
    auto r = replacePlan(g, "task only: The only task\n", catalog());
    REQUIRE(r.ok());
    CHECK(r.value->tasks.size() == 1);
    CHECK(replacePlan(g, "task : x\n", catalog()).error ==
          "line 1: the task has no id: write 'task ID: NAME'");
}

TEST_CASE("planner text fuzz: random plans round trip") {
    std::mt19937 rng(20240611);
    for (int i = 0; i < 500; ++i) {
        PlanGraph g = randomPlan(rng);
        auto valid = validatePlan(g, PlanContext{});
        REQUIRE_MESSAGE(!valid, valid->message);
        std::string text = serializePlan(g);
        auto parsed = parsePlan(text);
        REQUIRE_MESSAGE(parsed.ok(), (parsed.error + "\n" + text));
        CHECK(*parsed.value == g);
        CHECK(serializePlan(*parsed.value) == text);
    }
}

TEST_CASE("planner text fuzz: mutated text never crashes and re-serializes stably") {
    std::mt19937 rng(7);
    int parsedCount = 0, failedCount = 0;
    const std::string alphabet =
        "task status needs stage player top of : , \n\r\t#-.0123456789 chess arena ready";
    for (int i = 0; i < 3000; ++i) {
        std::string text = serializePlan(randomPlan(rng));
        int edits = 1 + static_cast<int>(rng() % 6);
        for (int e = 0; e < edits && !text.empty(); ++e) {
            size_t at = rng() % text.size();
            switch (rng() % 4) {
            case 0: text[at] = static_cast<char>(rng() % 256); break;
            case 1: text.erase(at, 1 + rng() % 8); break;
            case 2: text.insert(at, 1, alphabet[rng() % alphabet.size()]); break;
            default: text.insert(at, text.substr(rng() % text.size(), rng() % 20)); break;
            }
        }
        auto r = parsePlan(text);
        if (!r.ok()) {
            ++failedCount;
            CHECK_FALSE(r.error.empty());
            continue;
        }
        ++parsedCount;
        std::string once = serializePlan(*r.value);
        auto again = parsePlan(once);
        REQUIRE_MESSAGE(again.ok(), (again.error + "\n" + once));
        CHECK(*again.value == *r.value);
        CHECK(serializePlan(*again.value) == once);
    }
    CHECK(parsedCount > 100);
    CHECK(failedCount > 100);
}

TEST_CASE("planner text a werewolf stage under the kaggle rules") {
    const std::string text = "task village: Kaggle's rules\n"
                             "  status ready\n"
                             "  stage werewolf arena\n"
                             "  games 4\n"
                             "  budget 0\n"
                             "  rules kaggle\n"
                             "  player bot*8\n";
    auto r = parsePlan(text, catalog());
    REQUIRE_MESSAGE(r.ok(), r.error);
    CHECK(r.value->find("village")->stage->rules == chaiba::werewolf::RulesPreset::Kaggle);
    CHECK(serializePlan(*r.value) == text);
    auto bad = parsePlan("task village: V\n  stage werewolf arena\n  rules wild\n  player bot*8\n", catalog());
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.error.find("write 'rules balanced', 'rules plain' or 'rules kaggle'") != std::string::npos);
}

TEST_CASE("planner text werewolf stage round trip and refusal") {
    const std::string text = "task plan: Models at the werewolf table\n"
                             "  status planned\n"
                             "  needs village\n"
                             "\n"
                             "task village: Five bots and two models\n"
                             "  status ready\n"
                             "  stage werewolf arena\n"
                             "  games 12\n"
                             "  budget 0.5\n"
                             "  rules plain\n"
                             "  roles werewolf:2,seer,doctor,villager:3\n"
                             "  player llm:openai/gpt-4o-mini\n"
                             "  player llm:deepseek/deepseek-chat\n"
                             "  player bot*5\n";
    auto r = parsePlan(text, catalog());
    REQUIRE_MESSAGE(r.ok(), r.error);
    const Stage& s = *r.value->find("village")->stage;
    CHECK(s.game == GameKind::Werewolf);
    CHECK(s.games == 12);
    CHECK(s.rules == chaiba::werewolf::RulesPreset::Plain);
    CHECK(s.roles == "werewolf:2,seer,doctor,villager:3");
    CHECK(s.participantCount() == 7);
    CHECK(serializePlan(*r.value) == text); // canonical: no tempo or chess960 lines for werewolf
    // Refusals, each with its line.
    CHECK(parsePlan("task a: A\n  stage werewolf arena\n  player bot*4\n  player llm:nobody/none\n", catalog()).error ==
          "line 1: task 'a': unknown model 'nobody/none' (not in the model catalog)");
    CHECK(errorOf("task a: A\n  stage werewolf arena\n  rules fair\n") ==
          "line 3: write 'rules balanced', 'rules plain' or 'rules kaggle'");
    CHECK(errorOf("task a: A\n  stage werewolf arena\n  player bot*5\n  roles werewolf:3,villager:2\n") ==
          "line 1: task 'a': roles 'werewolf:3,villager:2' for 5 seats: the wolves must be fewer than the other "
          "players");
    CHECK(errorOf("task a: A\n  stage werewolf roundrobin\n  player bot*5\n") ==
          "line 1: task 'a': a werewolf stage uses format arena (the players rotate seats game by game; no pairings)");
    CHECK(errorOf("task a: A\n  stage chess arena\n  player random\n  player engine\n  rules plain\n") ==
          "line 1: task 'a': roles and rules are for werewolf stages only");
}

TEST_CASE("planner text one task as text: every field edited, a new task added, errors name its own line") {
    const PlanGraph g = samplePlan();
    // The text of a task reads back as the task.
    const std::string finals = taskText(*g.find("finals"));
    CHECK(finals.rfind("task finals: Finals\n", 0) == 0);
    PlanResult same = replaceTaskText(g, "finals", finals, catalog());
    REQUIRE_MESSAGE(same.ok(), same.error);
    CHECK(*same.value == g);
    // Stage fields: games, budget, a player; the task keeps its place.
    std::string edited = finals;
    edited.replace(edited.find("games 2"), 7, "games 3");
    edited += "  player engine:6\n";
    PlanResult changed = replaceTaskText(g, "finals", edited, catalog());
    REQUIRE_MESSAGE(changed.ok(), changed.error);
    CHECK(changed.value->indexOf("finals") == 2);
    CHECK(changed.value->find("finals")->stage->games == 3);
    CHECK(changed.value->find("finals")->stage->entrants.size() == 3);
    // A bad value: the line of the task's own text.
    std::string bad = finals;
    bad.replace(bad.find("games 2"), 7, "games two");
    CHECK(replaceTaskText(g, "finals", bad, catalog()).error == "line 5: games must be a whole number, e.g. 'games 10'");
    // A stage over the root's cap names the task's header line.
    std::string costly = finals;
    costly.replace(costly.find("budget 2"), 8, "budget 50");
    const std::string capError = replaceTaskText(g, "finals", costly, catalog()).error;
    CHECK(capError.find("cap") != std::string::npos);
    // Renaming an id others depend on: the problem is elsewhere in the plan.
    std::string renamed = taskText(*g.find("groups"));
    renamed.replace(0, std::string("task groups").size(), "task pools");
    const std::string elsewhere = replaceTaskText(g, "groups", renamed, catalog()).error;
    CHECK(elsewhere.rfind("elsewhere in the plan: ", 0) == 0);
    CHECK(elsewhere.find("groups") != std::string::npos);
    // One task at a time, and a first line.
    CHECK(replaceTaskText(g, "finals", finals + "\ntask x: X\n", catalog()).error ==
          "the text holds 2 tasks: edit one task at a time");
    CHECK(replaceTaskText(g, "finals", "  games 2\n", catalog()).error == "write the task's first line as 'task ID: NAME'");
    CHECK(replaceTaskText(g, "nope", finals, catalog()).error.find("no task 'nope'") == 0);
    // A new task (id empty) goes last; a duplicate id is refused.
    PlanResult added = replaceTaskText(g, "", "task extra: Extra work\n  needs notes\n", catalog());
    REQUIRE_MESSAGE(added.ok(), added.error);
    CHECK(added.value->tasks.back().id == "extra");
    CHECK(added.value->tasks.back().dependsOn == std::vector<std::string>{"notes"});
    CHECK(replaceTaskText(g, "", "task notes: Again\n", catalog()).error.find("a second task 'notes'") != std::string::npos);
    // On an empty plan the new task is the root.
    PlanResult first = replaceTaskText(PlanGraph{}, "", "task plan: The plan\n", catalog());
    REQUIRE(first.ok());
    CHECK(first.value->root().id == "plan");
}

TEST_CASE("planner sample plan (Import's sample) reads and runs without a key") {
    const std::string text = readFile(std::string(CHAIBA_SOURCE_DIR) + "/assets/planner/sample.plan");
    PlanResult plan = parsePlan(text, catalog());
    REQUIRE_MESSAGE(plan.ok(), plan.error);
    for (const Task& t : plan.value->tasks)
        if (t.stage)
            for (const Entrant& e : t.stage->entrants) CHECK_MESSAGE(e.seat.rfind("llm:", 0) != 0, e.seat);
}
