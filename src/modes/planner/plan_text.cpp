// Reads and writes the plan's line-based text format. The parser is strict (unknown keys, repeated
// keys and stage keys outside a stage are errors with their line number) so that a model's typo
// comes back as a message instead of silently vanishing.
#include "src/modes/planner/plan_text.h"

#include <algorithm>
#include <cstdlib>
#include <map>

namespace chaiba::planner {

namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}

std::string inQuotes(std::string_view s) {
    std::string out(1, '\'');
    out.append(s);
    out += '\'';
    return out;
}

constexpr std::string_view kKeys =
    "status, cap, needs, desc, decision, stage, games, tempo, budget, chess960, rules, roles, player";

// Parser state for the task being read: which single-valued keys it has seen.
struct TaskInProgress {
    Task task;
    int line = 0;
    std::map<std::string, int, std::less<>> seen; // key -> line
};

} // namespace

std::string serializePlan(const PlanGraph& graph) {
    std::string out;
    for (const Task& t : graph.tasks) {
        if (!out.empty()) out += '\n';
        out += "task " + t.id + ": " + t.name + '\n';
        out += "  status " + std::string(statusName(t.status)) + '\n';
        if (t.budgetCapUsd) out += "  cap " + numberText(*t.budgetCapUsd) + '\n';
        if (!t.dependsOn.empty()) {
            out += "  needs ";
            for (size_t i = 0; i < t.dependsOn.size(); ++i) out += (i ? ", " : "") + t.dependsOn[i];
            out += '\n';
        }
        if (!t.description.empty()) {
            size_t start = 0;
            while (true) {
                size_t end = t.description.find('\n', start);
                std::string_view line = std::string_view(t.description).substr(start, end - start);
                out += line.empty() ? std::string("  desc\n") : "  desc " + std::string(line) + '\n';
                if (end == std::string::npos) break;
                start = end + 1;
            }
        }
        for (const std::string& d : t.decisions) out += "  decision " + d + '\n';
        if (t.stage) {
            const Stage& s = *t.stage;
            out += "  stage " + std::string(gameName(s.game)) + ' ' + std::string(stageFormatName(s.format)) +
                   '\n';
            out += "  games " + std::to_string(s.games) + '\n';
            const bool chess = s.game == GameKind::Chess;
            // Werewolf stages write only what they use (a ticker or chess960 there is refused).
            if (chess || s.tickerSeconds)
                out += s.tickerSeconds ? "  tempo ticker " + std::to_string(*s.tickerSeconds) + '\n'
                                       : std::string("  tempo max-speed\n");
            out += "  budget " + numberText(s.budgetUsd) + '\n';
            if (chess || s.chess960) out += std::string("  chess960 ") + (s.chess960 ? "on" : "off") + '\n';
            if (!chess || s.rules != werewolf::RulesPreset::Balanced)
                out += "  rules " + std::string(werewolf::rulesPresetName(s.rules)) + '\n';
            if (!s.roles.empty()) out += "  roles " + s.roles + '\n';
            for (const Entrant& e : s.entrants) out += "  player " + e.text() + '\n';
        }
    }
    return out;
}

Result<PlanGraph> parsePlan(std::string_view text, const PlanContext& ctx) {
    using R = Result<PlanGraph>;
    PlanGraph graph;
    std::map<std::string, int, std::less<>> headerLine; // task id -> its "task" line
    std::optional<TaskInProgress> current;
    auto finish = [&] {
        if (current) graph.tasks.push_back(std::move(current->task));
        current.reset();
    };

    int lineNo = 0;
    size_t start = 0;
    while (start <= text.size()) {
        size_t end = text.find('\n', start);
        if (end == std::string_view::npos) end = text.size();
        std::string_view line = text.substr(start, end - start);
        start = end + 1;
        ++lineNo;
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
        if (trim(line).empty() || line.front() == '#') continue;

        size_t space = line.find(' ');
        std::string_view key = line.substr(0, space);
        std::string_view raw = space == std::string_view::npos ? std::string_view{} : line.substr(space + 1);
        std::string_view value = trim(raw);
        auto fail = [&](const std::string& message) {
            return R::fail("line " + std::to_string(lineNo) + ": " + message);
        };

        if (key == "task") {
            size_t colon = value.find(':');
            if (colon == std::string_view::npos) return fail("write 'task ID: NAME'");
            std::string_view id = trim(value.substr(0, colon));
            std::string_view name = trim(value.substr(colon + 1));
            if (id.empty()) return fail("the task has no id: write 'task ID: NAME'");
            if (name.empty()) return fail("task " + inQuotes(id) + " has no name: write 'task ID: NAME'");
            if (auto it = headerLine.find(id); it != headerLine.end())
                return fail("a second task " + inQuotes(id) + " (the first is on line " +
                            std::to_string(it->second) + ")");
            finish();
            headerLine.emplace(std::string(id), lineNo);
            current = TaskInProgress{};
            current->line = lineNo;
            current->task.id = std::string(id);
            current->task.name = std::string(name);
            continue;
        }
        if (!current) return fail("expected 'task ID: NAME' before " + inQuotes(key));
        Task& task = current->task;

        // Keys that may appear only once per task.
        static constexpr std::string_view kSingle[] = {"status", "cap",      "stage", "games", "tempo",
                                                       "budget", "chess960", "rules", "roles"};
        for (std::string_view single : kSingle) {
            if (key != single) continue;
            if (auto it = current->seen.find(key); it != current->seen.end())
                return fail("a second " + inQuotes(key) + " for task " + inQuotes(task.id) +
                            " (the first is on line " + std::to_string(it->second) + ")");
            current->seen.emplace(std::string(key), lineNo);
        }
        bool stageKey = key == "games" || key == "tempo" || key == "budget" || key == "chess960" ||
                        key == "rules" || key == "roles" || key == "player";
        if (stageKey && !task.stage)
            return fail(inQuotes(key) + " belongs to a stage: write 'stage GAME FORMAT' first");

        if (key == "status") {
            auto status = parseStatus(value);
            if (!status)
                return fail("unknown status " + inQuotes(value) +
                            " (planned, ready, running, done, failed, skipped)");
            task.status = *status;
        } else if (key == "cap") {
            auto usd = parseNumber(value);
            if (!usd) return fail("the cap must be a number of USD, e.g. 'cap 5' or 'cap 2.5'");
            task.budgetCapUsd = *usd;
        } else if (key == "needs") {
            if (value.empty()) return fail("'needs' lists task ids: 'needs a, b'");
            for (std::string_view item : splitCommas(value)) {
                std::string_view id = trim(item);
                if (id.empty()) return fail("an empty id in 'needs' (ids are separated by commas)");
                task.dependsOn.emplace_back(id);
            }
        } else if (key == "desc") {
            if (!task.description.empty() || current->seen.count("desc")) task.description += '\n';
            current->seen.emplace("desc", lineNo);
            task.description += std::string(raw);
        } else if (key == "decision") {
            if (value.empty()) return fail("an empty decision");
            task.decisions.emplace_back(value);
        } else if (key == "stage") {
            size_t gap = value.find(' ');
            auto game = parseGame(trim(value.substr(0, gap)));
            auto format =
                gap == std::string_view::npos ? std::nullopt : parseStageFormat(trim(value.substr(gap + 1)));
            if (!game || !format)
                return fail("write 'stage GAME FORMAT': GAME chess or werewolf, FORMAT arena, roundrobin, "
                            "double-roundrobin or gauntlet");
            task.stage = Stage{};
            task.stage->game = *game;
            task.stage->format = *format;
        } else if (key == "games") {
            if (value.empty() || value.size() > 6 ||
                value.find_first_not_of("0123456789") != std::string_view::npos)
                return fail("games must be a whole number, e.g. 'games 10'");
            task.stage->games = std::stoi(std::string(value));
        } else if (key == "tempo") {
            if (value == "max-speed") {
                task.stage->tickerSeconds.reset();
            } else if (value.starts_with("ticker ") && value.size() - 7 <= 6 &&
                       trim(value.substr(7)).find_first_not_of("0123456789") == std::string_view::npos &&
                       !trim(value.substr(7)).empty()) {
                task.stage->tickerSeconds = std::stoi(std::string(trim(value.substr(7))));
            } else {
                return fail("write 'tempo max-speed' or 'tempo ticker SECONDS'");
            }
        } else if (key == "budget") {
            auto usd = parseNumber(value);
            if (!usd) return fail("the budget must be a number of USD, e.g. 'budget 1.5'");
            task.stage->budgetUsd = *usd;
        } else if (key == "chess960") {
            if (value != "on" && value != "off") return fail("write 'chess960 on' or 'chess960 off'");
            task.stage->chess960 = value == "on";
        } else if (key == "rules") {
            const std::optional<werewolf::RulesPreset> preset = werewolf::parseRulesPreset(value);
            if (!preset) return fail("write 'rules balanced', 'rules plain' or 'rules kaggle'");
            task.stage->rules = *preset;
        } else if (key == "roles") {
            if (value.empty() || value.find(' ') != std::string_view::npos)
                return fail("write 'roles ROLE:N,...' without spaces, e.g. 'roles werewolf:2,seer,doctor,villager:4'");
            task.stage->roles = std::string(value);
        } else if (key == "player") {
            auto entrant = parseEntrant(value);
            if (!entrant.ok()) return fail(entrant.error);
            task.stage->entrants.push_back(std::move(*entrant.value));
        } else {
            return fail("unknown key " + inQuotes(key) + " (keys: task, " + std::string(kKeys) + ")");
        }
    }
    finish();

    if (auto problem = validatePlan(graph, ctx)) {
        auto it = headerLine.find(problem->taskId);
        if (it == headerLine.end()) return R::fail(problem->message);
        return R::fail("line " + std::to_string(it->second) + ": " + problem->message);
    }
    return R::success(std::move(graph));
}

std::string taskText(const Task& task) { return serializePlan(PlanGraph{{task}}); }

PlanResult replaceTaskText(const PlanGraph& plan, std::string_view id, std::string_view text, const PlanContext& ctx) {
    // The text must be one task: its own lines parse alone first (syntax, line numbers its own).
    int tasksInText = 0;
    size_t at = 0;
    while (at < text.size()) {
        size_t end = text.find('\n', at);
        if (end == std::string_view::npos) end = text.size();
        std::string_view line = trim(text.substr(at, end - at));
        if (line.starts_with("task ") || line == "task") ++tasksInText;
        at = end + 1;
    }
    if (tasksInText != 1)
        return PlanResult::fail(tasksInText == 0 ? "write the task's first line as 'task ID: NAME'"
                                                 : "the text holds " + std::to_string(tasksInText) +
                                                       " tasks: edit one task at a time");
    const int index = id.empty() ? -1 : plan.indexOf(id);
    if (!id.empty() && index < 0) return PlanResult::fail(missingTaskMessage(plan, id));
    // The plan's text with this task's block in its place; a problem inside the block is named by
    // the block's own line, one elsewhere by the task it is in.
    std::string before, after;
    for (size_t i = 0; i < plan.tasks.size(); ++i) {
        if (int(i) == index) continue;
        std::string& side = index >= 0 && int(i) > index ? after : before;
        side += taskText(plan.tasks[i]) + "\n";
    }
    const std::string joined = before + std::string(text) + "\n\n" + after;
    Result<PlanGraph> parsed = parsePlan(joined, ctx);
    if (parsed.ok()) return parsed;
    const int offset = int(std::count(before.begin(), before.end(), '\n'));
    const int blockLines = int(std::count(text.begin(), text.end(), '\n')) + 1;
    std::string error = parsed.error;
    if (error.starts_with("line ")) {
        const size_t colon = error.find(": ");
        const int line = std::atoi(error.c_str() + 5);
        if (colon != std::string::npos) {
            if (line > offset && line <= offset + blockLines)
                error = "line " + std::to_string(line - offset) + error.substr(colon);
            else
                error = "elsewhere in the plan: " + error.substr(colon + 2);
        }
    }
    return PlanResult::fail(error);
}

PlanResult replacePlan(const PlanGraph& /*current*/, std::string_view text, const PlanContext& ctx) {
    return parsePlan(text, ctx);
}

} // namespace chaiba::planner
